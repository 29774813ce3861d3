// Client warnings of CREATE/ALTER KEYSPACE, as Cassandra 4.0's
// maybeWarnOnOptions (CreateTest.testCreateAlterKeyspacesRFWarnings): a
// replication factor higher than the nodes it can use is accepted with a
// warning. A single node is one node in datacenter1.
#include "test_db.h"

namespace tessel::testing {
namespace {

using Warnings = std::vector<std::string>;

TEST(ReplicationWarnings, NetworkTopologyStrategyWarnsPerDataCentre) {
    TestDb t;
    auto rs = t.ok(
        "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', "
        "'datacenter1': 3}");
    EXPECT_EQ(rs.warnings, (Warnings{"Your replication factor 3 for keyspace ks is higher than "
                                     "the number of nodes 1 for datacenter datacenter1"}));
    EXPECT_TRUE(t.ok("CREATE TABLE ks.t (k int PRIMARY KEY, v int)").warnings.empty());
    rs = t.ok(
        "ALTER KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', "
        "'datacenter1': 2}");
    EXPECT_EQ(rs.warnings, (Warnings{"Your replication factor 2 for keyspace ks is higher than "
                                     "the number of nodes 1 for datacenter datacenter1"}));
    rs = t.ok(
        "ALTER KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', "
        "'datacenter1': 1}");
    EXPECT_TRUE(rs.warnings.empty());
    // The expanded form warns the same way.
    rs = t.ok(
        "CREATE KEYSPACE ks2 WITH replication = {'class': 'NetworkTopologyStrategy', "
        "'replication_factor': 2}");
    EXPECT_EQ(rs.warnings, (Warnings{"Your replication factor 2 for keyspace ks2 is higher than "
                                     "the number of nodes 1 for datacenter datacenter1"}));
}

TEST(ReplicationWarnings, SimpleStrategyWarnsAgainstAllNodes) {
    TestDb t;
    auto rs = t.ok(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 3}");
    EXPECT_EQ(rs.warnings,
              (Warnings{"Your replication factor 3 for keyspace ks is higher than the number of "
                        "nodes 1"}));
    EXPECT_TRUE(t.ok("CREATE TABLE ks.t (k int PRIMARY KEY, v int)").warnings.empty());
    rs = t.ok(
        "ALTER KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 2}");
    EXPECT_EQ(rs.warnings,
              (Warnings{"Your replication factor 2 for keyspace ks is higher than the number of "
                        "nodes 1"}));
    rs = t.ok(
        "ALTER KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}");
    EXPECT_TRUE(rs.warnings.empty());
    // IF NOT EXISTS on an existing keyspace validates nothing.
    rs = t.ok(
        "CREATE KEYSPACE IF NOT EXISTS ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 5}");
    EXPECT_TRUE(rs.warnings.empty());
}

}  // namespace
}  // namespace tessel::testing
