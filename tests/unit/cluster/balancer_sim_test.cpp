// Simulated clusters at scale: rounds planned and applied with every
// migration completing at once must reach max/mean <= 1.10 for bytes and
// heat within a bounded number of rounds. The full 1,000-node figures come
// from bench/micro/balancer_bench.cpp.
#include <gtest/gtest.h>

#include "balancer_test_util.h"
#include "cluster/balancer_sim.h"

namespace tessel::cluster::balancer {
namespace {

using namespace testing;

void expect_balanced(const SimResult& r, int max_rounds) {
    ASSERT_TRUE(r.status.is_ok()) << r.status.to_string();
    EXPECT_TRUE(r.converged) << "not converged in " << max_rounds << " rounds";
    EXPECT_LE(r.bytes.max_over_mean, 1.10);
    EXPECT_LE(r.heat.max_over_mean, 1.10);
    EXPECT_GE(r.bytes.min_over_mean, 0.90);
    EXPECT_GE(r.heat.min_over_mean, 0.90);
}

TEST(BalancerSimTest, HundredNodesTenThousandTabletsOneDataCentreThreeRacks) {
    SimSpec spec;  // 100 nodes, 10,000 tablets, RF 3, lognormal sizes, Zipf heat
    SimResult r = simulate(make_cluster(spec), {}, 80);
    expect_balanced(r, 80);
    EXPECT_GT(r.rounds.front().stats.heat_before.max_over_mean, 3.0);  // skewed at first
    EXPECT_GT(r.rounds.front().stats.bytes_before.max_over_mean, 1.2);
    EXPECT_LT(r.moves, 1500u);  // of 30,000 replicas
}

TEST(BalancerSimTest, NinetyNodesInThreeDataCentres) {
    SimSpec spec;
    spec.nodes = 90;
    spec.dcs = 3;
    spec.tablets = 5000;  // RF 3 in each data centre: 45,000 replicas
    SimResult r = simulate(make_cluster(spec), {}, 80);
    expect_balanced(r, 80);
}

TEST(BalancerSimTest, NodesJoinAndDieInABalancedCluster) {
    SimSpec spec;
    spec.nodes = 60;
    spec.tablets = 4000;
    Rounds settled = run_rounds(make_cluster(spec), {}, 80);
    ASSERT_TRUE(settled.converged);

    // Six new nodes join (two per rack) and two die for good.
    Input in = settled.input;
    for (int i = 0; i < 6; ++i)
        in.nodes.push_back(node("new" + std::to_string(i), "dc1", "r" + std::to_string(i % 3 + 1)));
    in.nodes[5].state = NodeState::kRemoved;
    in.nodes[17].state = NodeState::kRemoved;
    Rounds r = run_rounds(in, {}, 150);
    ASSERT_TRUE(r.converged);
    EXPECT_EQ(replicas_on(r.input, in.nodes[5].host), 0u);
    EXPECT_EQ(replicas_on(r.input, in.nodes[17].host), 0u);
    for (const Tablet& t : r.input.tablets)
        ASSERT_EQ(t.replicas.size(), 3u);
    EXPECT_LE(r.last.stats.bytes_before.max_over_mean, 1.10);
    EXPECT_LE(r.last.stats.heat_before.max_over_mean, 1.10);
    EXPECT_GE(r.last.stats.bytes_before.min_over_mean, 0.90);
}

#ifdef NDEBUG  // a few seconds optimized; minutes under the sanitizers
TEST(BalancerSimTest, ThousandNodesHundredThousandTablets) {
    SimSpec spec;
    spec.nodes = 1000;
    spec.racks_per_dc = 10;
    spec.tablets = 100000;
    SimResult r = simulate(make_cluster(spec), {}, 120);
    expect_balanced(r, 120);
    EXPECT_LT(r.max_plan_ms, 2000);  // 0.1-0.25 s measured on a loaded 2-core box
}
#endif

}  // namespace
}  // namespace tessel::cluster::balancer
