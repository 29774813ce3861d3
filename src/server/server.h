// Server: tesseld's network front end. Accepts CQL native protocol
// connections and serves them on a pool of event loops over one Database.
//
// Lifecycle: construct, start() (binds and begins accepting), stop() (stops
// accepting, closes every client, joins the loops). The Database is not
// flushed here: the owner of the Database decides (tesseld flushes on stop).
#pragma once

#include <asio.hpp>
#include <asio/ssl.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

#include "common/status.h"
#include "console/console_server.h"
#include "server/config.h"
#include "server/event_loops.h"
#include "server/node_metrics.h"
#include "server/request_limits.h"
#include "tessel/database.h"

namespace tessel::server {

class Connection;

class Server {
  public:
    // `db` must outlive the server.
    Server(ServerConfig config, Database& db);
    ~Server();  // stop()

    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    // Binds config.listen_address:config.port (0 picks a free port) and starts
    // the loops. Config_error when the address does not parse or cannot be
    // bound (the message names it), or the TLS files cannot be used.
    Status start();
    // The bound port (meaningful after a successful start()).
    uint16_t port() const { return port_; }
    int loop_count() const { return loops_ ? loops_->size() : 0; }
    // Idempotent. Safe to call from any thread except a loop thread.
    void stop();

    // Connections currently open (for tests and logs).
    size_t connection_count() const;

    // The /metrics port (after start() with config.metrics_port >= 0), else -1.
    int metrics_port() const { return metrics_port_; }
    // The console's port (after start() with config.http_port >= 0), else -1.
    int http_port() const { return http_port_; }

  private:
    void do_accept();
    void refuse_connection(asio::ip::tcp::socket socket);
    void on_schema_change(const SchemaChange& change);
    void on_cluster_event(const ClusterEvent& event);

    ServerConfig config_;
    Database& db_;
    std::unique_ptr<NodeMetrics> metrics_;
    int metrics_port_ = -1;
    std::unique_ptr<console::ConsoleServer> console_;
    int http_port_ = -1;
    std::unique_ptr<EventLoops> loops_;
    // Password checks, off the loops (connection.h); only with a login.
    std::unique_ptr<asio::thread_pool> login_pool_;
    std::unique_ptr<asio::ip::tcp::acceptor> acceptor_;
    std::shared_ptr<asio::ssl::context> tls_;
    // Shared by every connection (request_limits.h).
    std::shared_ptr<RequestLimits> limits_ =
        std::make_shared<RequestLimits>();  // client_encryption_options enabled
    uint16_t port_ = 0;
    int subscription_ = -1;
    int cluster_subscription_ = 0;
    bool started_ = false;
    bool stopped_ = false;

    mutable std::mutex mu_;  // guards the two maps (connect/close/DDL only)
    std::map<uint64_t, std::weak_ptr<Connection>> connections_;
    // Connections registered for any event type (each filters its own).
    std::map<uint64_t, std::weak_ptr<Connection>> schema_listeners_;
};

}  // namespace tessel::server
