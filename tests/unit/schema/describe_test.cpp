#include "schema/describe.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "schema/catalog.h"
#include "schema_test_util.h"

namespace tessel {
namespace {

using testing::table_spec;
using testing::ts;

class Describe : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_TRUE(catalog.create_keyspace("ks", testing::simple_rf("3")).is_ok());
    }
    Catalog catalog;
};

TEST_F(Describe, TableWithCompositeKeysDescClusteringAndStatic) {
    TableSpec spec = table_spec("ks", "readings",
                                {{"metric", "text"},
                                 {"host", "text"},
                                 {"ts", "timestamp"},
                                 {"seq", "int"},
                                 {"value", "double"},
                                 {"unit", "text static"},
                                 {"Tags", "map<text, text>"}},
                                {"metric", "host"}, {"ts", "seq"});
    spec.clustering_order = {{"ts", ClusteringOrder::kDesc}};
    ASSERT_TRUE(catalog.create_table(spec).is_ok());
    EXPECT_EQ(describe_table(*catalog.snapshot()->table("ks", "readings")),
              "CREATE TABLE ks.readings (\n"
              "    metric text,\n"
              "    host text,\n"
              "    ts timestamp,\n"
              "    seq int,\n"
              "    \"Tags\" map<text, text>,\n"
              "    unit text static,\n"
              "    value double,\n"
              "    PRIMARY KEY ((metric, host), ts, seq)\n"
              ") WITH CLUSTERING ORDER BY (ts DESC, seq ASC)\n"
              "    AND bloom_filter_fp_chance = 0.01\n"
              "    AND caching = {'keys': 'ALL', 'rows_per_partition': 'NONE'}\n"
              "    AND comment = ''\n"
              "    AND compaction = {'class': "
              "'org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy', "
              "'max_threshold': '32', 'min_threshold': '4'}\n"
              "    AND compression = {'chunk_length_in_kb': '64', 'class': "
              "'org.apache.cassandra.io.compress.LZ4Compressor'}\n"
              "    AND crc_check_chance = 1.0\n"
              "    AND dclocal_read_repair_chance = 0.1\n"
              "    AND default_time_to_live = 0\n"
              "    AND gc_grace_seconds = 864000\n"
              "    AND max_index_interval = 2048\n"
              "    AND memtable_flush_period_in_ms = 0\n"
              "    AND min_index_interval = 128\n"
              "    AND read_repair_chance = 0.0\n"
              "    AND speculative_retry = '99PERCENTILE';");
}

TEST_F(Describe, SinglePartitionKeyIsInline) {
    ASSERT_TRUE(
        catalog.create_table(table_spec("ks", "kv", {{"v", "blob"}, {"key", "text"}}, {"key"}))
            .is_ok());
    std::string text = describe_table(*catalog.snapshot()->table("ks", "kv"));
    EXPECT_EQ(text.substr(0, text.find(") WITH ")),
              "CREATE TABLE ks.kv (\n"
              "    key text PRIMARY KEY,\n"
              "    v blob\n");
    EXPECT_EQ(text.substr(text.find(") WITH "), 38), ") WITH bloom_filter_fp_chance = 0.01\n ");
}

TEST_F(Describe, TesselAndChangedOptionsAppearSorted) {
    TableSpec spec =
        table_spec("ks", "events", {{"order_id", "uuid"}, {"at", "timestamp"}, {"dev", "text"}},
                   {"order_id"}, {"at"});
    ASSERT_TRUE(apply_table_option(spec.options, "comment", OptionValue::string("it's")).is_ok());
    ASSERT_TRUE(
        apply_table_option(spec.options, "distribution", OptionValue::string("ordered")).is_ok());
    ASSERT_TRUE(
        apply_table_option(
            spec.options, "write_sharding",
            OptionValue::of_map({{"shards", "8"}, {"suffix", "calculated"}, {"columns", "dev"}}))
            .is_ok());
    ASSERT_TRUE(apply_table_option(spec.options, "time_bucket",
                                   OptionValue::of_map({{"column", "at"}, {"width", "60m"}}))
                    .is_ok());
    ASSERT_TRUE(catalog.create_table(spec).is_ok());
    std::string text = describe_table(*catalog.snapshot()->table("ks", "events"));
    EXPECT_NE(text.find("    AND comment = 'it''s'\n"), std::string::npos) << text;
    EXPECT_NE(text.find("    AND default_time_to_live = 0\n"
                        "    AND distribution = 'ordered'\n"
                        "    AND gc_grace_seconds = 864000\n"),
              std::string::npos)
        << text;
    EXPECT_TRUE(text.ends_with(
        "    AND speculative_retry = '99PERCENTILE'\n"
        "    AND time_bucket = {'column': 'at', 'width': '1h'}\n"
        "    AND write_sharding = {'columns': 'dev', 'shards': '8', 'suffix': 'calculated'};"))
        << text;
}

TEST_F(Describe, KeyspaceAndTypes) {
    EXPECT_EQ(describe_keyspace(*catalog.snapshot()->keyspace("ks")),
              "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
              "'replication_factor': '3'}  AND durable_writes = true;");
    KeyspaceOptions nts;
    nts.replication = StringMap{{"class", "NetworkTopologyStrategy"}, {"dc2", "1"}, {"dc1", "3"}};
    nts.durable_writes = false;
    catalog.set_datacenters([] { return std::map<std::string, int>{{"dc1", 3}, {"dc2", 1}}; });
    ASSERT_TRUE(catalog.create_keyspace("Geo", nts).is_ok());
    EXPECT_EQ(describe_keyspace(*catalog.snapshot()->keyspace("Geo")),
              "CREATE KEYSPACE \"Geo\" WITH replication = {'class': 'NetworkTopologyStrategy', "
              "'dc1': '3', 'dc2': '1'}  AND durable_writes = false;");

    // "zone" sorts after "address" but "address" uses it, so it is printed first.
    ASSERT_TRUE(catalog.create_type("ks", "zone", {{"code", ts("int")}}).is_ok());
    ASSERT_TRUE(
        catalog
            .create_type(
                "ks", "address",
                {{"street", ts("text")}, {"z", ts("frozen<zone>")}, {"from", ts("list<text>")}})
            .is_ok());
    auto ks = catalog.snapshot()->keyspace("ks");
    EXPECT_EQ(describe_type(*ks->type("address")),
              "CREATE TYPE ks.address (\n"
              "    street text,\n"
              "    z frozen<zone>,\n"
              "    \"from\" list<text>\n"
              ");");
    ASSERT_TRUE(catalog.create_table(table_spec("ks", "t", {{"k", "int"}}, {"k"})).is_ok());
    std::string full = describe_keyspace_full(*catalog.snapshot()->keyspace("ks"));
    size_t zone = full.find("CREATE TYPE ks.zone");
    size_t address = full.find("CREATE TYPE ks.address");
    size_t table = full.find("CREATE TABLE ks.t");
    ASSERT_NE(zone, std::string::npos);
    ASSERT_NE(address, std::string::npos);
    ASSERT_NE(table, std::string::npos);
    EXPECT_LT(zone, address);
    EXPECT_LT(address, table);
    EXPECT_EQ(full.find("\n\nCREATE TYPE ks.zone"), zone - 2);
}

TEST(ProtectName, QuotesWhatCqlshQuotes) {
    EXPECT_EQ(protect_name("plain_name1"), "plain_name1");
    EXPECT_EQ(protect_name("Mixed"), "\"Mixed\"");
    EXPECT_EQ(protect_name("1abc"), "\"1abc\"");
    EXPECT_EQ(protect_name("select"), "\"select\"");
    EXPECT_EQ(protect_name("key"), "key") << "unreserved keywords stay bare";
    EXPECT_EQ(protect_name("we\"ird"), "\"we\"\"ird\"");
}

}  // namespace
}  // namespace tessel
