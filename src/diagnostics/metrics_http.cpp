#include "diagnostics/metrics_http.h"

#include <fmt/format.h>

#include <asio.hpp>
#include <atomic>
#include <chrono>
#include <string_view>
#include <thread>

namespace tessel::diagnostics {

namespace {

constexpr size_t kMaxRequestHead = 8192;
constexpr auto kRequestTimeout = std::chrono::seconds(10);

std::string response(int code, std::string_view reason, std::string_view content_type,
                     const std::string& body, bool head_only) {
    std::string out = fmt::format(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        code, reason, content_type, body.size());
    if (!head_only) out += body;
    return out;
}

class Session : public std::enable_shared_from_this<Session> {
  public:
    Session(asio::ip::tcp::socket socket, const MetricsRegistry& registry)
        : socket_(std::move(socket)),
          timer_(socket_.get_executor()),
          buf_(kMaxRequestHead),
          registry_(registry) {}

    void start() {
        auto self = shared_from_this();
        timer_.expires_after(kRequestTimeout);
        timer_.async_wait([self](const asio::error_code& ec) {
            if (!ec) {
                asio::error_code ignored;
                self->socket_.close(ignored);
            }
        });
        asio::async_read_until(socket_, buf_, "\r\n\r\n",
                               [self](const asio::error_code& ec, size_t) {
                                   if (ec) {
                                       self->close();
                                       return;
                                   }
                                   self->answer();
                               });
    }

  private:
    void answer() {
        std::string head(asio::buffers_begin(buf_.data()), asio::buffers_end(buf_.data()));
        std::string_view line(head);
        line = line.substr(0, line.find("\r\n"));
        // "METHOD TARGET VERSION"
        size_t sp1 = line.find(' ');
        size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
        std::string_view method = line.substr(0, sp1);
        std::string_view target =
            sp1 == std::string_view::npos ? "" : line.substr(sp1 + 1, sp2 - sp1 - 1);
        target = target.substr(0, target.find('?'));
        const bool head_only = method == "HEAD";
        if (method != "GET" && !head_only) {
            out_ = response(405, "Method Not Allowed", "text/plain", "Method Not Allowed\n", false);
        } else if (target != "/metrics") {
            out_ = response(404, "Not Found", "text/plain", "Not Found\n", head_only);
        } else {
            out_ = response(200, "OK", "text/plain; version=0.0.4; charset=utf-8",
                            registry_.exposition(), head_only);
        }
        auto self = shared_from_this();
        asio::async_write(socket_, asio::buffer(out_),
                          [self](const asio::error_code&, size_t) { self->close(); });
    }

    void close() {
        asio::error_code ignored;
        timer_.cancel();
        socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
        socket_.close(ignored);
    }

    asio::ip::tcp::socket socket_;
    asio::steady_timer timer_;
    asio::streambuf buf_;
    std::string out_;
    const MetricsRegistry& registry_;
};

}  // namespace

class MetricsHttpServer::Impl {
  public:
    explicit Impl(const MetricsRegistry& registry)
        : registry_(registry), acceptor_(io_), backoff_(io_) {}

    Status start(const MetricsHttpOptions& options) {
        if (started_) return Status::invalid("The metrics endpoint is already started");
        asio::error_code ec;
        auto address = asio::ip::make_address(options.address, ec);
        if (ec) {
            return Status::config(fmt::format("Invalid metrics listen address '{}': {}",
                                              options.address, ec.message()));
        }
        if (options.port < 0 || options.port > 65535) {
            return Status::config(fmt::format("Invalid metrics port {}", options.port));
        }
        asio::ip::tcp::endpoint endpoint(address, static_cast<uint16_t>(options.port));
        acceptor_.open(endpoint.protocol(), ec);
        if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
        if (!ec) acceptor_.bind(endpoint, ec);
        if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
        if (ec) {
            asio::error_code ignored;
            acceptor_.close(ignored);
            return Status::server(fmt::format("Cannot listen for metrics on {}:{}: {}",
                                              options.address, options.port, ec.message()));
        }
        port_ = acceptor_.local_endpoint(ec).port();
        started_ = true;
        accept();
        thread_ = std::thread([this] { io_.run(); });
        return Status::ok();
    }

    void stop() {
        if (!started_ || stopped_) return;
        stopped_ = true;
        io_.stop();
        if (thread_.joinable()) thread_.join();
        asio::error_code ignored;
        acceptor_.close(ignored);
    }

    int port() const { return port_; }

  private:
    void accept() {
        acceptor_.async_accept([this](const asio::error_code& ec, asio::ip::tcp::socket socket) {
            if (ec == asio::error::operation_aborted) return;
            if (!ec) {
                std::make_shared<Session>(std::move(socket), registry_)->start();
                accept();
                return;
            }
            // Out of descriptors, say: retry shortly instead of spinning.
            backoff_.expires_after(std::chrono::milliseconds(100));
            backoff_.async_wait([this](const asio::error_code& wait_ec) {
                if (!wait_ec) accept();
            });
        });
    }

    const MetricsRegistry& registry_;
    asio::io_context io_;
    asio::ip::tcp::acceptor acceptor_;
    asio::steady_timer backoff_;
    std::thread thread_;
    int port_ = 0;
    bool started_ = false;
    bool stopped_ = false;
};

MetricsHttpServer::MetricsHttpServer(const MetricsRegistry& registry)
    : impl_(std::make_unique<Impl>(registry)) {}

MetricsHttpServer::~MetricsHttpServer() {
    stop();
}

Status MetricsHttpServer::start(const MetricsHttpOptions& options) {
    return impl_->start(options);
}

int MetricsHttpServer::port() const {
    return impl_->port();
}

void MetricsHttpServer::stop() {
    impl_->stop();
}

}  // namespace tessel::diagnostics
