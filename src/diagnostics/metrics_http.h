// MetricsHttpServer: a minimal HTTP/1.1 server for Prometheus scrapes.
//
// GET /metrics (a query string is ignored) answers 200 with the registry's
// exposition, Content-Type "text/plain; version=0.0.4"; HEAD the same without
// a body; any other path 404 and any other method 405. Every response closes
// the connection (scrapers open one per scrape). A request head larger than
// 8 KB or slower than 10 seconds is dropped. It runs on its own thread with
// its own Asio io_context, so a slow scrape never holds a request loop.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "common/status.h"
#include "diagnostics/metrics.h"

namespace tessel::diagnostics {

struct MetricsHttpOptions {
    std::string address = "127.0.0.1";
    int port = 9180;  // 0: an ephemeral port (see port())
};

class MetricsHttpServer {
  public:
    // `registry` must outlive the server.
    explicit MetricsHttpServer(const MetricsRegistry& registry);
    ~MetricsHttpServer();  // stop()
    MetricsHttpServer(const MetricsHttpServer&) = delete;
    MetricsHttpServer& operator=(const MetricsHttpServer&) = delete;

    // Binds and starts the thread. Errors: Config_error when the address does
    // not parse, Server_error when it cannot be bound (the message names
    // address and port); Invalid when already started.
    Status start(const MetricsHttpOptions& options);

    // The bound port (after a successful start), useful with port 0.
    int port() const;

    // Closes the listener and open connections and joins the thread. Idempotent.
    void stop();

  private:
    class Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tessel::diagnostics
