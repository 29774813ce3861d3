#include "diagnostics/metrics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "diagnostics/thread_slot.h"

namespace tessel::diagnostics {

namespace {

void atomic_add(std::atomic<double>& a, double d) {
    double cur = a.load(std::memory_order_relaxed);
    while (!a.compare_exchange_weak(cur, cur + d, std::memory_order_relaxed)) {
    }
}

bool valid_metric_name(std::string_view n) {
    if (n.empty()) return false;
    for (size_t i = 0; i < n.size(); ++i) {
        char c = n[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' ||
                  (i > 0 && c >= '0' && c <= '9');
        if (!ok) return false;
    }
    return true;
}

bool valid_label_name(std::string_view n) {
    return valid_metric_name(n) && n.find(':') == std::string_view::npos;
}

std::string escape_help(std::string_view v) {
    std::string out;
    for (char c : v) {
        if (c == '\\') {
            out += "\\\\";
        } else if (c == '\n') {
            out += "\\n";
        } else {
            out += c;
        }
    }
    return out;
}

// {a="x",b="y"} with an optional extra label (le) last; "" when empty.
std::string label_text(const Labels& labels, const std::string& le = {}) {
    if (labels.empty() && le.empty()) return "";
    std::string out = "{";
    bool first = true;
    for (const auto& [k, v] : labels) {
        if (!first) out += ',';
        first = false;
        out += fmt::format("{}=\"{}\"", k, escape_label_value(v));
    }
    if (!le.empty()) {
        if (!first) out += ',';
        out += fmt::format("le=\"{}\"", le);
    }
    return out + "}";
}

std::string header(const std::string& name, const std::string& help, std::string_view type) {
    return fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, escape_help(help), name, type);
}

}  // namespace

std::string escape_label_value(std::string_view v) {
    std::string out;
    for (char c : v) {
        if (c == '\\') {
            out += "\\\\";
        } else if (c == '"') {
            out += "\\\"";
        } else if (c == '\n') {
            out += "\\n";
        } else {
            out += c;
        }
    }
    return out;
}

std::string format_sample_value(double v) {
    if (std::isnan(v)) return "NaN";
    if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
    return fmt::format("{}", v);  // shortest round-trip form, as Go's 'g' -1
}

void Counter::inc(uint64_t n) {
    cells_[thread_stripe_slot() % kStripes].v.fetch_add(n, std::memory_order_relaxed);
}

uint64_t Counter::value() const {
    uint64_t sum = 0;
    for (const Cell& c : cells_)
        sum += c.v.load(std::memory_order_relaxed);
    return sum;
}

void Gauge::add(double d) {
    atomic_add(v_, d);
}

Histogram::Histogram(std::vector<double> upper_bounds) : bounds_(std::move(upper_bounds)) {
    std::sort(bounds_.begin(), bounds_.end());
    bounds_.erase(std::unique(bounds_.begin(), bounds_.end()), bounds_.end());
    while (!bounds_.empty() && std::isinf(bounds_.back()))
        bounds_.pop_back();
    buckets_ = std::make_unique<std::atomic<uint64_t>[]>(bounds_.size() + 1);
}

void Histogram::observe(double v) {
    if (std::isnan(v)) return;  // would poison _sum for good
    // The first bound >= v: Prometheus buckets are "less than or equal".
    size_t i =
        static_cast<size_t>(std::lower_bound(bounds_.begin(), bounds_.end(), v) - bounds_.begin());
    buckets_[i].fetch_add(1, std::memory_order_relaxed);
    count_.fetch_add(1, std::memory_order_relaxed);
    atomic_add(sum_, v);
}

std::vector<uint64_t> Histogram::bucket_counts() const {
    std::vector<uint64_t> out(bounds_.size() + 1);
    for (size_t i = 0; i < out.size(); ++i)
        out[i] = buckets_[i].load(std::memory_order_relaxed);
    return out;
}

const std::vector<double>& latency_buckets() {
    static const std::vector<double> bounds = [] {
        std::vector<double> b;
        // Built from integer microseconds so every bound prints exactly.
        for (uint64_t decade = 10; decade <= 100000; decade *= 10) {
            for (uint64_t m = 1; m <= 9; ++m)
                b.push_back(static_cast<double>(m * decade) / 1e6);
        }
        for (double s : {1.0, 2.0, 5.0, 10.0})
            b.push_back(s);
        return b;
    }();
    return bounds;
}

void CollectorSink::gauge(const std::string& name, const std::string& help, const Labels& labels,
                          double value) {
    Family& f = families_[name];
    if (f.type.empty()) f = Family{help, "gauge", {}};
    f.samples.emplace_back(labels, value);
}

void CollectorSink::counter(const std::string& name, const std::string& help, const Labels& labels,
                            double value) {
    Family& f = families_[name];
    if (f.type.empty()) f = Family{help, "counter", {}};
    f.samples.emplace_back(labels, value);
}

MetricsRegistry::Series* MetricsRegistry::series_for(const std::string& name,
                                                     const std::string& help, const Labels& labels,
                                                     Type type) {
    std::vector<std::string> names;
    std::vector<std::string> values;
    bool ok = valid_metric_name(name);
    for (const auto& [k, v] : labels) {
        ok = ok && valid_label_name(k) && k != "le";
        names.push_back(k);
        values.push_back(v);
    }
    if (ok) {
        auto [it, inserted] = families_.try_emplace(name);
        Family& f = it->second;
        if (inserted) {
            f.type = type;
            f.help = help;
            f.label_names = names;
        }
        if (f.type == type && f.label_names == names) {
            Series& s = f.series[values];
            if (s.labels.empty()) s.labels = labels;
            return &s;
        }
    }
    detached_.emplace_back();
    return &detached_.back();
}

Counter& MetricsRegistry::counter(const std::string& name, const std::string& help,
                                  const Labels& labels) {
    std::lock_guard lock(mu_);
    Series* s = series_for(name, help, labels, Type::kCounter);
    if (!s->counter) s->counter = std::make_unique<Counter>();
    return *s->counter;
}

Gauge& MetricsRegistry::gauge(const std::string& name, const std::string& help,
                              const Labels& labels) {
    std::lock_guard lock(mu_);
    Series* s = series_for(name, help, labels, Type::kGauge);
    if (!s->gauge) s->gauge = std::make_unique<Gauge>();
    return *s->gauge;
}

Histogram& MetricsRegistry::histogram(const std::string& name, const std::string& help,
                                      const Labels& labels,
                                      const std::vector<double>& upper_bounds) {
    std::lock_guard lock(mu_);
    Series* s = series_for(name, help, labels, Type::kHistogram);
    if (!s->histogram) s->histogram = std::make_unique<Histogram>(upper_bounds);
    return *s->histogram;
}

void MetricsRegistry::add_collector(Collector collector) {
    std::lock_guard lock(mu_);
    collectors_.push_back(std::move(collector));
}

std::string MetricsRegistry::exposition() const {
    std::map<std::string, std::string> blocks;  // family name -> its text
    std::vector<Collector> collectors;
    {
        std::lock_guard lock(mu_);
        collectors = collectors_;
        for (const auto& [name, f] : families_) {
            std::string& out = blocks[name];
            switch (f.type) {
                case Type::kCounter:
                    out = header(name, f.help, "counter");
                    for (const auto& [values, s] : f.series) {
                        out += fmt::format("{}{} {}\n", name, label_text(s.labels),
                                           s.counter->value());
                    }
                    break;
                case Type::kGauge:
                    out = header(name, f.help, "gauge");
                    for (const auto& [values, s] : f.series) {
                        out += fmt::format("{}{} {}\n", name, label_text(s.labels),
                                           format_sample_value(s.gauge->value()));
                    }
                    break;
                case Type::kHistogram:
                    out = header(name, f.help, "histogram");
                    for (const auto& [values, s] : f.series) {
                        const Histogram& h = *s.histogram;
                        std::vector<uint64_t> counts = h.bucket_counts();
                        uint64_t cumulative = 0;
                        for (size_t i = 0; i < counts.size(); ++i) {
                            cumulative += counts[i];
                            std::string le = i < h.upper_bounds().size()
                                                 ? format_sample_value(h.upper_bounds()[i])
                                                 : "+Inf";
                            out += fmt::format("{}_bucket{} {}\n", name, label_text(s.labels, le),
                                               cumulative);
                        }
                        // _count from the buckets, so it always equals the +Inf bucket.
                        out += fmt::format("{}_sum{} {}\n", name, label_text(s.labels),
                                           format_sample_value(h.sum()));
                        out +=
                            fmt::format("{}_count{} {}\n", name, label_text(s.labels), cumulative);
                    }
                    break;
            }
        }
    }
    // Collectors run outside the lock: they may be slow (RocksDB properties).
    CollectorSink sink;
    for (const Collector& c : collectors)
        c(sink);
    for (const auto& [name, f] : sink.families_) {
        if (blocks.count(name) != 0 || !valid_metric_name(name)) continue;
        std::string& out = blocks[name];
        out = header(name, f.help, f.type);
        for (const auto& [labels, v] : f.samples) {
            out += fmt::format("{}{} {}\n", name, label_text(labels), format_sample_value(v));
        }
    }
    std::string text;
    for (const auto& [name, block] : blocks)
        text += block;
    return text;
}

}  // namespace tessel::diagnostics
