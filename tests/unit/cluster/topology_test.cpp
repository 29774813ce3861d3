// Token allocation, replica placement (SimpleStrategy, NetworkTopologyStrategy
// with racks) and the first tablet map of a cluster table, which must agree
// with the ring drivers compute replicas from.
#include "cluster/topology.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <set>

#include "partition/token.h"

namespace tessel::cluster {
namespace {

std::string host(int i) {
    std::string h(16, '\0');
    h[15] = static_cast<char>(i);
    return h;
}

std::vector<NodeInfo> cluster(int n, int tokens, const std::vector<std::string>& dcs = {"dc1"},
                              int racks = 1) {
    std::vector<NodeInfo> nodes;
    for (int i = 0; i < n; ++i) {
        NodeInfo node;
        node.host_id = host(i + 1);
        node.dc = dcs[static_cast<size_t>(i) % dcs.size()];
        node.rack = "r" + std::to_string((i / static_cast<int>(dcs.size())) % racks);
        node.tokens = Ring::allocate_tokens(nodes, tokens);
        nodes.push_back(node);
    }
    return nodes;
}

// Share of the ring each host owns (as primary).
std::map<std::string, double> ownership(const Ring& ring) {
    std::map<std::string, double> out;
    const auto& t = ring.tokens();
    for (size_t i = 0; i < t.size(); ++i) {
        const __int128 prev = t[(i + t.size() - 1) % t.size()].first;
        __int128 d = __int128{t[i].first} - prev;
        if (d <= 0) d += __int128{1} << 64;
        out[t[i].second] += static_cast<double>(d) / 18446744073709551616.0;
    }
    return out;
}

TEST(Replication, ReadsTheStrategies) {
    auto simple = Replication::from_options(
        {{"class", "org.apache.cassandra.locator.SimpleStrategy"}, {"replication_factor", "3"}});
    ASSERT_TRUE(simple.is_ok());
    EXPECT_FALSE(simple->network_topology);
    EXPECT_EQ(simple->total(), 3);
    auto nts = Replication::from_options(
        {{"class", "org.apache.cassandra.locator.NetworkTopologyStrategy"},
         {"dc1", "2"},
         {"dc2", "1"}});
    ASSERT_TRUE(nts.is_ok());
    EXPECT_EQ(nts->in_dc("dc1"), 2);
    EXPECT_EQ(nts->in_dc("dc3"), 0);
    EXPECT_EQ(nts->total(), 3);
    auto local =
        Replication::from_options({{"class", "org.apache.cassandra.locator.LocalStrategy"}});
    ASSERT_TRUE(local.is_ok());
    EXPECT_EQ(local->total(), 1);
    EXPECT_FALSE(Replication::from_options({{"replication_factor", "1"}}).is_ok());
    // Factors as Cassandra's ReplicationFactor reads them (and the catalog stores them).
    auto written = Replication::from_options(
        {{"class", "org.apache.cassandra.locator.NetworkTopologyStrategy"},
         {"dc1", "+2"},
         {"dc2", "3/0"}});
    ASSERT_TRUE(written.is_ok()) << written.status().to_string();
    EXPECT_EQ(written->in_dc("dc1"), 2);
    EXPECT_EQ(written->in_dc("dc2"), 3);
}

TEST(Ring, TokensSpreadEvenlyAsNodesJoin) {
    for (int n : {1, 2, 3, 4, 7}) {
        Ring ring(cluster(n, 16));
        EXPECT_EQ(ring.tokens().size(), static_cast<size_t>(16 * n));
        for (const auto& [h, share] : ownership(ring)) {
            EXPECT_NEAR(share, 1.0 / n, 0.1 / n) << n << " nodes";
        }
    }
    // Deterministic: the same cluster gives the same tokens.
    EXPECT_EQ(cluster(3, 8)[2].tokens, cluster(3, 8)[2].tokens);
}

TEST(Ring, SimpleStrategyWalksTheRingForDistinctNodes) {
    Ring ring(cluster(4, 8));
    Replication rf3;
    rf3.replication_factor = 3;
    for (size_t i = 0; i < ring.tokens().size(); ++i) {
        auto r = ring.replicas(i, rf3);
        ASSERT_EQ(r.size(), 3u);
        EXPECT_EQ(r[0], ring.tokens()[i].second);  // the range's owner first
        EXPECT_EQ(std::set<std::string>(r.begin(), r.end()).size(), 3u);
    }
    Replication rf9;
    rf9.replication_factor = 9;
    EXPECT_EQ(ring.replicas(0, rf9).size(), 4u);  // no more replicas than nodes
}

TEST(Ring, NetworkTopologyStrategyPlacesPerDcOnDistinctRacks) {
    // 12 nodes, two DCs, three racks each.
    auto nodes = cluster(12, 4, {"dc1", "dc2"}, 3);
    Ring ring(nodes);
    std::map<std::string, std::pair<std::string, std::string>> where;
    for (const auto& n : nodes)
        where[n.host_id] = {n.dc, n.rack};
    auto r = Replication::from_options(
        {{"class", "NetworkTopologyStrategy"}, {"dc1", "3"}, {"dc2", "2"}});
    ASSERT_TRUE(r.is_ok());
    for (size_t i = 0; i < ring.tokens().size(); ++i) {
        auto replicas = ring.replicas(i, *r);
        ASSERT_EQ(replicas.size(), 5u);
        std::map<std::string, std::set<std::string>> racks;
        for (const auto& h : replicas)
            racks[where[h].first].insert(where[h].second);
        EXPECT_EQ(racks["dc1"].size(), 3u);
        EXPECT_EQ(racks["dc2"].size(), 2u);
    }
}

TEST(InitialClusterMap, EveryTokenLandsOnTheReplicasDriversCompute) {
    Ring ring(cluster(3, 16));
    Replication rf2;
    rf2.replication_factor = 2;
    TabletMap map = initial_cluster_map(true, ring, rf2, 1);
    EXPECT_EQ(map.size(), ring.tokens().size() + 1);
    std::mt19937_64 rng(7);
    std::vector<int64_t> probes;
    for (const auto& [t, _] : ring.tokens()) {
        probes.push_back(t);
        if (t != std::numeric_limits<int64_t>::max()) probes.push_back(t + 1);
        if (t != std::numeric_limits<int64_t>::min()) probes.push_back(t - 1);
    }
    for (int i = 0; i < 2000; ++i)
        probes.push_back(static_cast<int64_t>(rng()));
    for (int64_t t : probes) {
        const Tablet& tablet = map.at(map.find(encode_token_prefix(t) + "key"));
        EXPECT_EQ(tablet.replicas, ring.replicas(ring.range_of(t), rf2)) << t;
    }
    // The map survives its stored form, replicas included.
    auto decoded = TabletMap::decode(map.encode());
    ASSERT_TRUE(decoded.is_ok());
    EXPECT_EQ(*decoded, map);
    TabletMap ordered = initial_cluster_map(false, ring, rf2, 1);
    ASSERT_EQ(ordered.size(), 1u);
    EXPECT_EQ(ordered.at(0).replicas.size(), 2u);
}

TEST(TabletMap, HalvesOfASplitKeepTheReplicasAndOnlyEqualNeighboursMerge) {
    Ring ring(cluster(3, 2));
    Replication rf1;
    TabletMap map = initial_cluster_map(true, ring, rf1, 1);
    const size_t before = map.size();
    auto mid = map.token_midpoint(1);
    ASSERT_TRUE(mid);
    ASSERT_TRUE(map.split(1, *mid, 1, 2).is_ok());
    EXPECT_EQ(map.at(2).replicas, map.at(1).replicas);
    ASSERT_TRUE(map.merge(1, 3).is_ok());
    EXPECT_EQ(map.size(), before);
    bool refused = false;
    for (size_t i = 0; i + 1 < map.size(); ++i) {
        if (map.at(i).replicas != map.at(i + 1).replicas) {
            refused = !map.merge(i, 4).is_ok();
            break;
        }
    }
    EXPECT_TRUE(refused);
}

}  // namespace
}  // namespace tessel::cluster
