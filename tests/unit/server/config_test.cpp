#include "server/config.h"

#include <gtest/gtest.h>

namespace tessel::server {
namespace {

TEST(ConfigTest, ReadsCassandraYamlNames) {
    ServerConfig c;
    std::vector<std::string> ignored;
    std::string yaml = R"(# tesseld config
cluster_name: 'Prod Cluster'
native_transport_port: 19042
listen_address: 10.0.0.5   # comment
rpc_address: "10.0.0.6"
commitlog_sync: batch
commitlog_sync_period_in_ms: 2000
native_transport_max_frame_size_in_mb: 16
data_file_directories:
    - /var/lib/tessel/data
    - /ignored/second
seed_provider:
    - class_name: org.apache.cassandra.locator.SimpleSeedProvider
      parameters:
          - seeds: "127.0.0.1"
num_tokens: 256
smp: 3
)";
    ASSERT_TRUE(apply_config_text(yaml, &c, &ignored).is_ok());
    EXPECT_EQ(c.db.cluster_name, "Prod Cluster");
    EXPECT_EQ(c.port, 19042);
    EXPECT_EQ(c.listen_address, "10.0.0.5");
    EXPECT_EQ(c.db.rpc_address, "10.0.0.6");
    EXPECT_EQ(c.db.commitlog_sync, CommitlogSync::kBatch);
    EXPECT_EQ(c.db.commitlog_sync_period_ms, 2000);
    EXPECT_EQ(c.max_frame_bytes, 16u << 20);
    EXPECT_EQ(c.db.data_dir, "/var/lib/tessel/data");
    EXPECT_EQ(c.smp, 3);
    EXPECT_EQ(c.db.cluster.num_tokens, 256);
    EXPECT_EQ(ignored, (std::vector<std::string>{"seed_provider"}));
}

TEST(ConfigTest, StreamThroughput) {
    ServerConfig c;
    EXPECT_EQ(c.db.cluster.stream_throughput_outbound_megabits_per_sec, 200);  // Cassandra 4.0's
    ASSERT_TRUE(
        apply_config_text("stream_throughput_outbound_megabits_per_sec: 0\n", &c, nullptr).is_ok());
    EXPECT_EQ(c.db.cluster.stream_throughput_outbound_megabits_per_sec, 0);  // unlimited
    ASSERT_TRUE(apply_config_text("stream_throughput_outbound_megabits_per_sec: 400\n", &c, nullptr)
                    .is_ok());
    EXPECT_EQ(c.db.cluster.stream_throughput_outbound_megabits_per_sec, 400);
    EXPECT_FALSE(apply_config_text("stream_throughput_outbound_megabits_per_sec: -1\n", &c, nullptr)
                     .is_ok());
}

TEST(ConfigTest, TabletBalancerSettings) {
    ServerConfig c;
    std::vector<std::string> ignored;
    ASSERT_TRUE(apply_config_text("tablet_balancer_enabled: false\n"
                                  "tablet_balancer_interval_in_ms: 1000\n"
                                  "max_tablet_migrations_in: 3\n"
                                  "max_tablet_migrations_out: 4\n"
                                  "tablet_initial_count: 8\n",
                                  &c, &ignored)
                    .is_ok());
    EXPECT_TRUE(ignored.empty()) << ignored.front();
    EXPECT_FALSE(c.db.cluster.balancer_enabled);
    EXPECT_EQ(c.db.cluster.balancer_interval_ms, 1000);
    EXPECT_EQ(c.db.cluster.max_migrations_in, 3);
    EXPECT_EQ(c.db.cluster.max_migrations_out, 4);
    EXPECT_FALSE(apply_config_text("tablet_balancer_interval_in_ms: 10\n", &c, nullptr).is_ok());
    EXPECT_FALSE(apply_config_text("tablet_balancer_enabled: maybe\n", &c, nullptr).is_ok());
}

TEST(ConfigTest, FlowListAndDefaults) {
    ServerConfig c;
    ASSERT_TRUE(apply_config_text("data_file_directories: [/d1, /d2]\n", &c, nullptr).is_ok());
    EXPECT_EQ(c.db.data_dir, "/d1");
    EXPECT_EQ(c.port, 9042);
    EXPECT_EQ(c.listen_address, "127.0.0.1");
}

TEST(ConfigTest, BadValuesNameTheLine) {
    ServerConfig c;
    Status st = apply_config_text("cluster_name: x\nnative_transport_port: 99999\n", &c, nullptr);
    ASSERT_FALSE(st.is_ok());
    EXPECT_EQ(st.code(), ErrorCode::kConfigError);
    EXPECT_NE(st.message().find("line 2"), std::string::npos);
    EXPECT_FALSE(apply_config_text("commitlog_sync: sometimes\n", &c, nullptr).is_ok());
    EXPECT_FALSE(apply_config_text("just words\n", &c, nullptr).is_ok());
    EXPECT_FALSE(apply_config_file("/nonexistent/tessel.yaml", &c, nullptr).is_ok());
}

}  // namespace
}  // namespace tessel::server

namespace tessel::server {
namespace {

TEST(ConfigTest, ReadsLimitsAndTimeouts) {
    ServerConfig c;
    EXPECT_EQ(c.max_connections, -1);
    EXPECT_EQ(c.db.write_request_timeout_ms, 2000);
    std::string yaml = R"(native_transport_max_concurrent_connections: 100
native_transport_max_requests_per_connection: 64
native_transport_max_concurrent_requests_in_bytes: 1000000
max_value_size_in_mb: 32
read_request_timeout_in_ms: 500
range_request_timeout_in_ms: 0
write_request_timeout_in_ms: 250
)";
    ASSERT_TRUE(apply_config_text(yaml, &c, nullptr).is_ok());
    EXPECT_EQ(c.max_connections, 100);
    EXPECT_EQ(c.max_requests_per_connection, 64u);
    EXPECT_EQ(c.max_request_bytes, 1000000u);
    EXPECT_EQ(c.max_value_bytes, 32u << 20);
    EXPECT_EQ(c.db.read_request_timeout_ms, 500);
    EXPECT_EQ(c.db.range_request_timeout_ms, 0);
    EXPECT_EQ(c.db.write_request_timeout_ms, 250);
    EXPECT_FALSE(apply_config_text("native_transport_max_requests_per_connection: 0\n", &c, nullptr)
                     .is_ok());
}

}  // namespace
}  // namespace tessel::server
