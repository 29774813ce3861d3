// Metrics: counters, gauges and histograms, exposed in the Prometheus text
// format (version 0.0.4).
//
// Registration (MetricsRegistry::counter/gauge/histogram) takes a mutex and
// returns a reference that stays valid for the registry's lifetime: look a
// metric up once (at startup, or when a table opens) and keep the reference.
// Recording is lock-free: counters are striped over cache-line-padded atomics
// (a thread adds to its own stripe, so event loops do not bounce one line),
// gauges are one atomic, histograms an atomic per bucket.
//
// Scrape-time values (RocksDB statistics, tablet counts, large partitions) come
// from collectors: callbacks run on every exposition, adding samples to a sink.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessel::diagnostics {

// Label name/value pairs, in the order they are printed.
using Labels = std::vector<std::pair<std::string, std::string>>;

class Counter {
  public:
    void inc(uint64_t n = 1);
    uint64_t value() const;

  private:
    static constexpr size_t kStripes = 8;
    struct alignas(64) Cell {
        std::atomic<uint64_t> v{0};
    };
    std::array<Cell, kStripes> cells_;
};

class Gauge {
  public:
    void set(double v) { v_.store(v, std::memory_order_relaxed); }
    void add(double d);
    double value() const { return v_.load(std::memory_order_relaxed); }

  private:
    std::atomic<double> v_{0};
};

// Cumulative buckets with fixed upper bounds (ascending; +Inf is implicit).
class Histogram {
  public:
    explicit Histogram(std::vector<double> upper_bounds);

    void observe(double v);
    // Latency helper: records microseconds as seconds.
    void observe_micros(uint64_t micros) { observe(static_cast<double>(micros) / 1e6); }

    const std::vector<double>& upper_bounds() const { return bounds_; }
    // Per-bucket (not cumulative) counts; the last is the +Inf bucket.
    std::vector<uint64_t> bucket_counts() const;
    uint64_t count() const { return count_.load(std::memory_order_relaxed); }
    double sum() const { return sum_.load(std::memory_order_relaxed); }

  private:
    std::vector<double> bounds_;
    std::unique_ptr<std::atomic<uint64_t>[]> buckets_;  // bounds_.size() + 1
    std::atomic<uint64_t> count_{0};
    std::atomic<double> sum_{0};
};

// Log-linear latency bounds in seconds: 1..9 x 10^e for 10 microseconds up
// to 1 second, then 2, 5 and 10 seconds: 49 bounds, each within a factor
// of two of the next.
const std::vector<double>& latency_buckets();

// What a collector adds at scrape time.
class CollectorSink {
  public:
    void gauge(const std::string& name, const std::string& help, const Labels& labels,
               double value);
    void counter(const std::string& name, const std::string& help, const Labels& labels,
                 double value);

  private:
    friend class MetricsRegistry;
    struct Family {
        std::string help;
        std::string type;
        std::vector<std::pair<Labels, double>> samples;
    };
    std::map<std::string, Family> families_;
};

using Collector = std::function<void(CollectorSink&)>;

class MetricsRegistry {
  public:
    // Names must match [a-zA-Z_:][a-zA-Z0-9_:]*; label names
    // [a-zA-Z_][a-zA-Z0-9_]*. A name reused with another type or label names
    // is a programming error, answered with a fresh detached metric so a
    // caller never crashes (and nothing of it is exposed).
    Counter& counter(const std::string& name, const std::string& help, const Labels& labels = {});
    Gauge& gauge(const std::string& name, const std::string& help, const Labels& labels = {});
    Histogram& histogram(const std::string& name, const std::string& help,
                         const Labels& labels = {},
                         const std::vector<double>& upper_bounds = latency_buckets());

    void add_collector(Collector collector);

    // The whole registry plus collectors, families sorted by name and series
    // by label values: "# HELP", "# TYPE", then the samples; histograms as
    // name_bucket{...,le="..."} (cumulative), name_sum, name_count.
    std::string exposition() const;

  private:
    enum class Type { kCounter, kGauge, kHistogram };
    struct Series {
        Labels labels;
        std::unique_ptr<Counter> counter;
        std::unique_ptr<Gauge> gauge;
        std::unique_ptr<Histogram> histogram;
    };
    struct Family {
        Type type;
        std::string help;
        std::vector<std::string> label_names;
        std::map<std::vector<std::string>, Series> series;  // by label values
    };
    Series* series_for(const std::string& name, const std::string& help, const Labels& labels,
                       Type type);

    mutable std::mutex mu_;
    std::map<std::string, Family> families_;
    std::vector<Collector> collectors_;
    std::deque<Series> detached_;  // answers to invalid registrations
};

// Text helpers of the format, exposed for tests and collectors.
std::string escape_label_value(std::string_view v);  // \ " and newline escaped
std::string format_sample_value(double v);           // "+Inf", "NaN", 12, 0.5 ...

}  // namespace tessel::diagnostics
