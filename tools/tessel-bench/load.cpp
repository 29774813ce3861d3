#include "load.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace tessel::bench {
namespace {

Clock::duration seconds(double s) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

double to_us(int64_t ns) {
    return static_cast<double>(ns) / 1000.0;
}

}  // namespace

OpClock::OpClock(const LoadOptions& options, Clock::time_point start)
    : rate_(options.rate),
      ops_(options.ops),
      start_(start),
      warmup_end_(start + seconds(options.warmup_s)),
      end_(options.ops > 0 ? Clock::time_point::max()
                           : start + seconds(options.warmup_s + options.duration_s)) {}

std::optional<Ticket> OpClock::claim() {
    uint64_t seq = next_.fetch_add(1, std::memory_order_relaxed);
    if (ops_ > 0 && seq >= ops_) return std::nullopt;
    Ticket t;
    t.seq = seq;
    if (rate_ > 0) {
        t.intended = start_ + seconds(static_cast<double>(seq) / rate_);
    } else {
        t.intended = Clock::now();
    }
    if (t.intended >= end_) return std::nullopt;
    t.measured = t.intended >= warmup_end_;
    return t;
}

void PhaseStats::complete(const Ticket& ticket, bool success, Clock::time_point now) {
    if (!success) {
        ++errors;
        return;
    }
    if (!ticket.measured) {
        ++unmeasured;
        return;
    }
    ++ok;
    latency.record(
        std::chrono::duration_cast<std::chrono::nanoseconds>(now - ticket.intended).count());
    last_completion = std::max(last_completion, now);
}

void PhaseStats::fail(const std::string& message) {
    if (first_error.empty()) first_error = message;
}

void PhaseStats::add(const PhaseStats& other) {
    latency.add(other.latency);
    ok += other.ok;
    errors += other.errors;
    unmeasured += other.unmeasured;
    rows += other.rows;
    bytes += other.bytes;
    last_completion = std::max(last_completion, other.last_completion);
    if (first_error.empty()) first_error = other.first_error;
}

PhaseResult summarize(const PhaseStats& stats, const OpClock& clock, const LoadOptions& options) {
    PhaseResult r;
    r.connections = options.connections;
    r.depth = options.depth;
    r.target_rate = options.rate;
    r.ops = stats.ok;
    r.errors = stats.errors;
    r.error = stats.first_error;
    if (stats.ok > 0 && stats.last_completion > clock.warmup_end()) {
        r.seconds =
            std::chrono::duration<double>(stats.last_completion - clock.warmup_end()).count();
    }
    if (r.seconds > 0) {
        r.ops_per_s = static_cast<double>(stats.ok) / r.seconds;
        r.rows_per_s = static_cast<double>(stats.rows) / r.seconds;
        r.mb_per_s = static_cast<double>(stats.bytes) / r.seconds / (1024.0 * 1024.0);
    }
    const LatencyHistogram& h = stats.latency;
    r.mean_us = h.mean() / 1000.0;
    r.p50_us = to_us(h.value_at_percentile(50));
    r.p90_us = to_us(h.value_at_percentile(90));
    r.p99_us = to_us(h.value_at_percentile(99));
    r.p999_us = to_us(h.value_at_percentile(99.9));
    r.max_us = to_us(h.max());
    return r;
}

Progress::Progress(std::string label, const OpClock& clock, const LoadOptions& options,
                   bool enabled)
    : label_(std::move(label)), clock_(clock), options_(options) {
    if (enabled && options.progress && isatty(STDERR_FILENO)) {
        thread_ = std::thread([this] { run(); });
    }
}

Progress::~Progress() {
    stop_ = true;
    if (thread_.joinable()) {
        thread_.join();
        std::fprintf(stderr, "\r\033[K");
        std::fflush(stderr);
    }
}

void Progress::run() {
    constexpr int kWidth = 30;
    uint64_t last = 0;
    auto last_t = Clock::now();
    while (!stop_) {
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
        auto now = Clock::now();
        uint64_t done = clock_.completed.load(std::memory_order_relaxed);
        double frac = 0;
        if (options_.ops > 0) {
            frac = static_cast<double>(done) / static_cast<double>(options_.ops);
        } else {
            double total = options_.warmup_s + options_.duration_s;
            frac = std::chrono::duration<double>(now - clock_.start()).count() / total;
        }
        frac = std::clamp(frac, 0.0, 1.0);
        double dt = std::chrono::duration<double>(now - last_t).count();
        double rate = dt > 0 ? static_cast<double>(done - last) / dt : 0;
        last = done;
        last_t = now;
        int filled = static_cast<int>(frac * kWidth);
        std::string bar(static_cast<size_t>(filled), '=');
        bar.resize(kWidth, ' ');
        bool warming = now < clock_.warmup_end();
        std::fprintf(stderr, "\r\033[K%-28s [%s] %3d%% %9.0f ops/s%s", label_.c_str(), bar.c_str(),
                     static_cast<int>(frac * 100), rate, warming ? " (warm-up)" : "");
        std::fflush(stderr);
    }
}

}  // namespace tessel::bench
