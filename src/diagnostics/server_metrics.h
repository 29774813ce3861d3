// The metrics tesseld exports, registered once so that recording a request is
// an array index and a few relaxed atomic adds.
//
// Families (all prefixed tessel_):
//   requests_total{type}                 requests by opcode (QUERY, EXECUTE, ...)
//   request_latency_seconds{type}        histogram, log-linear buckets
//   request_errors_total{code}           ERROR responses by protocol name
//   bytes_received_total, bytes_sent_total   frame bytes
//   connections                          open client connections (gauge)
//   large_partitions{keyspace,table}     partitions over a warn threshold (scrape time)
//   hottest_partition_writes_per_second{keyspace,table}
//                                        the top write partition of the last complete
//                                        window (scrape time)
// Tablet counts and RocksDB statistics are the server's own collectors
// (MetricsRegistry::add_collector).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "common/status.h"
#include "diagnostics/clock.h"
#include "diagnostics/hot_partitions.h"
#include "diagnostics/large_partitions.h"
#include "diagnostics/metrics.h"

namespace tessel::diagnostics {

enum class RequestType {
    kStartup,
    kOptions,
    kQuery,
    kPrepare,
    kExecute,
    kBatch,
    kRegister,
    kAuthResponse,
    kOther,
};
inline constexpr size_t kRequestTypes = 9;
std::string_view request_type_name(RequestType type);  // "QUERY", ...

class ServerMetrics {
  public:
    // Registers the families in `registry`, which must outlive this object.
    explicit ServerMetrics(MetricsRegistry& registry);

    // One answered request: its latency from frame decoded to response
    // queued, and the error code when the response was an ERROR.
    void request(RequestType type, uint64_t latency_micros,
                 std::optional<ErrorCode> error = std::nullopt);
    void bytes_received(uint64_t n) { bytes_received_->inc(n); }
    void bytes_sent(uint64_t n) { bytes_sent_->inc(n); }
    void connection_opened() { connections_->add(1); }
    void connection_closed() { connections_->add(-1); }

  private:
    std::array<Counter*, kRequestTypes> requests_{};
    std::array<Histogram*, kRequestTypes> latency_{};
    std::array<Counter*, 18> errors_{};  // one per ErrorCode
    Counter* bytes_received_;
    Counter* bytes_sent_;
    Gauge* connections_;
};

// Scrape-time gauges over the health components (large_partitions and
// hottest_partition_writes_per_second above). Both must outlive `registry`.
void add_partition_health_collector(MetricsRegistry& registry, const LargePartitionTracker& large,
                                    const HotPartitionsRegistry& hot, Clock clock = now_ms);

}  // namespace tessel::diagnostics
