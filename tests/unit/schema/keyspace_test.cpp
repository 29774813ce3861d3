#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "schema/catalog.h"
#include "schema/keyspace_options.h"
#include "schema_test_util.h"

namespace tessel {
namespace {

using testing::expect_error;
using testing::simple_rf;

const std::set<std::string> kOneDc{"datacenter1"};
const std::set<std::string> kTwoDcs{"dc1", "dc2"};
constexpr const char* kNts = "org.apache.cassandra.locator.NetworkTopologyStrategy";

TEST(Replication, SimpleStrategyIsNormalised) {
    auto r = normalize_replication({{"class", "SimpleStrategy"}, {"replication_factor", "3"}}, "ks",
                                   kOneDc);
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    EXPECT_EQ(*r, (StringMap{{"class", "org.apache.cassandra.locator.SimpleStrategy"},
                             {"replication_factor", "3"}}));
}

// Cassandra 4.0's ReplicationFactor.fromString and Integer.parseInt.
TEST(Replication, FactorIsParsedAsCassandraDoes) {
    EXPECT_EQ(*parse_replication_factor("3"), 3);
    EXPECT_EQ(*parse_replication_factor("+3"), 3);
    EXPECT_EQ(*parse_replication_factor("0"), 0);
    EXPECT_EQ(*parse_replication_factor("03"), 3);
    EXPECT_EQ(*parse_replication_factor("3/0"), 3) << "no transient replica";
    EXPECT_EQ(*parse_replication_factor("2147483647"), 2147483647);
    expect_error(parse_replication_factor("x"), ErrorCode::kConfigError, "For input string: \"x\"");
    expect_error(parse_replication_factor(""), ErrorCode::kConfigError, "For input string: \"\"");
    expect_error(parse_replication_factor("-"), ErrorCode::kConfigError, "For input string: \"-\"");
    expect_error(parse_replication_factor(" 3"), ErrorCode::kConfigError,
                 "For input string: \" 3\"");
    expect_error(parse_replication_factor("2147483648"), ErrorCode::kConfigError,
                 "For input string: \"2147483648\"");
    expect_error(parse_replication_factor("-1"), ErrorCode::kConfigError,
                 "Replication factor must be non-negative, found -1");
    expect_error(parse_replication_factor("3/1"), ErrorCode::kConfigError,
                 "Transient replication is not enabled on this node");
    expect_error(parse_replication_factor("3/"), ErrorCode::kConfigError,
                 "Replication factor format is <replicas> or <replicas>/<transient>");
    expect_error(parse_replication_factor("3/1/1"), ErrorCode::kConfigError,
                 "Replication factor format is <replicas> or <replicas>/<transient>");
    expect_error(parse_replication_factor("/3"), ErrorCode::kConfigError, "For input string: \"\"");
}

TEST(Replication, NetworkTopologyTakesKnownDataCenters) {
    auto r = normalize_replication({{"class", kNts}, {"dc1", "3"}, {"dc2", "1"}}, "ks", kTwoDcs);
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    EXPECT_EQ(*r, (StringMap{{"class", kNts}, {"dc1", "3"}, {"dc2", "1"}}));
    expect_error(
        normalize_replication({{"class", "NetworkTopologyStrategy"}, {"dc1", "x"}}, "ks", kTwoDcs),
        ErrorCode::kConfigError, "For input string: \"x\"");
    // A data centre no node is in (names are case-sensitive).
    expect_error(
        normalize_replication({{"class", "NetworkTopologyStrategy"}, {"dc1", "1"}, {"DC2", "1"}},
                              "ks", kTwoDcs),
        ErrorCode::kConfigError,
        "Unrecognized strategy option {DC2} passed to NetworkTopologyStrategy for keyspace ks");
    // Factors are read before the names are checked.
    expect_error(normalize_replication({{"class", "NetworkTopologyStrategy"}, {"nowhere", "-1"}},
                                       "ks", kTwoDcs),
                 ErrorCode::kConfigError, "Replication factor must be non-negative, found -1");
    // A zero factor is dropped, whatever the name; nothing left is an error.
    r = normalize_replication({{"class", "NetworkTopologyStrategy"}, {"dc1", "2"}, {"dc9", "0"}},
                              "ks", kTwoDcs);
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    EXPECT_EQ(*r, (StringMap{{"class", kNts}, {"dc1", "2"}}));
    expect_error(
        normalize_replication({{"class", "NetworkTopologyStrategy"}, {"dc1", "0"}}, "ks", kTwoDcs),
        ErrorCode::kConfigError, "Configuration for at least one datacenter must be present");
    expect_error(normalize_replication({{"class", "NetworkTopologyStrategy"}}, "ks", kTwoDcs),
                 ErrorCode::kConfigError,
                 "Configuration for at least one datacenter must be present");
    expect_error(
        normalize_replication({{"class", "NetworkTopologyStrategy"}, {"Replication_Factor", "1"}},
                              "ks", kTwoDcs),
        ErrorCode::kConfigError,
        "replication_factor should not appear as an option at construction time for "
        "NetworkTopologyStrategy");
}

// CASSANDRA-14303: 'replication_factor' is expanded to every known data centre.
TEST(Replication, NetworkTopologyExpandsReplicationFactor) {
    auto r = normalize_replication(
        {{"class", "NetworkTopologyStrategy"}, {"replication_factor", "3"}}, "ks", kTwoDcs);
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    EXPECT_EQ(*r, (StringMap{{"class", kNts}, {"dc1", "3"}, {"dc2", "3"}}));
    // A data centre named next to it keeps its own factor; "+2" is written as parsed.
    r = normalize_replication(
        {{"class", "NetworkTopologyStrategy"}, {"replication_factor", "+2"}, {"dc2", "5"}}, "ks",
        kTwoDcs);
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    EXPECT_EQ(*r, (StringMap{{"class", kNts}, {"dc1", "2"}, {"dc2", "5"}}));
    // ... and a zero there leaves that data centre out.
    r = normalize_replication(
        {{"class", "NetworkTopologyStrategy"}, {"replication_factor", "1"}, {"dc2", "0"}}, "ks",
        kTwoDcs);
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    EXPECT_EQ(*r, (StringMap{{"class", kNts}, {"dc1", "1"}}));
    // An unreadable factor expands to nothing (Cassandra swallows that error).
    expect_error(
        normalize_replication({{"class", "NetworkTopologyStrategy"}, {"replication_factor", "x"}},
                              "ks", kTwoDcs),
        ErrorCode::kConfigError, "Configuration for at least one datacenter must be present");
    r = normalize_replication(
        {{"class", "NetworkTopologyStrategy"}, {"replication_factor", "x"}, {"dc1", "1"}}, "ks",
        kTwoDcs);
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    EXPECT_EQ(*r, (StringMap{{"class", kNts}, {"dc1", "1"}}));
}

// ALTER: the previous replication feeds the expansion.
TEST(Replication, NetworkTopologyAlterKeepsConfiguredDataCenters) {
    const StringMap previous_nts{{"class", kNts}, {"dc1", "1"}};
    auto r =
        normalize_replication({{"class", "NetworkTopologyStrategy"}, {"replication_factor", "3"}},
                              "ks", kTwoDcs, previous_nts);
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    EXPECT_EQ(*r, (StringMap{{"class", kNts}, {"dc1", "1"}, {"dc2", "3"}}));
    r = normalize_replication(
        {{"class", "NetworkTopologyStrategy"}, {"replication_factor", "3"}, {"dc1", "2"}}, "ks",
        kTwoDcs, previous_nts);
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    EXPECT_EQ(*r, (StringMap{{"class", kNts}, {"dc1", "2"}, {"dc2", "3"}}));
    // Without replication_factor the map replaces the previous one.
    r = normalize_replication({{"class", "NetworkTopologyStrategy"}, {"dc2", "2"}}, "ks", kTwoDcs,
                              previous_nts);
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    EXPECT_EQ(*r, (StringMap{{"class", kNts}, {"dc2", "2"}}));
    // A bare class takes a SimpleStrategy's factor.
    const StringMap previous_simple{{"class", "org.apache.cassandra.locator.SimpleStrategy"},
                                    {"replication_factor", "2"}};
    r = normalize_replication({{"class", "NetworkTopologyStrategy"}}, "ks", kTwoDcs,
                              previous_simple);
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    EXPECT_EQ(*r, (StringMap{{"class", kNts}, {"dc1", "2"}, {"dc2", "2"}}));
    expect_error(
        normalize_replication({{"class", "NetworkTopologyStrategy"}}, "ks", kTwoDcs, previous_nts),
        ErrorCode::kConfigError, "Configuration for at least one datacenter must be present");
}

TEST(Replication, Errors) {
    expect_error(normalize_replication({{"replication_factor", "1"}}, "ks", kOneDc),
                 ErrorCode::kConfigError, "Missing replication strategy class");
    expect_error(normalize_replication({{"class", "SimpleStrategy"}}, "ks", kOneDc),
                 ErrorCode::kConfigError,
                 "SimpleStrategy requires a replication_factor strategy option.");
    expect_error(normalize_replication({{"class", "SimpleStrategy"}, {"replication_factor", "-1"}},
                                       "ks", kOneDc),
                 ErrorCode::kConfigError, "Replication factor must be non-negative, found -1");
    expect_error(
        normalize_replication(
            {{"class", "SimpleStrategy"}, {"replication_factor", "1"}, {"dc1", "1"}}, "ks", kOneDc),
        ErrorCode::kConfigError,
        "Unrecognized strategy option {dc1} passed to SimpleStrategy for keyspace ks");
    expect_error(normalize_replication({{"class", "FancyStrategy"}}, "ks", kOneDc),
                 ErrorCode::kConfigError,
                 "Unable to find replication strategy class "
                 "'org.apache.cassandra.locator.FancyStrategy'");
}

// Cassandra 4.0's maybeWarnOnOptions.
TEST(Replication, WarnsAboutFactorsHigherThanTheNodes) {
    const std::map<std::string, int> nodes{{"dc1", 3}, {"dc2", 1}};
    EXPECT_EQ(replication_warnings({{"class", kNts}, {"dc1", "3"}, {"dc2", "2"}}, "ks", nodes),
              (std::vector<std::string>{"Your replication factor 2 for keyspace ks is higher "
                                        "than the number of nodes 1 for datacenter dc2"}));
    EXPECT_TRUE(replication_warnings({{"class", kNts}, {"dc1", "3"}}, "ks", nodes).empty());
    const std::string simple = "org.apache.cassandra.locator.SimpleStrategy";
    EXPECT_EQ(
        replication_warnings({{"class", simple}, {"replication_factor", "5"}}, "ks", nodes),
        (std::vector<std::string>{
            "Your replication factor 5 for keyspace ks is higher than the number of nodes 4"}));
    EXPECT_TRUE(replication_warnings({{"class", simple}, {"replication_factor", "4"}}, "ks", nodes)
                    .empty());
    EXPECT_TRUE(
        replication_warnings({{"class", simple}, {"replication_factor", "4"}}, "ks", {}).empty())
        << "no node known: no warning";
}

TEST(KeyspaceOptionsTest, Properties) {
    KeyspaceOptions o;
    ASSERT_TRUE(apply_keyspace_option(o, "durable_writes", OptionValue::boolean(false)).is_ok());
    EXPECT_EQ(o.durable_writes, false);
    ASSERT_TRUE(
        apply_keyspace_option(o, "replication", OptionValue::of_map({{"class", "SimpleStrategy"}}))
            .is_ok());
    expect_error(apply_keyspace_option(o, "replicas", OptionValue::number("3")),
                 ErrorCode::kSyntaxError, "Unknown property 'replicas'");
    expect_error(apply_keyspace_option(o, "replication", OptionValue::string("x")),
                 ErrorCode::kSyntaxError,
                 "Invalid value for property 'replication'. It should be a map.");
}

TEST(CatalogKeyspace, CreateAlterDrop) {
    Catalog catalog;
    auto created = catalog.create_keyspace("ks", simple_rf());
    ASSERT_TRUE(created.is_ok()) << created.status().to_string();
    EXPECT_EQ(created->type, CatalogChange::Type::kCreated);
    EXPECT_EQ(created->target, CatalogChange::Target::kKeyspace);
    EXPECT_EQ(created->keyspace, "ks");
    auto ks = catalog.snapshot()->keyspace("ks");
    ASSERT_TRUE(ks);
    EXPECT_EQ(ks->replication.at("class"), "org.apache.cassandra.locator.SimpleStrategy");
    EXPECT_TRUE(ks->durable_writes);

    KeyspaceOptions alter;
    alter.durable_writes = false;
    ASSERT_TRUE(catalog.alter_keyspace("ks", alter).is_ok());
    ks = catalog.snapshot()->keyspace("ks");
    EXPECT_FALSE(ks->durable_writes);
    EXPECT_EQ(ks->replication.at("replication_factor"), "1") << "replication kept";

    ASSERT_TRUE(catalog.alter_keyspace("ks", simple_rf("3")).is_ok());
    EXPECT_EQ(catalog.snapshot()->keyspace("ks")->replication.at("replication_factor"), "3");

    ASSERT_TRUE(catalog.drop_keyspace("ks").is_ok());
    EXPECT_FALSE(catalog.snapshot()->keyspace("ks"));
}

TEST(CatalogKeyspace, Errors) {
    Catalog catalog;
    ASSERT_TRUE(catalog.create_keyspace("ks", simple_rf()).is_ok());
    auto dup = catalog.create_keyspace("ks", simple_rf());
    expect_error(dup, ErrorCode::kAlreadyExists, "Cannot add existing keyspace \"ks\"");
    EXPECT_EQ(dup.status().detail1, "ks");
    EXPECT_EQ(dup.status().detail2, "");

    expect_error(catalog.create_keyspace("other", KeyspaceOptions{}), ErrorCode::kConfigError,
                 "Missing mandatory replication strategy class");
    KeyspaceOptions no_class;
    no_class.replication = StringMap{{"replication_factor", "1"}};
    expect_error(catalog.create_keyspace("other", no_class), ErrorCode::kConfigError,
                 "Missing replication strategy class");
    expect_error(catalog.create_keyspace("bad-name", simple_rf()), ErrorCode::kInvalid,
                 "\"bad-name\" is not a valid keyspace name");
    expect_error(catalog.create_keyspace(std::string(49, 'k'), simple_rf()), ErrorCode::kInvalid,
                 "Keyspace names shouldn't be more than 48 characters long (got \"" +
                     std::string(49, 'k') + "\")");
    expect_error(catalog.create_keyspace("system", simple_rf()), ErrorCode::kInvalid,
                 "system keyspace is not user-modifiable");
    expect_error(catalog.drop_keyspace("nope"), ErrorCode::kConfigError,
                 "Cannot drop non existing keyspace 'nope'.");
    expect_error(catalog.alter_keyspace("nope", simple_rf()), ErrorCode::kInvalid,
                 "Unknown keyspace nope");
    expect_error(catalog.alter_keyspace("ks", no_class), ErrorCode::kConfigError,
                 "Missing replication strategy class");
}

TEST(CatalogKeyspace, NetworkTopologyUsesTheCatalogsDataCenters) {
    Catalog catalog;
    KeyspaceOptions nts;
    nts.replication = StringMap{{"class", "NetworkTopologyStrategy"}, {"replication_factor", "2"}};
    ASSERT_TRUE(catalog.create_keyspace("one", nts).is_ok());
    EXPECT_EQ(catalog.snapshot()->keyspace("one")->replication,
              (StringMap{{"class", kNts}, {"datacenter1", "2"}}))
        << "a single node is in datacenter1";
    catalog.set_datacenters([] { return std::map<std::string, int>{{"dc1", 3}, {"dc2", 1}}; });
    ASSERT_TRUE(catalog.create_keyspace("two", nts).is_ok());
    EXPECT_EQ(catalog.snapshot()->keyspace("two")->replication,
              (StringMap{{"class", kNts}, {"dc1", "2"}, {"dc2", "2"}}));
    KeyspaceOptions alter;
    alter.replication = StringMap{{"class", "NetworkTopologyStrategy"}, {"dc3", "1"}};
    expect_error(
        catalog.alter_keyspace("two", alter), ErrorCode::kConfigError,
        "Unrecognized strategy option {dc3} passed to NetworkTopologyStrategy for keyspace two");
    // A factor higher than the nodes of a data centre is a warning.
    KeyspaceOptions three;
    three.replication = StringMap{{"class", "NetworkTopologyStrategy"}, {"dc2", "3"}};
    auto warned = catalog.create_keyspace("three", three);
    ASSERT_TRUE(warned.is_ok()) << warned.status().to_string();
    EXPECT_EQ(warned->warnings, (std::vector<std::string>{"Your replication factor 3 for keyspace "
                                                          "three is higher than the number of "
                                                          "nodes 1 for datacenter dc2"}));
    KeyspaceOptions durable;
    durable.durable_writes = false;
    auto altered = catalog.alter_keyspace("three", durable);
    ASSERT_TRUE(altered.is_ok());
    EXPECT_EQ(altered->warnings.size(), 1u) << "every ALTER validates the replication again";
    EXPECT_TRUE(catalog.create_keyspace("three", three, /*if_not_exists=*/true)->warnings.empty());
    // Cassandra 4.0 reports an existing keyspace before a bad replication.
    expect_error(catalog.create_keyspace("two", alter), ErrorCode::kAlreadyExists,
                 "Cannot add existing keyspace \"two\"");
}

TEST(CatalogKeyspace, IfExistsVariantsAreNoOps) {
    Catalog catalog;
    ASSERT_TRUE(catalog.create_keyspace("ks", simple_rf()).is_ok());
    Uuid before = catalog.version();
    auto again = catalog.create_keyspace("ks", simple_rf(), /*if_not_exists=*/true);
    ASSERT_TRUE(again.is_ok());
    EXPECT_FALSE(again->applied);
    auto gone = catalog.drop_keyspace("nope", /*if_exists=*/true);
    ASSERT_TRUE(gone.is_ok());
    EXPECT_FALSE(gone->applied);
    EXPECT_EQ(catalog.version(), before) << "a no-op DDL keeps the schema version";
}

TEST(CatalogKeyspace, VersionChangesOnEveryDdlAndSnapshotsStayImmutable) {
    Catalog catalog;
    Uuid v0 = catalog.version();
    auto snap0 = catalog.snapshot();
    ASSERT_TRUE(catalog.create_keyspace("ks", simple_rf()).is_ok());
    Uuid v1 = catalog.version();
    EXPECT_NE(v0, v1);
    EXPECT_TRUE(snap0->keyspaces.empty()) << "an old snapshot never sees later DDL";
    ASSERT_TRUE(
        catalog.create_table(testing::table_spec("ks", "t", {{"k", "int"}}, {"k"})).is_ok());
    Uuid v2 = catalog.version();
    EXPECT_NE(v1, v2);
    ASSERT_TRUE(catalog.alter_table_add("ks", "t", {NewColumn{"v", testing::ts("text")}}).is_ok());
    Uuid v3 = catalog.version();
    EXPECT_NE(v2, v3);
    ASSERT_TRUE(catalog.create_type("ks", "addr", {{"street", testing::ts("text")}}).is_ok());
    Uuid v4 = catalog.version();
    EXPECT_NE(v3, v4);
    ASSERT_TRUE(catalog.drop_table("ks", "t").is_ok());
    Uuid v5 = catalog.version();
    EXPECT_NE(v4, v5);
    // A failed DDL keeps the version.
    EXPECT_FALSE(catalog.drop_table("ks", "t").is_ok());
    EXPECT_EQ(catalog.version(), v5);
}

}  // namespace
}  // namespace tessel
