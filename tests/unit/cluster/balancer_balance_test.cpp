// The balancer's goals 2-4: even bytes, even heat, hot tablets split first,
// few moves, no flapping, migration limits.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "balancer_test_util.h"
#include "cluster/balancer.h"

namespace tessel::cluster::balancer {
namespace {

using namespace testing;

// n1..n<count> on one rack, SimpleStrategy with `rf` replicas.
Input one_rack(int count, int rf) {
    Input in;
    for (int i = 1; i <= count; ++i)
        in.nodes.push_back(node("n" + std::to_string(i)));
    in.replications = {Replication::simple(rf)};
    return in;
}

TEST(BalancerBytesTest, ANewEmptyNodeReceivesTabletsUntilWithinTheBand) {
    Input in = one_rack(5, 3);
    // 40 equal tablets over n1..n4 (30 replicas each); n5 is new and empty.
    for (int t = 0; t < 40; ++t) {
        std::vector<std::string> reps;
        for (int k = 0; k < 3; ++k)
            reps.push_back("n" + std::to_string((t + k) % 4 + 1));
        in.tablets.push_back(tablet(t, reps));
    }
    Plan first = plan_of(in);
    EXPECT_EQ(first.stats.bytes_before.min_over_mean, 0);
    EXPECT_DOUBLE_EQ(first.stats.bytes_before.max_over_mean, 1.25);  // 30 of a mean 24
    size_t onto_n5 = 0;
    for (const Action& a : first.actions)
        onto_n5 += a.to == "n5";
    EXPECT_EQ(onto_n5, 2u);  // its two in slots

    Rounds r = run_rounds(in, {}, 30);
    ASSERT_TRUE(r.converged);
    const double n5 = static_cast<double>(replicas_on(r.input, "n5"));
    EXPECT_GE(n5, 23);  // the mean is 24 replicas; the band is 5%
    EXPECT_LE(n5, 25);
    EXPECT_LE(r.last.stats.bytes_before.max_over_mean, 1.05);
    EXPECT_GE(r.last.stats.bytes_before.min_over_mean, 0.95);
    EXPECT_LE(r.moves, 30u);  // about the 24 the new node needs, not a reshuffle
}

TEST(BalancerBytesTest, CapacityWeightsANodesShare) {
    Input in = one_rack(3, 1);
    in.nodes[2].capacity = 2;  // n3 is twice as large
    for (int t = 0; t < 40; ++t)
        in.tablets.push_back(tablet(t, {"n" + std::to_string(t % 3 + 1)}));
    Rounds r = run_rounds(in, {}, 30);
    ASSERT_TRUE(r.converged);
    EXPECT_EQ(replicas_on(r.input, "n3"), 20u);
    EXPECT_EQ(replicas_on(r.input, "n1"), 10u);
    EXPECT_EQ(replicas_on(r.input, "n2"), 10u);
    EXPECT_DOUBLE_EQ(r.last.stats.bytes_before.max_over_mean, 1.0);
}

TEST(BalancerHeatTest, HotTabletsOnTwoOfThreeNodesAreSpread) {
    Input in = one_rack(3, 1);
    // 12 tablets per node, all 1 GiB: n1 and n2 hold six hot ones each.
    for (int t = 0; t < 36; ++t) {
        const int n = t / 12 + 1;
        const bool hot = n < 3 && t % 12 < 6;
        in.tablets.push_back(tablet(t, {"n" + std::to_string(n)}, kGiB, hot ? 100 : 1));
    }
    Plan first = plan_of(in);
    EXPECT_NEAR(first.stats.heat_before.max_over_mean, 606.0 / 408.0, 1e-9);
    EXPECT_NEAR(first.stats.heat_before.min_over_mean, 12.0 / 408.0, 1e-9);
    EXPECT_DOUBLE_EQ(first.stats.bytes_before.max_over_mean, 1.0);

    Rounds r = run_rounds(in, {}, 30);
    ASSERT_TRUE(r.converged);
    const PlanStats& after = r.last.stats;
    EXPECT_LE(after.heat_before.max_over_mean, 1.10);
    EXPECT_GE(after.heat_before.min_over_mean, 0.90);
    EXPECT_LE(after.bytes_before.max_over_mean, 1.10);
    // n3 carries its share of the hot tablets' load (whole or split).
    double hot_on_n3 = 0;
    for (const Tablet& t : r.input.tablets)
        if (t.heat.reads_per_sec > 10 && t.replicas[0] == "n3") hot_on_n3 += t.heat.reads_per_sec;
    EXPECT_GE(hot_on_n3, 300);
    EXPECT_LE(r.moves, 16u);
}

TEST(BalancerHeatTest, AVeryHotTabletIsSplitBeforeItIsMoved) {
    Input in = one_rack(4, 1);
    for (int t = 0; t < 8; ++t)
        in.tablets.push_back(
            tablet(t, {"n" + std::to_string(t % 4 + 1)}, kGiB, t == 0 ? 1000 : 10));
    Plan first = plan_of(in);
    bool split = false;
    for (const Action& a : first.actions) {
        if (a.tablet.index != 0) continue;
        EXPECT_EQ(a.kind, ActionKind::kSplit) << describe(a);
        EXPECT_EQ(a.reason, Reason::kSplitHot);
        split = true;
    }
    EXPECT_TRUE(split) << ::testing::PrintToString(lines(first));
    EXPECT_EQ(first.stats.splits, 1u);

    // 1000 reads/s is 3.7 nodes' fair share: three splits leave eight
    // pieces of 125 (under half a share each), which then spread.
    Rounds r = run_rounds(in, {}, 30);
    ASSERT_TRUE(r.converged);
    std::set<std::string> holders;
    size_t pieces = 0;
    for (const Tablet& t : r.input.tablets) {
        if (t.heat.reads_per_sec < 100) continue;
        pieces++;
        holders.insert(t.replicas[0]);
    }
    EXPECT_EQ(pieces, 8u);
    EXPECT_EQ(holders.size(), 4u);
    EXPECT_LE(r.last.stats.heat_before.max_over_mean, 1.10);
}

TEST(BalancerHeatTest, TheHalvesOfAHotTabletMoveApart) {
    Input in = one_rack(4, 1);
    // Tablets 0 and 1 (the halves of a split, 300 reads/s each) share n1;
    // a node's fair share is 165 reads/s, so both are hot.
    for (int t = 0; t < 8; ++t)
        in.tablets.push_back(
            tablet(t, {t < 2 ? "n1" : "n" + std::to_string(t % 4 + 1)}, kGiB, t < 2 ? 300 : 10));
    Plan plan = plan_of(in);
    size_t moved = 0, split = 0;
    for (const Action& a : plan.actions) {
        if (a.tablet.index > 1) continue;
        moved += a.kind == ActionKind::kMove && a.from == "n1";
        split += a.kind == ActionKind::kSplit;
    }
    EXPECT_EQ(moved, 1u) << ::testing::PrintToString(lines(plan));
    EXPECT_EQ(split, 1u) << ::testing::PrintToString(lines(plan));  // the one left behind
}

TEST(BalancerHeatTest, ATabletThatCannotSplitIsMovedInstead) {
    Input in = one_rack(4, 1);
    for (int t = 0; t < 8; ++t)
        in.tablets.push_back(
            tablet(t, {t < 2 ? "n1" : "n" + std::to_string(t % 4 + 1)}, kGiB, t < 2 ? 1000 : 10));
    in.tablets[0].splittable = false;
    in.tablets[1].splittable = false;
    Plan plan = plan_of(in);
    EXPECT_EQ(plan.stats.splits, 0u);
    bool moved = false;
    for (const Action& a : plan.actions)
        moved = moved || (a.tablet.index < 2 && a.from == "n1");
    EXPECT_TRUE(moved) << ::testing::PrintToString(lines(plan));
}

TEST(BalancerStabilityTest, ABalancedInputGivesAnEmptyPlan) {
    Input in = one_rack(4, 2);
    for (int t = 0; t < 16; ++t) {
        in.tablets.push_back(
            tablet(t, {"n" + std::to_string(t % 4 + 1), "n" + std::to_string((t + 1) % 4 + 1)},
                   kGiB + t % 2, 10 + t % 3));
    }
    Plan plan = plan_of(in);
    EXPECT_TRUE(plan.actions.empty()) << ::testing::PrintToString(lines(plan));
    EXPECT_LE(plan.stats.bytes_before.max_over_mean, 1.05);
    EXPECT_EQ(plan.stats.bytes_after.max_over_mean, plan.stats.bytes_before.max_over_mean);
}

TEST(BalancerStabilityTest, RoundsConvergeWithinTheMigrationLimits) {
    SimSpec spec;
    spec.nodes = 30;
    spec.tablets = 1500;
    spec.seed = 11;
    for (int limit : {1, 2, 4}) {
        Config config;
        config.max_migrations_in = limit;
        config.max_migrations_out = limit;
        Rounds r = run_rounds(make_cluster(spec), config, 200);  // check_plan every round
        EXPECT_TRUE(r.converged) << "limit " << limit;
        EXPECT_LE(r.last.stats.bytes_before.max_over_mean, 1.10) << "limit " << limit;
        EXPECT_LE(r.last.stats.heat_before.max_over_mean, 1.10) << "limit " << limit;
        // The converged input plans nothing again (stable).
        EXPECT_TRUE(plan_of(r.input, config).actions.empty());
    }
}

TEST(BalancerStabilityTest, MaxMovesCapsARound) {
    SimSpec spec;
    spec.nodes = 30;
    spec.tablets = 1500;
    Config config;
    config.max_moves = 5;
    Plan plan = plan_of(make_cluster(spec), config);
    EXPECT_EQ(plan.stats.moves, 5u);
}

TEST(BalancerStabilityTest, InProgressMigrationsCountAndTheirTabletsAreNotTouched) {
    Input in = one_rack(3, 1);
    // n1 holds four, n2 none, n3 two (mean two); tablet 0 is already on its
    // way from n1 to n2, so n1 projects three and n2 one.
    for (int t = 0; t < 6; ++t)
        in.tablets.push_back(tablet(t, {t < 4 ? "n1" : "n3"}));
    in.tablets[0].migration = Migration{"n1", "n2"};
    Config one;
    one.max_migrations_in = 1;
    one.max_migrations_out = 1;
    Plan plan = plan_of(in, one);
    EXPECT_TRUE(plan.actions.empty()) << ::testing::PrintToString(lines(plan));
    EXPECT_EQ(load_of(plan, "n1").bytes_before, 3 * kGiB);
    EXPECT_EQ(load_of(plan, "n2").bytes_before, 1 * kGiB);

    plan = plan_of(in);  // two slots each: one more move n1 -> n2
    check_plan(in, plan, {});
    ASSERT_EQ(plan.actions.size(), 1u) << ::testing::PrintToString(lines(plan));
    EXPECT_EQ(plan.actions[0].from, "n1");
    EXPECT_EQ(plan.actions[0].to, "n2");
    EXPECT_NE(plan.actions[0].tablet.index, 0u);
}

TEST(BalancerStabilityTest, NeverMovesATabletBackWhereThePreviousRoundTookItFrom) {
    Input in = one_rack(3, 1);
    // n1 holds three, n2 one, n3 two: the move is one of n1's to n2.
    in.tablets = {tablet(0, {"n1"}), tablet(1, {"n1"}), tablet(2, {"n1"}),
                  tablet(3, {"n2"}), tablet(4, {"n3"}), tablet(5, {"n3"})};
    Plan plan = plan_of(in);
    ASSERT_EQ(plan.actions.size(), 1u);
    EXPECT_EQ(plan.actions[0].to, "n2");

    // The previous round took n1's three off n2: none goes back.
    for (uint64_t t = 0; t < 3; ++t)
        in.previous_moves.push_back({in.tablets[t].id, "n2", "n1"});
    plan = plan_of(in);
    for (const Action& a : plan.actions)
        EXPECT_FALSE(a.tablet.index < 3 && a.to == "n2") << describe(a);
}

TEST(BalancerStabilityTest, NoBalancingAcrossDataCentresOrOffDownNodes) {
    Input in;
    in.nodes = {node("a1", "dc1"), node("a2", "dc1"), node("b1", "dc2"), node("b2", "dc2"),
                node("a3", "dc1", "r1", NodeState::kDown)};
    in.replications = {Replication::network_topology({{"dc1", 1}, {"dc2", 1}})};
    // dc1: a3 (down) holds four, a1 none, a2 two. dc2 even.
    for (int t = 0; t < 6; ++t)
        in.tablets.push_back(tablet(t, {t < 4 ? "a3" : "a2", t % 2 ? "b1" : "b2"}));
    // a1 is empty, but the excess is on a3, which is down; draining a2 (at
    // the mean) into a1 would only have to be undone when a3 is back.
    Plan plan = plan_of(in);
    EXPECT_TRUE(plan.actions.empty()) << ::testing::PrintToString(lines(plan));

    in.nodes[4].state = NodeState::kNormal;
    plan = plan_of(in);
    ASSERT_EQ(plan.actions.size(), 2u) << ::testing::PrintToString(lines(plan));
    for (const Action& a : plan.actions) {
        EXPECT_EQ(a.from, "a3");
        EXPECT_EQ(a.to, "a1");
    }
}

}  // namespace
}  // namespace tessel::cluster::balancer
