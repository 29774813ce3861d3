// The partition health and metrics keys of the config file.
#include <gtest/gtest.h>

#include "server/config.h"

namespace tessel::server {
namespace {

TEST(HealthConfigTest, DefaultsAreCassandraLike) {
    ServerConfig c;
    EXPECT_EQ(c.db.large_partitions.partition_size_warn_threshold, 100ull << 20);
    EXPECT_EQ(c.db.large_partitions.partition_rows_warn_threshold, 100000u);
    EXPECT_EQ(c.db.large_partitions.row_size_warn_threshold, 10ull << 20);
    EXPECT_EQ(c.db.large_partitions.cell_size_warn_threshold, 1ull << 20);
    EXPECT_EQ(c.db.large_partitions.partition_size_fail_threshold, 0u);  // off
    EXPECT_EQ(c.db.large_partitions.partition_rows_fail_threshold, 0u);
    EXPECT_EQ(c.db.tombstones.tombstone_warn_threshold, 1000u);
    EXPECT_EQ(c.db.tombstones.tombstone_failure_threshold, 100000u);
    EXPECT_EQ(c.metrics_port, -1);         // no metrics endpoint unless configured
    EXPECT_EQ(c.http_port, -1);            // no web console unless configured
    EXPECT_EQ(c.http_listen_address, "");  // the CQL listen address
}

TEST(HealthConfigTest, ThresholdsWithAndWithoutUnits) {
    ServerConfig c;
    std::vector<std::string> ignored;
    std::string yaml = R"(partition_size_warn_threshold: 20KiB
partition_size_fail_threshold: 1 GB
partition_rows_warn_threshold: 500
partition_rows_fail_threshold: 2000
row_size_warn_threshold: 1048576
row_size_fail_threshold: 4MiB
cell_size_warn_threshold: 512KB
cell_size_fail_threshold: 2MB
tombstone_warn_threshold: 10
tombstone_failure_threshold: 50
hot_partitions_window_ms: 5000
hot_partitions_capacity: 256
partition_write_budget: 50
metrics_port: 9180
metrics_listen_address: 0.0.0.0
http_port: 8080
http_listen_address: 10.0.0.5
)";
    ASSERT_TRUE(apply_config_text(yaml, &c, &ignored).is_ok());
    EXPECT_TRUE(ignored.empty());
    const auto& l = c.db.large_partitions;
    EXPECT_EQ(l.partition_size_warn_threshold, 20u * 1024);
    EXPECT_EQ(l.partition_size_fail_threshold, 1ull << 30);
    EXPECT_EQ(l.partition_rows_warn_threshold, 500u);
    EXPECT_EQ(l.partition_rows_fail_threshold, 2000u);
    EXPECT_EQ(l.row_size_warn_threshold, 1048576u);
    EXPECT_EQ(l.row_size_fail_threshold, 4ull << 20);
    EXPECT_EQ(l.cell_size_warn_threshold, 512u * 1024);
    EXPECT_EQ(l.cell_size_fail_threshold, 2ull << 20);
    EXPECT_EQ(c.db.tombstones.tombstone_warn_threshold, 10u);
    EXPECT_EQ(c.db.tombstones.tombstone_failure_threshold, 50u);
    EXPECT_EQ(c.db.hot_partitions_window_ms, 5000);
    EXPECT_EQ(c.db.hot_partitions_capacity, 256u);
    EXPECT_EQ(c.db.advisor.partition_write_budget, 50.0);
    EXPECT_EQ(c.metrics_port, 9180);
    EXPECT_EQ(c.metrics_listen_address, "0.0.0.0");
    EXPECT_EQ(c.http_port, 8080);
    EXPECT_EQ(c.http_listen_address, "10.0.0.5");
}

TEST(HealthConfigTest, BadValuesNameTheLine) {
    ServerConfig c;
    Status st = apply_config_text("cluster_name: x\npartition_size_warn_threshold: 10 parsecs\n",
                                  &c, nullptr);
    ASSERT_FALSE(st.is_ok());
    EXPECT_EQ(st.code(), ErrorCode::kConfigError);
    EXPECT_NE(st.message().find("config line 2"), std::string::npos) << st.message();
    EXPECT_FALSE(apply_config_text("tombstone_warn_threshold: -1\n", &c, nullptr).is_ok());
    EXPECT_FALSE(apply_config_text("metrics_port: 70000\n", &c, nullptr).is_ok());
    EXPECT_FALSE(apply_config_text("http_port: 70000\n", &c, nullptr).is_ok());
    EXPECT_FALSE(apply_config_text("http_port: -1\n", &c, nullptr).is_ok());
}

}  // namespace
}  // namespace tessel::server
