#include "console/console_server.h"

#include <fmt/format.h>
#include <httplib.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <thread>

#include "console/api.h"
#include "console/assets.h"
#include "console/login_sessions.h"
#include "console/sampler.h"
#include "console/tablet_changes.h"

namespace tessel::console {

namespace {

constexpr const char* kSecurityPolicy =
    "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "frame-ancestors 'none'; form-action 'self'";

bool starts_with(const std::string& s, std::string_view prefix) {
    return s.rfind(prefix, 0) == 0;
}

void send_asset(const Asset& a, httplib::Response& res) {
    res.set_content(std::string(a.bytes()), a.content_type);
}

}  // namespace

class ConsoleServer::Impl {
  public:
    explicit Impl(Database& db) : db_(db) {}

    Status start(const ConsoleOptions& options) {
        if (started_) return Status::invalid("The console is already started");
        if (options.port < 0 || options.port > 65535) {
            return Status::config(fmt::format("Invalid console port {}", options.port));
        }
        history_ = std::make_unique<HeatmapHistory>(options.history);
        api_ = std::make_unique<ConsoleApi>(db_, *history_, changes_);
        sampler_ = std::make_unique<Sampler>(db_, *history_, changes_);
        routes();
        http_.new_task_queue = [] { return new httplib::ThreadPool(4); };
        http_.set_keep_alive_timeout(2);
        http_.set_read_timeout(10);
        http_.set_write_timeout(10);
        http_.set_payload_max_length(64 * 1024);
        bool bound = false;
        if (options.port == 0) {
            port_ = http_.bind_to_any_port(options.address);
            bound = port_ > 0;
        } else {
            bound = http_.bind_to_port(options.address, options.port);
            port_ = options.port;
        }
        if (!bound) {
            return Status::server(fmt::format("Cannot listen for the console on {}:{}",
                                              options.address, options.port));
        }
        started_ = true;
        thread_ = std::thread([this] { http_.listen_after_bind(); });
        // stop() only stops a server that is running: wait until it is.
        for (int i = 0; i < 1000 && !http_.is_running(); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        sampler_->start();
        return Status::ok();
    }

    int port() const { return port_; }

    void stop() {
        if (!started_ || stopped_) return;
        stopped_ = true;
        sampler_->stop();
        http_.stop();
        if (thread_.joinable()) thread_.join();
    }

  private:
    // The role of the request's session; empty when it has none. Every
    // request is "logged in" when no login is required.
    std::optional<std::string> role(const httplib::Request& req) {
        if (!db_.requires_login()) return std::string();
        const std::string token = cookie_value(req.get_header_value("Cookie"), kSessionCookie);
        if (token.empty()) return std::nullopt;
        return sessions_.role_of(token, diagnostics::now_ms());
    }

    void login_page(httplib::Response& res, const std::string& message) {
        const Asset* page = find_asset("/login");
        std::string html = page ? std::string(page->bytes()) : std::string();
        const std::string marker = "<!--MESSAGE-->";
        if (auto pos = html.find(marker); pos != std::string::npos) {
            html.replace(pos, marker.size(),
                         message.empty() ? "" : "<p class=\"error\">" + message + "</p>");
        }
        res.set_content(html, "text/html; charset=utf-8");
    }

    void routes() {
        http_.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
            res.set_header("Content-Security-Policy", kSecurityPolicy);
            res.set_header("X-Content-Type-Options", "nosniff");
            res.set_header("Referrer-Policy", "no-referrer");
            const bool form =
                req.method == "POST" && (req.path == "/login" || req.path == "/logout");
            if (req.method != "GET" && req.method != "HEAD" && !form) {
                res.status = 405;
                res.set_header("Allow", "GET, HEAD");
                res.set_content("{\"error\": \"the console is read-only\"}", "application/json");
                return httplib::Server::HandlerResponse::Handled;
            }
            if (req.path == "/login" || req.path == "/logout" ||
                starts_with(req.path, "/assets/")) {
                return httplib::Server::HandlerResponse::Unhandled;
            }
            if (role(req)) return httplib::Server::HandlerResponse::Unhandled;
            if (starts_with(req.path, "/api/")) {
                res.status = 401;
                res.set_content("{\"error\": \"login required (POST /login)\"}",
                                "application/json");
            } else {
                res.status = 302;
                res.set_header("Location", "/login");
            }
            return httplib::Server::HandlerResponse::Handled;
        });
        http_.Get("/", [](const httplib::Request&, httplib::Response& res) {
            if (const Asset* a = find_asset("/")) send_asset(*a, res);
        });
        http_.Get(R"(/assets/[A-Za-z0-9._-]+)",
                  [](const httplib::Request& req, httplib::Response& res) {
                      if (const Asset* a = find_asset(req.path)) {
                          send_asset(*a, res);
                          res.set_header("Cache-Control", "max-age=3600");
                      } else {
                          res.status = 404;
                          res.set_content("Not Found\n", "text/plain");
                      }
                  });
        http_.Get(R"(/api/([a-z]+))", [this](const httplib::Request& req, httplib::Response& res) {
            const ApiResponse r = api_->handle(req.matches[1], req.params);
            res.status = r.status;
            res.set_header("Cache-Control", "no-store");
            res.set_content(r.body, "application/json");
        });
        http_.Get("/login", [this](const httplib::Request&, httplib::Response& res) {
            if (!db_.requires_login()) {
                res.status = 302;
                res.set_header("Location", "/");
                return;
            }
            login_page(res, "");
        });
        http_.Post("/login", [this](const httplib::Request& req, httplib::Response& res) {
            if (!db_.requires_login()) {
                res.status = 303;
                res.set_header("Location", "/");
                return;
            }
            const std::string user = req.get_param_value("username");
            const std::string password = req.get_param_value("password");
            auto session = db_.login(user, password);
            if (!session.is_ok()) {
                res.status = 401;
                login_page(res, "Wrong username or password.");
                return;
            }
            const std::string token = sessions_.create(user, diagnostics::now_ms());
            res.status = 303;
            res.set_header("Set-Cookie", fmt::format("{}={}; Path=/; HttpOnly; SameSite=Strict",
                                                     kSessionCookie, token));
            res.set_header("Location", "/");
        });
        http_.Post("/logout", [this](const httplib::Request& req, httplib::Response& res) {
            const std::string token = cookie_value(req.get_header_value("Cookie"), kSessionCookie);
            if (!token.empty()) sessions_.remove(token);
            res.status = 303;
            res.set_header("Set-Cookie", fmt::format("{}=; Path=/; HttpOnly; SameSite=Strict; "
                                                     "Max-Age=0",
                                                     kSessionCookie));
            res.set_header("Location", db_.requires_login() ? "/login" : "/");
        });
        http_.set_error_handler([](const httplib::Request&, httplib::Response& res) {
            if (res.body.empty() && res.status == 404) {
                res.set_content("{\"error\": \"not found\"}", "application/json");
            }
        });
    }

    Database& db_;
    TabletChanges changes_;
    LoginSessions sessions_;
    std::unique_ptr<HeatmapHistory> history_;
    std::unique_ptr<ConsoleApi> api_;
    std::unique_ptr<Sampler> sampler_;
    httplib::Server http_;
    std::thread thread_;
    int port_ = 0;
    bool started_ = false;
    bool stopped_ = false;
};

ConsoleServer::ConsoleServer(Database& db) : impl_(std::make_unique<Impl>(db)) {}

ConsoleServer::~ConsoleServer() {
    stop();
}

Status ConsoleServer::start(const ConsoleOptions& options) {
    return impl_->start(options);
}

int ConsoleServer::port() const {
    return impl_->port();
}

void ConsoleServer::stop() {
    impl_->stop();
}

}  // namespace tessel::console
