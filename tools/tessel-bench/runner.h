// The run: which systems and workloads, in what order, with what settings;
// produces the RunReport that main() writes out.
#pragma once

#include <string>
#include <vector>

#include "load.h"
#include "report.h"
#include "workloads.h"

namespace tessel::bench {

struct BenchConfig {
    // Tessel with its default periodic commitlog sync ("tessel"), and
    // optionally a second server started with commitlog_sync: batch
    // ("tessel-batch"); port 0 = not configured.
    std::string host = "127.0.0.1";
    int port = 9042;
    int batch_port = 0;
    // libpq conninfo; empty = PostgreSQL not configured. Rows "postgres"
    // (synchronous_commit=off) and "postgres-sync" (on).
    std::string pg_conninfo;
    // Directory for the raw RocksDB database; empty = not configured.
    std::string rocksdb_dir;
    std::vector<int> rocksdb_threads = {1, 2};
    // Subset of tessel, tessel-batch, postgres, postgres-sync, rocksdb; empty
    // = every configured system.
    std::vector<std::string> systems;
    std::vector<std::string> workloads = workload_names();
    // workload.phase names run for the fully synced rows (write phases).
    std::vector<std::string> sync_phases = {"kv.write", "logistics.append"};
    // Reruns Tessel's kv phases at this fraction of their measured peak with a
    // fixed rate (p99 at 70% of peak); 0 disables.
    double peak_fraction = 0.7;
    int server_pid = 0;  // tesseld's pid for the widepartition RSS samples
    // Shell commands run before and after every Tessel phase, with
    // TESSEL_BENCH_PHASE set to "SYSTEM WORKLOAD.PHASE" (e.g. to zero and dump
    // a profiler's counters per phase, see bench/profile.sh).
    std::string before_phase, after_phase;
    LoadOptions load;
    WorkloadOptions workload;
};

// Runs everything `config` asks for. Failures of one system or workload are
// recorded in report.notes and the run goes on.
RunReport run_benchmark(const BenchConfig& config);

}  // namespace tessel::bench
