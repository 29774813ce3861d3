// Config keys of the tablets: thresholds lowered for tests, defaults kept
// for what is not named, bad values refused with the line.
#include <gtest/gtest.h>

#include "server/config.h"

namespace tessel::server {
namespace {

TEST(ConfigTabletsTest, SettingsApply) {
    ServerConfig c;
    std::vector<std::string> ignored;
    const std::string yaml = R"(tablet_initial_count: 8
tablet_shards: 3
tablet_split_size_bytes: 65536
tablet_merge_size_bytes: 1024
tablet_split_writes_per_sec: 500.5
tablet_split_bytes_per_sec: 1e6
tablet_merge_writes_per_sec: 10
tablet_merge_bytes_per_sec: 100
tablet_min_age_ms: 0
tablet_evaluation_interval_ms: 250
)";
    ASSERT_TRUE(apply_config_text(yaml, &c, &ignored).is_ok());
    EXPECT_TRUE(ignored.empty());
    const TabletOptions& t = c.db.tablets;
    EXPECT_EQ(t.initial_tablets, 8);
    EXPECT_EQ(t.shards, 3);
    EXPECT_EQ(t.thresholds.split_size_bytes, 65536u);
    EXPECT_EQ(t.thresholds.merge_size_bytes, 1024u);
    EXPECT_DOUBLE_EQ(t.thresholds.split_writes_per_sec, 500.5);
    EXPECT_DOUBLE_EQ(t.thresholds.split_bytes_per_sec, 1e6);
    EXPECT_DOUBLE_EQ(t.thresholds.merge_writes_per_sec, 10);
    EXPECT_DOUBLE_EQ(t.thresholds.merge_bytes_per_sec, 100);
    EXPECT_EQ(t.thresholds.min_age_ms, 0);
    EXPECT_EQ(t.evaluation_interval_ms, 250);
}

TEST(ConfigTabletsTest, DefaultsWhenAbsent) {
    ServerConfig c;
    ASSERT_TRUE(apply_config_text("cluster_name: x\n", &c, nullptr).is_ok());
    EXPECT_EQ(c.db.tablets.initial_tablets, 4);
    EXPECT_EQ(c.db.tablets.thresholds.split_size_bytes, 256ull << 20);
    EXPECT_EQ(c.db.tablets.evaluation_interval_ms, 10000);
}

TEST(ConfigTabletsTest, BadValuesAreRefused) {
    for (const char* line :
         {"tablet_initial_count: 0\n", "tablet_initial_count: 5000\n", "tablet_shards: -1\n",
          "tablet_split_size_bytes: 0\n", "tablet_split_size_bytes: big\n",
          "tablet_split_writes_per_sec: -3\n", "tablet_merge_bytes_per_sec: nan\n",
          "tablet_min_age_ms: -1\n", "tablet_evaluation_interval_ms: 1.5\n"}) {
        ServerConfig c;
        auto st = apply_config_text(line, &c, nullptr);
        EXPECT_FALSE(st.is_ok()) << line;
        EXPECT_NE(st.message().find("config line 1"), std::string::npos) << st.message();
    }
    std::vector<std::string> ignored;
    ServerConfig c;
    ASSERT_TRUE(apply_config_text("tablet_colour: blue\n", &c, &ignored).is_ok());
    EXPECT_EQ(ignored, std::vector<std::string>{"tablet_colour"});
}

}  // namespace
}  // namespace tessel::server
