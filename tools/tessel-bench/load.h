// The load generator's shared core: which operation runs when (an open-loop
// schedule at a fixed rate, or as fast as answers come back), the warm-up
// cut, per-connection statistics and the summary of a phase.
//
// Every system driver (CQL, PostgreSQL, raw RocksDB) claims operations from
// one OpClock shared by all its connections and records into the
// PhaseStats that its connection owns; the stats are merged when the phase
// ends. With a fixed rate, operation k is *intended* to start at
// start + k / rate, and its latency is measured from that intended time, not
// from when it was actually sent: when the system stalls, the operations
// that should have been sent meanwhile are charged the wait (the correction
// for coordinated omission).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <thread>

#include "histogram.h"

namespace tessel::bench {

using Clock = std::chrono::steady_clock;

struct LoadOptions {
    int connections = 4;
    int depth = 32;         // requests in flight per connection
    double rate = 0;        // total operations per second; 0 = unthrottled
    double duration_s = 5;  // used when ops == 0
    uint64_t ops = 0;       // total operations (warm-up included) when > 0
    double warmup_s = 1;    // operations started earlier are not measured
    bool progress = true;   // progress bar on stderr (only when a terminal)
};

struct Ticket {
    uint64_t seq = 0;            // 0, 1, 2... in claim order
    Clock::time_point intended;  // when the operation should start
    bool measured = false;       // started after the warm-up
};

// Hands out operations to the connections of one phase. Thread-safe.
class OpClock {
  public:
    OpClock(const LoadOptions& options, Clock::time_point start);

    // The next operation, or nullopt when the phase is over (the op count is
    // reached, or the intended start is past the end of the duration).
    // Unthrottled: intended = now. Fixed rate: the caller must not start the
    // operation before `intended` (sleep_until it).
    std::optional<Ticket> claim();

    bool fixed_rate() const { return rate_ > 0; }
    Clock::time_point start() const { return start_; }
    Clock::time_point warmup_end() const { return warmup_end_; }
    Clock::time_point end() const { return end_; }
    uint64_t claimed() const { return next_.load(std::memory_order_relaxed); }
    // Operations completed (any outcome), for the progress bar.
    std::atomic<uint64_t> completed{0};

  private:
    double rate_;
    uint64_t ops_;
    Clock::time_point start_, warmup_end_, end_;
    std::atomic<uint64_t> next_{0};
};

// What one connection (or thread) saw; owned by that thread until merged.
struct PhaseStats {
    LatencyHistogram latency;
    uint64_t ok = 0;
    uint64_t errors = 0;
    uint64_t unmeasured = 0;  // completed during the warm-up
    uint64_t rows = 0;        // rows returned by reads
    uint64_t bytes = 0;       // payload bytes written or read
    Clock::time_point last_completion{};
    std::string first_error;

    // Records the completion (now) of `ticket`. The latency is now - intended.
    void complete(const Ticket& ticket, bool success, Clock::time_point now);
    void fail(const std::string& message);
    void add(const PhaseStats& other);
};

// The summary of one phase on one system: a row of the report.
struct PhaseResult {
    std::string workload;  // kv, logistics, ...
    std::string phase;     // write, read, latest10, ...
    std::string system;    // tessel, postgres, rocksdb-1t, ...
    std::string durability;
    int connections = 0;
    int depth = 0;
    double target_rate = 0;  // 0 = unthrottled
    uint64_t ops = 0;        // measured operations that succeeded
    uint64_t errors = 0;
    double seconds = 0;  // measured window
    double ops_per_s = 0;
    double rows_per_s = 0;
    double mb_per_s = 0;
    // Latency in microseconds.
    double mean_us = 0, p50_us = 0, p90_us = 0, p99_us = 0, p999_us = 0, max_us = 0;
    std::string error;                         // first error message, if any
    std::map<std::string, std::string> extra;  // workload-specific figures

    std::string key() const { return workload + "." + phase; }
};

// Builds a PhaseResult from merged stats; the window runs from the warm-up's
// end to the last completion.
PhaseResult summarize(const PhaseStats& stats, const OpClock& clock, const LoadOptions& options);

// A one-line progress bar on stderr, refreshed four times a second while it
// lives, when stderr is a terminal and `enabled`. Erases itself when done.
class Progress {
  public:
    Progress(std::string label, const OpClock& clock, const LoadOptions& options, bool enabled);
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

  private:
    void run();

    std::string label_;
    const OpClock& clock_;
    LoadOptions options_;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

}  // namespace tessel::bench
