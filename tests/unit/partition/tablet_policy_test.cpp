#include "partition/tablet_policy.h"

#include <gtest/gtest.h>

#include <vector>

#include "partition/token.h"

namespace tessel {
namespace {

TabletThresholds small() {
    TabletThresholds t;
    t.split_size_bytes = 1000;
    t.merge_size_bytes = 200;
    t.split_writes_per_sec = 100;
    t.merge_writes_per_sec = 10;
    t.split_bytes_per_sec = 10000;
    t.merge_bytes_per_sec = 1000;
    t.min_age_ms = 5000;
    return t;
}

std::vector<TabletObservation> sizes(std::vector<uint64_t> s) {
    std::vector<TabletObservation> out;
    for (auto b : s) {
        TabletObservation o;
        o.size_bytes = b;
        out.push_back(o);
    }
    return out;
}

TEST(TabletPolicyTest, SplitsALargeTabletAtItsMidpoint) {
    auto m = TabletMap::initial_hash(4, 1, 0);
    auto plan = plan_tablet_changes(m, sizes({500, 1500, 500, 500}), small(), 4, 100000);
    ASSERT_EQ(plan.size(), 1u);
    EXPECT_EQ(plan[0].kind, TabletChange::Kind::kSplit);
    EXPECT_EQ(plan[0].index, 1u);
    EXPECT_EQ(plan[0].reason, "size");
    EXPECT_EQ(plan[0].split_key, *m.token_midpoint(1));
    ASSERT_TRUE(apply_tablet_changes(&m, plan, 1, 100000).is_ok());
    EXPECT_EQ(m.size(), 5u);
}

TEST(TabletPolicyTest, SplitsAHotTablet) {
    auto m = TabletMap::initial_hash(4, 1, 0);
    auto obs = sizes({0, 0, 0, 0});
    obs[3].writes_per_sec = 150;
    obs[0].bytes_per_sec = 20000;
    auto plan = plan_tablet_changes(m, obs, small(), 4, 0);
    ASSERT_EQ(plan.size(), 2u);
    EXPECT_EQ(plan[0].index, 0u);
    EXPECT_EQ(plan[0].reason, "bytes");
    EXPECT_EQ(plan[1].index, 3u);
    EXPECT_EQ(plan[1].reason, "writes");
}

TEST(TabletPolicyTest, MergesIdleOldNeighboursDownToTheFloor) {
    auto m = TabletMap::initial_hash(8, 1, 0);
    auto obs = sizes({10, 10, 10, 10, 10, 10, 10, 10});
    // Too young: nothing.
    EXPECT_TRUE(plan_tablet_changes(m, obs, small(), 4, 4999).empty());
    auto plan = plan_tablet_changes(m, obs, small(), 4, 5000);
    ASSERT_EQ(plan.size(), 4u);
    for (size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(plan[i].kind, TabletChange::Kind::kMerge);
        EXPECT_EQ(plan[i].index, 2 * i);
    }
    ASSERT_TRUE(apply_tablet_changes(&m, plan, 1, 5000).is_ok());
    EXPECT_EQ(m.size(), 4u);
    // At the floor: no more merges.
    EXPECT_TRUE(plan_tablet_changes(m, sizes({1, 1, 1, 1}), small(), 4, 100000).empty());
}

TEST(TabletPolicyTest, BusyOrLargeNeighboursDoNotMerge) {
    auto m = TabletMap::initial_hash(4, 1, 0);
    auto obs = sizes({150, 150, 60, 10});  // 300 and 210 together: above 200
    obs[3].writes_per_sec = 20;            // above the merge rate
    EXPECT_TRUE(plan_tablet_changes(m, obs, small(), 1, 100000).empty());
}

TEST(TabletPolicyTest, HysteresisMergedTabletDoesNotSplitAgain) {
    // Merge thresholds at or above the split ones are clamped to a quarter of
    // them, so whatever merges sits far below the split threshold.
    TabletThresholds t = small();
    t.merge_size_bytes = 5000;
    t.merge_writes_per_sec = 1000;
    const auto s = t.sane();
    EXPECT_EQ(s.merge_size_bytes, 250u);
    EXPECT_DOUBLE_EQ(s.merge_writes_per_sec, 25);
    auto m = TabletMap::initial_hash(2, 1, 0);
    auto plan = plan_tablet_changes(m, sizes({130, 130}), t, 1, 100000);
    EXPECT_TRUE(plan.empty());  // 260 bytes together: not below 250
    plan = plan_tablet_changes(m, sizes({100, 100}), t, 1, 100000);
    ASSERT_EQ(plan.size(), 1u);
    ASSERT_TRUE(apply_tablet_changes(&m, plan, 1, 100000).is_ok());
    // ...and the merged tablet (200 bytes) stays put, even right after.
    EXPECT_TRUE(plan_tablet_changes(m, sizes({200}), t, 1, 100000).empty());
}

TEST(TabletPolicyTest, SplitThenNoImmediateMerge) {
    auto m = TabletMap::initial_hash(1, 1, 0);
    auto plan = plan_tablet_changes(m, sizes({2000}), small(), 1, 10000);
    ASSERT_TRUE(apply_tablet_changes(&m, plan, 1, 10000).is_ok());
    ASSERT_EQ(m.size(), 2u);
    // The halves are young: even idle they stay split for min_age_ms.
    EXPECT_TRUE(plan_tablet_changes(m, sizes({0, 0}), small(), 1, 14999).empty());
    EXPECT_EQ(plan_tablet_changes(m, sizes({0, 0}), small(), 1, 15000).size(), 1u);
}

TEST(TabletPolicyTest, OrderedTabletsSplitOnlyAtAStoredKeyInside) {
    auto m = TabletMap::initial_ordered(0);
    auto obs = sizes({5000});
    EXPECT_TRUE(plan_tablet_changes(m, obs, small(), 1, 0).empty());  // no key known
    obs[0].median_key = "m";
    auto plan = plan_tablet_changes(m, obs, small(), 1, 0);
    ASSERT_EQ(plan.size(), 1u);
    EXPECT_EQ(plan[0].split_key, "m");
    ASSERT_TRUE(apply_tablet_changes(&m, plan, 1, 0).is_ok());
    auto obs2 = sizes({5000, 5000});
    obs2[1].median_key = "m";  // the tablet's own start: cannot split there
    obs2[0].median_key = "c";
    plan = plan_tablet_changes(m, obs2, small(), 1, 0);
    ASSERT_EQ(plan.size(), 1u);
    EXPECT_EQ(plan[0].index, 0u);
}

TEST(TabletPolicyTest, MaxTabletsCapsSplits) {
    auto m = TabletMap::initial_hash(4, 1, 0);
    TabletThresholds t = small();
    t.max_tablets = 5;
    auto plan = plan_tablet_changes(m, sizes({5000, 5000, 5000, 5000}), t, 4, 0);
    EXPECT_EQ(plan.size(), 1u);
}

}  // namespace
}  // namespace tessel
