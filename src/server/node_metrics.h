// NodeMetrics: tesseld's Prometheus metrics. Owns the registry, the request
// metrics the connections record into, the scrape-time collectors (partition
// health, tablets per table from system.tablets, RocksDB statistics) and the
// HTTP endpoint serving GET /metrics.
#pragma once

#include <memory>

#include "common/status.h"
#include "diagnostics/metrics.h"
#include "diagnostics/metrics_http.h"
#include "diagnostics/server_metrics.h"
#include "tessel/database.h"

namespace tessel::server {

class NodeMetrics {
  public:
    // `db` must outlive this object.
    explicit NodeMetrics(Database& db);
    ~NodeMetrics();

    diagnostics::ServerMetrics& requests() { return requests_; }
    const diagnostics::MetricsRegistry& registry() const { return registry_; }

    // Serves GET /metrics on address:port (0: a free port); port() tells it.
    Status serve(const std::string& address, int port);
    int port() const { return http_.port(); }
    void stop() { http_.stop(); }

  private:
    void collect_storage(diagnostics::CollectorSink& sink) const;
    void collect_tablets(diagnostics::CollectorSink& sink) const;

    Database& db_;
    diagnostics::MetricsRegistry registry_;
    diagnostics::ServerMetrics requests_;
    diagnostics::MetricsHttpServer http_;
};

}  // namespace tessel::server
