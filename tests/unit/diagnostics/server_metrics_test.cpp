#include "diagnostics/server_metrics.h"

#include <gtest/gtest.h>

#include <string>

namespace tessel::diagnostics {
namespace {

bool has_line(const std::string& text, const std::string& line) {
    return text.find("\n" + line + "\n") != std::string::npos || text.rfind(line + "\n", 0) == 0;
}

TEST(ServerMetrics, RequestsLatenciesErrorsAndBytes) {
    MetricsRegistry reg;
    ServerMetrics m(reg);
    m.request(RequestType::kQuery, 250);
    m.request(RequestType::kQuery, 1500, ErrorCode::kInvalid);
    m.request(RequestType::kExecute, 90);
    m.bytes_received(100);
    m.bytes_sent(4096);
    m.connection_opened();
    m.connection_opened();
    m.connection_closed();
    std::string text = reg.exposition();
    EXPECT_TRUE(has_line(text, "tessel_requests_total{type=\"QUERY\"} 2"));
    EXPECT_TRUE(has_line(text, "tessel_requests_total{type=\"EXECUTE\"} 1"));
    EXPECT_TRUE(has_line(text, "tessel_requests_total{type=\"BATCH\"} 0"));
    EXPECT_TRUE(has_line(text, "tessel_request_errors_total{code=\"Invalid\"} 1"));
    EXPECT_TRUE(has_line(text, "tessel_request_errors_total{code=\"Syntax_error\"} 0"));
    EXPECT_TRUE(
        has_line(text, "tessel_request_latency_seconds_bucket{type=\"QUERY\",le=\"0.0003\"} 1"));
    EXPECT_TRUE(
        has_line(text, "tessel_request_latency_seconds_bucket{type=\"QUERY\",le=\"0.002\"} 2"));
    EXPECT_TRUE(has_line(text, "tessel_request_latency_seconds_count{type=\"QUERY\"} 2"));
    EXPECT_TRUE(has_line(text, "tessel_bytes_received_total 100"));
    EXPECT_TRUE(has_line(text, "tessel_bytes_sent_total 4096"));
    EXPECT_TRUE(has_line(text, "tessel_connections 1"));
    EXPECT_EQ(request_type_name(RequestType::kAuthResponse), "AUTH_RESPONSE");
}

TEST(ServerMetrics, PartitionHealthCollector) {
    MetricsRegistry reg;
    LargePartitionTracker large;
    large.observe("app", "events", "u1", 200 * kMiB, 1, 0, 1);
    large.observe("app", "events", "u2", 300 * kMiB, 1, 0, 1);
    HotPartitionsOptions o;
    o.window_ms = 10000;
    HotPartitionsRegistry hot(o);
    auto t = hot.get_or_create("shop", "orders");
    for (int i = 0; i < 50000; ++i)
        t->record_write("d", "2024-05-01", 10, 5000);
    add_partition_health_collector(reg, large, hot, [] { return TimeMs{15000}; });
    std::string text = reg.exposition();
    EXPECT_TRUE(has_line(text, "tessel_large_partitions{keyspace=\"app\",table=\"events\"} 2"));
    EXPECT_TRUE(has_line(
        text,
        "tessel_hottest_partition_writes_per_second{keyspace=\"shop\",table=\"orders\"} 5000"));
    EXPECT_NE(text.find("# TYPE tessel_large_partitions gauge\n"), std::string::npos);
}

}  // namespace
}  // namespace tessel::diagnostics
