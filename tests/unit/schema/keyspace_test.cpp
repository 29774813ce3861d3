#include <gtest/gtest.h>

#include "schema/catalog.h"
#include "schema/keyspace_options.h"
#include "schema_test_util.h"

namespace tessel {
namespace {

using testing::expect_error;
using testing::simple_rf;

TEST(Replication, SimpleStrategyIsNormalised) {
    auto r =
        normalize_replication({{"class", "SimpleStrategy"}, {"replication_factor", "3"}}, "ks");
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    EXPECT_EQ(*r, (StringMap{{"class", "org.apache.cassandra.locator.SimpleStrategy"},
                             {"replication_factor", "3"}}));
}

TEST(Replication, NetworkTopologyTakesDataCenters) {
    auto r =
        normalize_replication({{"class", "org.apache.cassandra.locator.NetworkTopologyStrategy"},
                               {"dc1", "3"},
                               {"dc2", "1"}},
                              "ks");
    ASSERT_TRUE(r.is_ok());
    EXPECT_EQ(r->at("dc1"), "3");
    EXPECT_EQ(r->at("class"), "org.apache.cassandra.locator.NetworkTopologyStrategy");
    expect_error(normalize_replication({{"class", "NetworkTopologyStrategy"}, {"dc1", "x"}}, "ks"),
                 ErrorCode::kConfigError, "Replication factor must be numeric; found x");
    expect_error(normalize_replication(
                     {{"class", "NetworkTopologyStrategy"}, {"replication_factor", "1"}}, "ks"),
                 ErrorCode::kConfigError,
                 "replication_factor is an option for SimpleStrategy, not NetworkTopologyStrategy");
}

TEST(Replication, Errors) {
    expect_error(normalize_replication({{"replication_factor", "1"}}, "ks"),
                 ErrorCode::kConfigError, "Missing replication strategy class");
    expect_error(normalize_replication({{"class", "SimpleStrategy"}}, "ks"),
                 ErrorCode::kConfigError,
                 "SimpleStrategy requires a replication_factor strategy option.");
    expect_error(
        normalize_replication({{"class", "SimpleStrategy"}, {"replication_factor", "-1"}}, "ks"),
        ErrorCode::kConfigError, "Replication factor must be non-negative; found -1");
    expect_error(
        normalize_replication(
            {{"class", "SimpleStrategy"}, {"replication_factor", "1"}, {"dc1", "1"}}, "ks"),
        ErrorCode::kConfigError,
        "Unrecognized strategy option {dc1} passed to SimpleStrategy for keyspace ks");
    expect_error(normalize_replication({{"class", "FancyStrategy"}}, "ks"), ErrorCode::kConfigError,
                 "Unable to find replication strategy class "
                 "'org.apache.cassandra.locator.FancyStrategy'");
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
