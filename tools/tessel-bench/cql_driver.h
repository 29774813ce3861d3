// CqlSystem: runs workload phases against a Tessel server over the CQL
// native protocol, with the pipelined C++ client (src/client).
//
// Each connection is one Client; each keeps `depth` prepared EXECUTEs in
// flight. Unthrottled, a completion's callback (on the connection's I/O
// thread) claims and sends the next operation, so no other thread is on the
// hot path. At a fixed rate, one pacer thread sends each operation at its
// intended time to a connection with one of its `depth` slots free, and the
// callback measures the latency from that intended time.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "client/client.h"
#include "common/status.h"
#include "load.h"
#include "workloads.h"

namespace tessel::bench {

class CqlSystem {
  public:
    // Opens `connections` connections and (re)creates keyspace bench
    // (SimpleStrategy, replication_factor 1), dropping its old tables.
    static Result<std::unique_ptr<CqlSystem>> open(const std::string& host, int port,
                                                   int connections);
    ~CqlSystem();

    // system.local's release_version, or "unknown".
    std::string release_version();

    // Creates the workload's tables (dropping old ones). An option the server
    // refuses falls back as the SchemaStep says; features[step.feature] is
    // "true" or "false", and features[feature + "_error"] keeps the refusal.
    Status create_schema(const Workload& workload, std::map<std::string, std::string>* features);

    // Runs one load phase with options.connections (at most the number
    // opened) and options.depth in flight per connection.
    Result<PhaseResult> run_phase(const Phase& phase, const LoadOptions& options,
                                  const std::string& label);

    // Pages sequentially through the partition `phase` selects, one page in
    // flight, sampling the VmRSS of `server_pid` (when > 0) every 50 ms.
    // The result's ops are pages; extra holds rss_before_mb, rss_max_mb and
    // rss_growth_mb.
    Result<PhaseResult> run_paging_scan(const Phase& phase, int server_pid, bool progress);

  private:
    explicit CqlSystem(std::vector<std::unique_ptr<client::Client>> clients);

    std::vector<std::unique_ptr<client::Client>> clients_;
};

// The VmRSS of process `pid` in bytes, from /proc/PID/status (0 if unknown).
uint64_t process_rss_bytes(int pid);

}  // namespace tessel::bench
