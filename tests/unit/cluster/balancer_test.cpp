// The balancer's placement rules (goal 1), decommission, problems, input
// validation and determinism. Balancing bytes and heat is in
// balancer_balance_test.cpp, simulations at scale in balancer_sim_test.cpp.
#include "cluster/balancer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "balancer_test_util.h"

namespace tessel::cluster::balancer {
namespace {

using namespace testing;

Input three_nodes_rf3() {
    Input in;
    in.nodes = {node("n1", "dc1", "r1"), node("n2", "dc1", "r2"), node("n3", "dc1", "r3"),
                node("n4", "dc1", "r1")};
    in.replications = {Replication::simple(3)};
    return in;
}

TEST(BalancerPlacementTest, AddsAMissingReplica) {
    Input in = three_nodes_rf3();
    in.tablets = {tablet(0, {"n1", "n2"})};
    Plan plan = plan_of(in);
    ASSERT_EQ(plan.actions.size(), 1u) << ::testing::PrintToString(lines(plan));
    const Action& a = plan.actions[0];
    EXPECT_EQ(a.kind, ActionKind::kMove);
    EXPECT_EQ(a.reason, Reason::kMissingReplica);
    EXPECT_EQ(a.from, "");
    EXPECT_EQ(a.to, "n3");  // the only rack the tablet lacks
    EXPECT_TRUE(a.rebuild);
    EXPECT_TRUE(a.stream_from == "n1" || a.stream_from == "n2");
    EXPECT_EQ(plan.stats.moves, 1u);
    EXPECT_EQ(plan.stats.rebuilds, 1u);
}

TEST(BalancerPlacementTest, RebuildsAReplicaOfARemovedNodeFromTheSurvivors) {
    Input in = three_nodes_rf3();
    in.nodes[2].state = NodeState::kRemoved;  // n3, the only node of r3
    in.tablets = {tablet(0, {"n1", "n2", "n3"})};
    Plan plan = plan_of(in);
    ASSERT_EQ(plan.actions.size(), 1u) << ::testing::PrintToString(lines(plan));
    const Action& a = plan.actions[0];
    EXPECT_EQ(a.reason, Reason::kReplaceRemoved);
    EXPECT_EQ(a.from, "n3");
    EXPECT_EQ(a.to, "n4");
    EXPECT_TRUE(a.rebuild);
    EXPECT_TRUE(a.stream_from == "n1" || a.stream_from == "n2");
    EXPECT_NE(describe(a).find("rebuild from the surviving replicas"), std::string::npos);

    apply_plan(&in, plan);
    EXPECT_TRUE(plan_of(in).actions.empty());
    EXPECT_EQ(replicas_on(in, "n3"), 0u);
}

TEST(BalancerPlacementTest, LeavesTheReplicasOfADownNodeAlone) {
    Input in = three_nodes_rf3();
    in.nodes[2].state = NodeState::kDown;
    in.nodes[3].state = NodeState::kDown;  // n4, down and empty, takes nothing either
    in.tablets = {tablet(0, {"n1", "n2", "n3"}), tablet(1, {"n1", "n2", "n3"})};
    Plan plan = plan_of(in);
    EXPECT_TRUE(plan.actions.empty()) << ::testing::PrintToString(lines(plan));
    EXPECT_TRUE(plan.problems.empty());
}

TEST(BalancerPlacementTest, ARemovedNodeUnknownToTheInputCountsAsRemoved) {
    Input in = three_nodes_rf3();
    in.tablets = {tablet(0, {"n1", "n2", "gone"})};
    Plan plan = plan_of(in);
    ASSERT_EQ(plan.actions.size(), 1u);
    EXPECT_EQ(plan.actions[0].from, "gone");
    EXPECT_EQ(plan.actions[0].to, "n3");
    EXPECT_EQ(plan.nodes.size(), 4u);  // only the input's nodes are reported
}

TEST(BalancerPlacementTest, SpreadsTwoReplicasSharingARack) {
    Input in;
    in.nodes = {node("n1", "dc1", "r1"), node("n2", "dc1", "r1"), node("n3", "dc1", "r2")};
    in.replications = {Replication::simple(2)};
    in.tablets = {tablet(0, {"n1", "n2"})};
    Plan plan = plan_of(in);
    ASSERT_EQ(plan.actions.size(), 1u) << ::testing::PrintToString(lines(plan));
    EXPECT_EQ(plan.actions[0].reason, Reason::kRackSpread);
    EXPECT_EQ(plan.actions[0].to, "n3");
    EXPECT_FALSE(plan.actions[0].rebuild);
    EXPECT_EQ(plan.actions[0].stream_from, plan.actions[0].from);

    // With one rack only, sharing it is the best there is (n3 may still
    // take a replica to even the bytes).
    in.nodes[2].rack = "r1";
    for (const Action& a : plan_of(in).actions)
        EXPECT_NE(a.reason, Reason::kRackSpread);
}

TEST(BalancerPlacementTest, NetworkTopologyStrategyCountsPerDataCentre) {
    Input in;
    in.nodes = {node("a1", "dc1", "r1"), node("a2", "dc1", "r2"), node("a3", "dc1", "r3"),
                node("b1", "dc2", "r1"), node("b2", "dc2", "r2")};
    in.replications = {Replication::network_topology({{"dc1", 2}, {"dc2", 1}})};
    in.tablets = {tablet(0, {"a1", "a2", "a3"}), tablet(1, {"a1", "b1"}),
                  tablet(2, {"a1", "a2", "b1", "b2"})};
    Plan plan = plan_of(in);
    ASSERT_EQ(plan.actions.size(), 3u) << ::testing::PrintToString(lines(plan));
    for (const Action& a : plan.actions) {
        switch (a.tablet.index) {
            case 0:  // one of dc1's three moves to dc2, streaming from itself
                EXPECT_EQ(a.kind, ActionKind::kMove);
                EXPECT_EQ(a.from.substr(0, 1), "a");
                EXPECT_EQ(a.to.substr(0, 1), "b");
                EXPECT_FALSE(a.rebuild);
                break;
            case 1:  // dc1 lacks one, on a rack a1 does not use
                EXPECT_EQ(a.kind, ActionKind::kMove);
                EXPECT_EQ(a.from, "");
                EXPECT_TRUE(a.to == "a2" || a.to == "a3") << a.to;
                break;
            case 2:  // dc2 has one too many
                EXPECT_EQ(a.kind, ActionKind::kDrop);
                EXPECT_EQ(a.reason, Reason::kExcessReplica);
                EXPECT_EQ(a.from.substr(0, 1), "b");
                break;
        }
    }
    Rounds r = run_rounds(in, {}, 5);
    ASSERT_TRUE(r.converged);
    for (const Tablet& t : r.input.tablets) {
        int dc1 = 0, dc2 = 0;
        for (const std::string& h : t.replicas)
            (h[0] == 'a' ? dc1 : dc2)++;
        EXPECT_EQ(dc1, 2) << t.id.index;
        EXPECT_EQ(dc2, 1) << t.id.index;
    }
}

TEST(BalancerPlacementTest, ADataCentreWithoutNodesIsAProblemNotACrash) {
    Input in = three_nodes_rf3();
    in.nodes.pop_back();
    in.replications = {Replication::network_topology({{"dc1", 3}, {"nowhere", 2}})};
    in.tablets = {tablet(0, {"n1", "n2", "n3"})};
    Plan plan = plan_of(in);
    EXPECT_TRUE(plan.actions.empty());
    ASSERT_EQ(plan.problems.size(), 1u);
    EXPECT_EQ(plan.problems[0].kind, ProblemKind::kCannotPlace);
}

TEST(BalancerPlacementTest, NeverDropsTheLastCopiesForAReplicationItCannotMeet) {
    Input in = three_nodes_rf3();
    in.nodes.pop_back();
    in.tablets = {tablet(0, {"n1", "n2", "n3"})};
    // A data centre name with a typo, and replication factor 0 everywhere:
    // the replicas in dc1 are not wanted there, but they are all there is.
    for (Replication rep : {Replication::network_topology({{"dc-1", 3}}),
                            Replication::network_topology({{"dc1", 0}}), Replication::simple(0)}) {
        in.replications = {rep};
        Plan plan = plan_of(in);
        EXPECT_TRUE(plan.actions.empty()) << ::testing::PrintToString(lines(plan));
    }
    // Moved to dc2 (RF 1 there, none in dc1), the dc1 copies go once dc2 has its replica.
    in.nodes.push_back(node("m1", "dc2", "r1"));
    in.replications = {Replication::network_topology({{"dc1", 0}, {"dc2", 1}})};
    Rounds r = run_rounds(in, {}, 10);
    ASSERT_TRUE(r.converged);
    ASSERT_EQ(r.input.tablets[0].replicas, std::vector<std::string>{"m1"});
}

TEST(BalancerPlacementTest, TooFewNodesForTheReplicationFactorIsAProblem) {
    Input in;
    in.nodes = {node("n1"), node("n2")};
    in.replications = {Replication::simple(3)};
    in.tablets = {tablet(0, {"n1", "n2"})};
    Plan plan = plan_of(in);
    EXPECT_TRUE(plan.actions.empty());
    ASSERT_EQ(plan.problems.size(), 1u);
    EXPECT_EQ(plan.problems[0].kind, ProblemKind::kCannotPlace);
    EXPECT_NE(plan.problems[0].message.find("needs 3 replicas"), std::string::npos);
}

TEST(BalancerPlacementTest, LostAndUnreachableTabletsAreProblems) {
    Input in = three_nodes_rf3();
    in.nodes.push_back(node("dead1", "dc1", "r1", NodeState::kRemoved));
    in.nodes.push_back(node("dead2", "dc1", "r2", NodeState::kRemoved));
    in.nodes[2].state = NodeState::kDown;  // n3
    in.tablets = {tablet(0, {"dead1", "dead2"}), tablet(1, {"dead1", "n3"})};
    in.replications = {Replication::simple(2)};
    Plan plan = plan_of(in);
    EXPECT_TRUE(plan.actions.empty()) << ::testing::PrintToString(lines(plan));
    ASSERT_EQ(plan.problems.size(), 2u);
    EXPECT_EQ(plan.problems[0].kind, ProblemKind::kLost);
    EXPECT_EQ(plan.problems[0].tablet->index, 0u);
    EXPECT_EQ(plan.problems[1].kind, ProblemKind::kNoLiveReplica);
    EXPECT_EQ(plan.problems[1].tablet->index, 1u);
}

// n1..n7 on racks r1, r2, r0, r1, r2, r0, r0; 30 tablets on three
// consecutive nodes of n1..n6 each (so on three racks).
Input seven_nodes_thirty_tablets() {
    Input in;
    for (int i = 1; i <= 7; ++i)
        in.nodes.push_back(node("n" + std::to_string(i), "dc1", "r" + std::to_string(i % 3)));
    in.nodes[6].rack = "r0";
    in.replications = {Replication::simple(3)};
    for (int t = 0; t < 30; ++t) {
        std::vector<std::string> reps;
        for (int k = 0; k < 3; ++k)
            reps.push_back("n" + std::to_string((t + k) % 6 + 1));
        in.tablets.push_back(tablet(t, reps));
    }
    return in;
}

TEST(BalancerDecommissionTest, TheLeavingNodeEndsWithNoReplicas) {
    Input in = seven_nodes_thirty_tablets();
    in.nodes[5].state = NodeState::kLeaving;  // n6 holds 15 replicas
    ASSERT_EQ(replicas_on(in, "n6"), 15u);
    Plan first = plan_of(in);
    check_plan(in, first, {});
    // n6 streams its replicas itself, two at a time (its out slots), onto
    // the other nodes of its rack r0 (n3, n7).
    size_t decommission = 0;
    for (const Action& a : first.actions) {
        if (a.reason != Reason::kDecommission) continue;
        decommission++;
        EXPECT_EQ(a.from, "n6");
        EXPECT_EQ(a.stream_from, "n6");
        EXPECT_FALSE(a.rebuild);
        EXPECT_TRUE(a.to == "n3" || a.to == "n7") << describe(a);
    }
    EXPECT_EQ(decommission, 2u) << ::testing::PrintToString(lines(first));

    Rounds r = run_rounds(in, {}, 40);
    ASSERT_TRUE(r.converged);
    EXPECT_EQ(replicas_on(r.input, "n6"), 0u);
    for (const Tablet& t : r.input.tablets) {
        EXPECT_EQ(t.replicas.size(), 3u);
        std::set<std::string> racks;
        for (const std::string& h : t.replicas)
            racks.insert(in.nodes[std::stoi(h.substr(1)) - 1].rack);
        EXPECT_EQ(racks.size(), 3u) << "tablet " << t.id.index;
    }
    EXPECT_EQ(load_of(r.last, "n6").bytes_before, 0u);
    EXPECT_TRUE(r.last.problems.empty());
}

TEST(BalancerDecommissionTest, RefusedWhenTheOthersCannotHoldTheReplicas) {
    Input in = three_nodes_rf3();
    in.nodes.pop_back();  // n1, n2, n3 and RF 3
    in.nodes[0].state = NodeState::kLeaving;
    in.tablets = {tablet(0, {"n1", "n2", "n3"}), tablet(1, {"n1", "n2", "n3"})};
    Plan plan = plan_of(in);
    EXPECT_TRUE(plan.actions.empty()) << ::testing::PrintToString(lines(plan));
    ASSERT_EQ(plan.problems.size(), 1u);
    EXPECT_EQ(plan.problems[0].kind, ProblemKind::kDecommissionRefused);
    EXPECT_EQ(plan.problems[0].host, "n1");
    EXPECT_NE(plan.problems[0].message.find("would keep 2 nodes for replication factor 3"),
              std::string::npos)
        << plan.problems[0].message;
}

TEST(BalancerValidationTest, RejectsInvalidInput) {
    auto invalid = [](const Input& in, const Config& config = {}) {
        auto r = plan_round(in, config);
        EXPECT_FALSE(r.is_ok());
        return r.is_ok() ? std::string() : r.status().message();
    };
    Input in = three_nodes_rf3();
    in.tablets = {tablet(0, {"n1", "n2", "n3"})};
    ASSERT_TRUE(plan_round(in).is_ok());

    Input dup_host = in;
    dup_host.nodes.push_back(node("n1"));
    EXPECT_NE(invalid(dup_host).find("n1 is listed twice"), std::string::npos);
    Input dup_tablet = in;
    dup_tablet.tablets.push_back(tablet(0, {"n1"}));
    EXPECT_NE(invalid(dup_tablet).find("listed twice"), std::string::npos);
    Input dup_replica = in;
    dup_replica.tablets[0].replicas = {"n1", "n1"};
    EXPECT_NE(invalid(dup_replica).find("lists replica n1 twice"), std::string::npos);
    Input bad_repl = in;
    bad_repl.tablets[0].replication = 7;
    EXPECT_NE(invalid(bad_repl).find("replication 7"), std::string::npos);
    Input bad_capacity = in;
    bad_capacity.nodes[0].capacity = 0;
    EXPECT_NE(invalid(bad_capacity).find("capacity"), std::string::npos);
    Input bad_heat = in;
    bad_heat.tablets[0].heat.reads_per_sec = -1;
    EXPECT_NE(invalid(bad_heat).find("heat"), std::string::npos);
    Input bad_rf = in;
    bad_rf.replications = {Replication::network_topology({{"dc1", -1}})};
    EXPECT_NE(invalid(bad_rf).find("negative"), std::string::npos);
    Input empty_host = in;
    empty_host.nodes[0].host.clear();
    EXPECT_FALSE(invalid(empty_host).empty());
    Config bad_band;
    bad_band.dead_band = -0.1;
    EXPECT_NE(invalid(in, bad_band).find("dead_band"), std::string::npos);
}

TEST(BalancerValidationTest, EmptyInputGivesAnEmptyPlan) {
    Plan plan = plan_of(Input{});
    EXPECT_TRUE(plan.actions.empty());
    EXPECT_TRUE(plan.nodes.empty());
    EXPECT_EQ(plan.stats.bytes_before.max_over_mean, 0);
}

TEST(BalancerDeterminismTest, SameInputSamePlanWhateverTheOrder) {
    SimSpec spec;
    spec.nodes = 20;
    spec.tablets = 600;
    spec.seed = 7;
    Input in = make_cluster(spec);
    Config config;
    config.seed = 3;
    const std::vector<std::string> plan = lines(plan_of(in, config));
    ASSERT_FALSE(plan.empty());
    EXPECT_EQ(lines(plan_of(in, config)), plan);

    Input shuffled = in;
    std::mt19937 rng(1);
    std::shuffle(shuffled.tablets.begin(), shuffled.tablets.end(), rng);
    std::shuffle(shuffled.nodes.begin(), shuffled.nodes.end(), rng);
    EXPECT_EQ(lines(plan_of(shuffled, config)), plan);
}

}  // namespace
}  // namespace tessel::cluster::balancer
