#include "diagnostics/metrics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <thread>
#include <vector>

namespace tessel::diagnostics {
namespace {

TEST(Metrics, ExpositionFormatIsExact) {
    MetricsRegistry reg;
    reg.counter("tessel_requests_total", "Requests by type.", {{"type", "query"}}).inc(3);
    reg.counter("tessel_requests_total", "Requests by type.", {{"type", "execute"}}).inc();
    reg.gauge("tessel_tablets", "Tablets on this node.").set(4);
    Histogram& h = reg.histogram("tessel_request_latency_seconds", "Request latency.",
                                 {{"type", "query"}}, {0.001, 0.01, 0.1});
    for (double v : {0.0009765625, 0.0078125, 0.0625, 2.0})
        h.observe(v);
    reg.add_collector([](CollectorSink& sink) {
        sink.gauge("tessel_large_partitions", "Partitions over a warn threshold.",
                   {{"keyspace", "ks"}}, 2);
    });
    EXPECT_EQ(reg.exposition(),
              "# HELP tessel_large_partitions Partitions over a warn threshold.\n"
              "# TYPE tessel_large_partitions gauge\n"
              "tessel_large_partitions{keyspace=\"ks\"} 2\n"
              "# HELP tessel_request_latency_seconds Request latency.\n"
              "# TYPE tessel_request_latency_seconds histogram\n"
              "tessel_request_latency_seconds_bucket{type=\"query\",le=\"0.001\"} 1\n"
              "tessel_request_latency_seconds_bucket{type=\"query\",le=\"0.01\"} 2\n"
              "tessel_request_latency_seconds_bucket{type=\"query\",le=\"0.1\"} 3\n"
              "tessel_request_latency_seconds_bucket{type=\"query\",le=\"+Inf\"} 4\n"
              "tessel_request_latency_seconds_sum{type=\"query\"} 2.0712890625\n"
              "tessel_request_latency_seconds_count{type=\"query\"} 4\n"
              "# HELP tessel_requests_total Requests by type.\n"
              "# TYPE tessel_requests_total counter\n"
              "tessel_requests_total{type=\"execute\"} 1\n"
              "tessel_requests_total{type=\"query\"} 3\n"
              "# HELP tessel_tablets Tablets on this node.\n"
              "# TYPE tessel_tablets gauge\n"
              "tessel_tablets 4\n");
}

TEST(Metrics, SameSeriesSameObject) {
    MetricsRegistry reg;
    Counter& a = reg.counter("c_total", "C.", {{"k", "v"}});
    Counter& b = reg.counter("c_total", "C.", {{"k", "v"}});
    EXPECT_EQ(&a, &b);
    a.inc(2);
    EXPECT_EQ(b.value(), 2u);
}

TEST(Metrics, EscapingAndSpecialValues) {
    EXPECT_EQ(escape_label_value("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
    EXPECT_EQ(format_sample_value(std::numeric_limits<double>::infinity()), "+Inf");
    EXPECT_EQ(format_sample_value(-std::numeric_limits<double>::infinity()), "-Inf");
    EXPECT_EQ(format_sample_value(std::nan("")), "NaN");
    EXPECT_EQ(format_sample_value(0.5), "0.5");
    EXPECT_EQ(format_sample_value(12), "12");
    MetricsRegistry reg;
    reg.gauge("g", "Line one\nline two \\ end", {{"path", "C:\\x \"y\""}}).set(1.5);
    EXPECT_EQ(reg.exposition(),
              "# HELP g Line one\\nline two \\\\ end\n"
              "# TYPE g gauge\n"
              "g{path=\"C:\\\\x \\\"y\\\"\"} 1.5\n");
}

TEST(Metrics, InvalidRegistrationsAreDetachedNotExposed) {
    MetricsRegistry reg;
    reg.counter("bad name", "x").inc();
    reg.counter("ok_total", "x", {{"le", "1"}}).inc();  // le is reserved for histograms
    reg.counter("dual", "x").inc();
    reg.gauge("dual", "x").set(5);                 // same name, other type
    reg.counter("dual", "x", {{"a", "b"}}).inc();  // other label names
    EXPECT_EQ(reg.exposition(), "# HELP dual x\n# TYPE dual counter\ndual 1\n");
}

TEST(Metrics, ConcurrentIncrementsAddUp) {
    MetricsRegistry reg;
    Counter& c = reg.counter("n_total", "N.");
    Histogram& h = reg.histogram("lat_seconds", "L.");
    Gauge& g = reg.gauge("g", "G.");
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < 10000; ++i) {
                c.inc();
                h.observe_micros(150);
                g.add(1);
            }
        });
    }
    for (auto& th : threads)
        th.join();
    EXPECT_EQ(c.value(), 80000u);
    EXPECT_EQ(h.count(), 80000u);
    EXPECT_DOUBLE_EQ(g.value(), 80000.0);
    EXPECT_NEAR(h.sum(), 80000 * 150e-6, 1e-6);
    // 150 us falls in the (100 us, 200 us] bucket.
    auto counts = h.bucket_counts();
    size_t idx = 0;
    while (h.upper_bounds()[idx] < 150e-6)
        ++idx;
    EXPECT_DOUBLE_EQ(h.upper_bounds()[idx], 200e-6);
    EXPECT_EQ(counts[idx], 80000u);
}

TEST(Metrics, LatencyBucketsAreLogLinear) {
    const auto& b = latency_buckets();
    ASSERT_EQ(b.size(), 49u);
    EXPECT_EQ(format_sample_value(b.front()), "1e-05");
    EXPECT_EQ(format_sample_value(b[9]), "0.0001");
    EXPECT_EQ(format_sample_value(b[44]), "0.9");
    EXPECT_EQ(b.back(), 10.0);
    for (size_t i = 1; i < b.size(); ++i) {
        EXPECT_LT(b[i - 1], b[i]);
        EXPECT_LE(b[i] / b[i - 1], 2.5);
    }
}

TEST(Metrics, BoundaryValueFallsInItsBucket) {
    Histogram h({1, 2});
    h.observe(1);  // le="1" includes 1
    h.observe(2.5);
    EXPECT_EQ(h.bucket_counts(), (std::vector<uint64_t>{1, 0, 1}));
}

}  // namespace
}  // namespace tessel::diagnostics
