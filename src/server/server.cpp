#include "server/server.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <thread>
#include <vector>

#include "server/connection.h"

namespace tessel::server {
namespace {
// Threads checking passwords: each check is ~20 ms of one core (PBKDF2), so
// two keep logins flowing without taking every core from the loops.
constexpr size_t kLoginThreads = 2;
}  // namespace

Server::Server(ServerConfig config, Database& db) : config_(std::move(config)), db_(db) {
    limits_->max_requests_per_connection = config_.max_requests_per_connection;
    limits_->max_request_bytes = config_.max_request_bytes;
    limits_->max_value_bytes = config_.max_value_bytes;
}

Server::~Server() {
    stop();
}

Status Server::start() {
    if (started_) return Status::server("server already started");
    if (config_.client_tls.enabled) {
        TESSEL_ASSIGN_OR_RETURN(tls_, make_tls_context(config_.client_tls));
    }
    int n = config_.smp > 0 ? config_.smp : static_cast<int>(std::thread::hardware_concurrency());
    if (n < 1) n = 1;
    loops_ = std::make_unique<EventLoops>(n);
    if (db_.requires_login()) login_pool_ = std::make_unique<asio::thread_pool>(kLoginThreads);

    asio::error_code ec;
    asio::ip::address address = asio::ip::make_address(config_.listen_address, ec);
    if (ec) return Status::config("invalid listen address '" + config_.listen_address + "'");
    asio::ip::tcp::endpoint endpoint(address, static_cast<uint16_t>(config_.port));
    acceptor_ = std::make_unique<asio::ip::tcp::acceptor>(loops_->loop(0));
    acceptor_->open(endpoint.protocol(), ec);
    if (!ec) acceptor_->set_option(asio::ip::tcp::acceptor::reuse_address(true), ec);
    if (!ec) acceptor_->bind(endpoint, ec);
    if (!ec) acceptor_->listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
        return Status::config("cannot listen on " + config_.listen_address + ":" +
                              std::to_string(config_.port) + ": " + ec.message());
    }
    port_ = acceptor_->local_endpoint().port();

    metrics_ = std::make_unique<NodeMetrics>(db_);
    if (config_.metrics_port >= 0) {
        // A metrics endpoint that cannot start is logged, not fatal.
        if (Status st = metrics_->serve(config_.metrics_listen_address, config_.metrics_port);
            st.is_ok()) {
            metrics_port_ = metrics_->port();
            spdlog::info("metrics on http://{}:{}/metrics", config_.metrics_listen_address,
                         metrics_port_);
        } else {
            spdlog::warn("metrics endpoint not started: {}", st.message());
        }
    }

    if (config_.http_port >= 0) {
        console::ConsoleOptions options;
        options.address = config_.http_listen_address.empty() ? config_.listen_address
                                                              : config_.http_listen_address;
        options.port = config_.http_port;
        console_ = std::make_unique<console::ConsoleServer>(db_);
        // Unlike /metrics, a console asked for and not served is an error.
        if (Status st = console_->start(options); !st.is_ok()) return st;
        http_port_ = console_->port();
        spdlog::info("console on http://{}:{}/", options.address, http_port_);
    }

    subscription_ =
        db_.subscribe_schema_changes([this](const SchemaChange& c) { on_schema_change(c); });
    cluster_subscription_ =
        db_.subscribe_cluster_events([this](const ClusterEvent& e) { on_cluster_event(e); });
    started_ = true;
    do_accept();
    loops_->start();
    return Status::ok();
}

void Server::do_accept() {
    acceptor_->async_accept(
        loops_->next(), [this](const asio::error_code& ec, asio::ip::tcp::socket socket) {
            if (ec) {
                if (ec == asio::error::operation_aborted || !acceptor_->is_open()) return;
                spdlog::warn("accept failed: {}", ec.message());
            } else if (config_.max_connections >= 0 &&
                       connection_count() >= static_cast<size_t>(config_.max_connections)) {
                refuse_connection(std::move(socket));
            } else {
                Connection::Hooks hooks;
                hooks.on_register = [this](const std::shared_ptr<Connection>& c) {
                    std::lock_guard lock(mu_);
                    schema_listeners_[c->id()] = c;
                };
                hooks.metrics = &metrics_->requests();
                hooks.login_pool = login_pool_.get();
                hooks.on_close = [this](const Connection* c) {
                    std::lock_guard lock(mu_);
                    connections_.erase(c->id());
                    schema_listeners_.erase(c->id());
                };
                ClientSocket client =
                    tls_ ? ClientSocket(std::move(socket), *tls_, config_.client_tls.optional)
                         : ClientSocket(std::move(socket));
                auto conn = std::make_shared<Connection>(
                    std::move(client), db_, config_.max_frame_bytes, limits_, std::move(hooks));
                {
                    std::lock_guard lock(mu_);
                    connections_[conn->id()] = conn;
                }
                conn->start();
            }
            do_accept();
        });
}

void Server::refuse_connection(asio::ip::tcp::socket socket) {
    // As Cassandra does past native_transport_max_concurrent_connections: the
    // connection is closed before anything is read from it.
    asio::error_code ec;
    auto peer = socket.remote_endpoint(ec);
    spdlog::warn(
        "refusing connection from {}: {} connections open "
        "(native_transport_max_concurrent_connections)",
        ec ? std::string("?") : peer.address().to_string(), config_.max_connections);
    socket.shutdown(asio::ip::tcp::socket::shutdown_both, ec);
    socket.close(ec);
}

void Server::on_schema_change(const SchemaChange& change) {
    std::vector<std::shared_ptr<Connection>> targets;
    {
        std::lock_guard lock(mu_);
        for (auto& [id, weak] : schema_listeners_) {
            if (auto c = weak.lock()) targets.push_back(std::move(c));
        }
    }
    // Each connection encodes and writes the event on its own loop.
    for (auto& c : targets)
        c->post_schema_event(change);
}

void Server::on_cluster_event(const ClusterEvent& event) {
    std::vector<std::shared_ptr<Connection>> targets;
    {
        std::lock_guard lock(mu_);
        for (auto& [id, weak] : schema_listeners_) {
            if (auto c = weak.lock()) targets.push_back(std::move(c));
        }
    }
    for (auto& c : targets)
        c->post_cluster_event(event);
}

size_t Server::connection_count() const {
    std::lock_guard lock(mu_);
    return connections_.size();
}

void Server::stop() {
    if (!started_ || stopped_) return;
    stopped_ = true;
    if (subscription_ >= 0) db_.unsubscribe_schema_changes(subscription_);
    db_.unsubscribe_cluster_events(cluster_subscription_);
    if (metrics_) metrics_->stop();
    if (console_) console_->stop();
    // Stop accepting on the acceptor's own loop, then close every client.
    asio::post(loops_->loop(0), [this] {
        asio::error_code ignored;
        acceptor_->close(ignored);
    });
    std::vector<std::shared_ptr<Connection>> open;
    {
        std::lock_guard lock(mu_);
        for (auto& [id, weak] : connections_) {
            if (auto c = weak.lock()) open.push_back(std::move(c));
        }
    }
    for (auto& c : open)
        c->post_close();
    open.clear();
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (connection_count() > 0 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    loops_->stop();
    if (login_pool_) {
        // A check still running finishes; its answer stays queued on a stopped
        // loop and is dropped with the loops below.
        login_pool_->stop();
        login_pool_->join();
        login_pool_.reset();
    }
    {
        std::lock_guard lock(mu_);
        connections_.clear();
        schema_listeners_.clear();
    }
    acceptor_.reset();
    // Destroys the handlers still queued on the loops, and with them the last
    // connections and their sessions, while the Database is certainly alive.
    loops_.reset();
}

}  // namespace tessel::server
