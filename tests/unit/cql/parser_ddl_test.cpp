#include <gtest/gtest.h>

#include "parse_helpers.h"

namespace tessel::cql {
namespace {

using testing::parse_as;
using testing::syntax_error;

TEST(ParserDdl, Use) {
    EXPECT_EQ(parse_as<UseStatement>("USE Shop").keyspace, "shop");
    EXPECT_EQ(parse_as<UseStatement>("use \"Shop\";").keyspace, "Shop");
}

TEST(ParserDdl, CreateKeyspace) {
    auto s = parse_as<CreateKeyspaceStatement>(
        "CREATE KEYSPACE IF NOT EXISTS ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1} AND durable_writes = false");
    EXPECT_EQ(s.keyspace, "ks");
    EXPECT_TRUE(s.if_not_exists);
    ASSERT_EQ(s.properties.size(), 2u);
    EXPECT_EQ(s.properties[0].name, "replication");
    ASSERT_EQ(s.properties[0].value.kind, Literal::Kind::kMap);
    ASSERT_EQ(s.properties[0].value.entries.size(), 2u);
    EXPECT_EQ(s.properties[0].value.entries[0].first.text, "class");
    EXPECT_EQ(s.properties[0].value.entries[0].second.text, "SimpleStrategy");
    EXPECT_EQ(s.properties[0].value.entries[1].second.kind, Literal::Kind::kInteger);
    EXPECT_EQ(s.properties[1].name, "durable_writes");
    EXPECT_EQ(s.properties[1].value.kind, Literal::Kind::kBoolean);
    EXPECT_EQ(s.properties[1].value.text, "false");
}

// Cassandra's PropertyDefinitions.addProperty and convertPropertyMap.
TEST(ParserDdl, PropertiesAndMapKeysAreDefinedOnce) {
    EXPECT_EQ(syntax_error("CREATE KEYSPACE ks WITH replication = {'class': "
                           "'NetworkTopologyStrategy', 'dc1': 1, 'dc1': 2}"),
              "Multiple definition for property dc1");
    EXPECT_EQ(syntax_error("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
                           "'replication_factor': 1} AND durable_writes = true AND "
                           "durable_writes = false"),
              "Multiple definition for property 'durable_writes'");
    EXPECT_EQ(syntax_error("CREATE TABLE t (k int PRIMARY KEY) WITH comment = 'a' AND "
                           "CLUSTERING ORDER BY (k ASC) AND comment = 'b'"),
              "Multiple definition for property 'comment'");
    EXPECT_EQ(syntax_error("ALTER TABLE t WITH compaction = {'class': 'a', 'class': 'b'}"),
              "Multiple definition for property class");
}

TEST(ParserDdl, AlterAndDropKeyspace) {
    auto a = parse_as<AlterKeyspaceStatement>(
        "ALTER KEYSPACE ks WITH replication = {'class': 'SimpleStrategy'}");
    EXPECT_EQ(a.keyspace, "ks");
    ASSERT_EQ(a.properties.size(), 1u);
    auto d = parse_as<DropKeyspaceStatement>("DROP KEYSPACE IF EXISTS ks");
    EXPECT_TRUE(d.if_exists);
    EXPECT_EQ(d.keyspace, "ks");
    EXPECT_FALSE(parse_as<DropKeyspaceStatement>("DROP KEYSPACE ks").if_exists);
}

TEST(ParserDdl, CreateTableWithCompositeKeyAndOptions) {
    auto s = parse_as<CreateTableStatement>(
        "CREATE TABLE IF NOT EXISTS shop.events (tenant text, day date, ts timestamp, id "
        "timeuuid, payload blob, tags set<text>, owner text STATIC, "
        "PRIMARY KEY ((tenant, day), ts, id)) WITH CLUSTERING ORDER BY (ts DESC, id ASC) "
        "AND compaction = {'class': 'LeveledCompactionStrategy'} AND default_time_to_live = 86400 "
        "AND write_sharding = {'shards': 16, 'suffix': 'random'} "
        "AND time_bucket = {'column': 'ts', 'width': '1h'} AND distribution = 'ordered' "
        "AND comment = 'events'");
    EXPECT_TRUE(s.if_not_exists);
    EXPECT_EQ(s.table.keyspace, "shop");
    EXPECT_EQ(s.table.name, "events");
    ASSERT_EQ(s.columns.size(), 7u);
    EXPECT_EQ(s.columns[1].type.name, "date");
    EXPECT_EQ(s.columns[5].type.name, "set");
    ASSERT_EQ(s.columns[5].type.params.size(), 1u);
    EXPECT_EQ(s.columns[5].type.params[0].name, "text");
    EXPECT_TRUE(s.columns[6].is_static);
    EXPECT_EQ(s.partition_key, (std::vector<std::string>{"tenant", "day"}));
    EXPECT_EQ(s.clustering_key, (std::vector<std::string>{"ts", "id"}));
    ASSERT_EQ(s.clustering_order.size(), 2u);
    EXPECT_EQ(s.clustering_order[0].column, "ts");
    EXPECT_TRUE(s.clustering_order[0].descending);
    EXPECT_FALSE(s.clustering_order[1].descending);
    ASSERT_EQ(s.properties.size(), 6u);
    EXPECT_EQ(s.properties[1].name, "default_time_to_live");
    EXPECT_EQ(s.properties[1].value.text, "86400");
    EXPECT_EQ(s.properties[2].name, "write_sharding");
    EXPECT_EQ(s.properties[2].value.entries[0].second.text, "16");
    EXPECT_EQ(s.properties[3].value.entries[1].second.text, "1h");
    EXPECT_EQ(s.properties[4].value.text, "ordered");
    EXPECT_FALSE(s.properties[4].identifier);
}

TEST(ParserDdl, CreateTableInlinePrimaryKeyAndSimpleClause) {
    auto a = parse_as<CreateTableStatement>("CREATE TABLE t (id int PRIMARY KEY, v text)");
    EXPECT_EQ(a.partition_key, (std::vector<std::string>{"id"}));
    EXPECT_TRUE(a.clustering_key.empty());
    EXPECT_TRUE(a.columns[0].primary_key);
    auto b = parse_as<CreateTableStatement>(
        "CREATE TABLE t (a int, b int, c int, PRIMARY KEY (a, b, c)) WITH COMPACT STORAGE AND "
        "distribution = ordered");
    EXPECT_EQ(b.partition_key, (std::vector<std::string>{"a"}));
    EXPECT_EQ(b.clustering_key, (std::vector<std::string>{"b", "c"}));
    EXPECT_TRUE(b.compact_storage);
    ASSERT_EQ(b.properties.size(), 1u);
    EXPECT_TRUE(b.properties[0].identifier);
    EXPECT_EQ(b.properties[0].value.text, "ordered");
}

TEST(ParserDdl, UnreservedKeywordsAreColumnNames) {
    auto s = parse_as<CreateTableStatement>(
        "CREATE TABLE t (key int, value text, type text, ttl int, writetime int, count int, json "
        "text, date date, time time, timestamp timestamp, text text, list list<int>, map "
        "map<text, int>, filtering int, keys int, PRIMARY KEY (key))");
    ASSERT_EQ(s.columns.size(), 15u);
    EXPECT_EQ(s.columns[0].name, "key");
    EXPECT_EQ(s.columns[11].name, "list");
    EXPECT_EQ(s.columns[12].type.params[1].name, "int");
}

TEST(ParserDdl, Types) {
    auto s = parse_as<CreateTableStatement>(
        "CREATE TABLE t (k int PRIMARY KEY, a frozen<map<int, frozen<list<text>>>>, "
        "b tuple<int, text, uuid>, c ks.address, d frozen<address>, e 'org.example.MyType', "
        "f map<text, frozen<tuple<int,int>>>)");
    ASSERT_EQ(s.columns.size(), 7u);
    EXPECT_EQ(to_string(s.columns[1].type), "frozen<map<int, frozen<list<text>>>>");
    EXPECT_TRUE(s.columns[1].type.frozen);
    EXPECT_EQ(to_string(s.columns[2].type), "tuple<int, text, uuid>");
    EXPECT_EQ(s.columns[3].type.keyspace, "ks");
    EXPECT_EQ(s.columns[3].type.name, "address");
    EXPECT_TRUE(s.columns[4].type.frozen);
    EXPECT_EQ(s.columns[4].type.name, "address");
    EXPECT_TRUE(s.columns[5].type.custom);
    EXPECT_EQ(s.columns[5].type.name, "org.example.MyType");
    EXPECT_EQ(to_string(s.columns[6].type), "map<text, frozen<tuple<int, int>>>");
}

TEST(ParserDdl, CreateTablePrimaryKeyRules) {
    auto none = parse_statement("CREATE TABLE t (a int, b int)");
    ASSERT_FALSE(none.is_ok());
    EXPECT_EQ(none.status().code(), ErrorCode::kInvalid);
    EXPECT_NE(none.status().message().find("No PRIMARY KEY"), std::string::npos);
    auto two = parse_statement("CREATE TABLE t (a int PRIMARY KEY, b int, PRIMARY KEY (b))");
    ASSERT_FALSE(two.is_ok());
    EXPECT_EQ(two.status().message(), "Multiple PRIMARY KEYs specified (exactly one required)");
    EXPECT_NE(
        syntax_error("CREATE TABLE t (a list<int, int> PRIMARY KEY)").find("takes 1 parameter"),
        std::string::npos);
}

TEST(ParserDdl, AlterTable) {
    using K = AlterTableStatement::Kind;
    auto add = parse_as<AlterTableStatement>("ALTER TABLE ks.t ADD c text STATIC");
    EXPECT_EQ(add.kind, K::kAdd);
    EXPECT_EQ(add.table.keyspace, "ks");
    ASSERT_EQ(add.added.size(), 1u);
    EXPECT_TRUE(add.added[0].is_static);
    auto add2 = parse_as<AlterTableStatement>("ALTER TABLE t ADD (c1 int, c2 set<text>)");
    ASSERT_EQ(add2.added.size(), 2u);
    EXPECT_EQ(add2.added[1].type.name, "set");
    auto drop = parse_as<AlterTableStatement>("ALTER TABLE t DROP c");
    EXPECT_EQ(drop.kind, K::kDrop);
    EXPECT_EQ(drop.dropped, (std::vector<std::string>{"c"}));
    auto drop2 = parse_as<AlterTableStatement>("ALTER TABLE t DROP (c1, c2)");
    EXPECT_EQ(drop2.dropped, (std::vector<std::string>{"c1", "c2"}));
    auto ren = parse_as<AlterTableStatement>("ALTER TABLE t RENAME a TO b AND c TO d");
    EXPECT_EQ(ren.kind, K::kRename);
    ASSERT_EQ(ren.renames.size(), 2u);
    EXPECT_EQ(ren.renames[1].first, "c");
    EXPECT_EQ(ren.renames[1].second, "d");
    auto alt = parse_as<AlterTableStatement>("ALTER TABLE t ALTER c TYPE blob");
    EXPECT_EQ(alt.kind, K::kAlterType);
    EXPECT_EQ(alt.column, "c");
    EXPECT_EQ(alt.new_type.name, "blob");
    auto with =
        parse_as<AlterTableStatement>("ALTER TABLE t WITH comment = 'x' AND gc_grace_seconds = 10");
    EXPECT_EQ(with.kind, K::kWith);
    EXPECT_EQ(with.properties.size(), 2u);
}

TEST(ParserDdl, AlterTableAddTakesNoPrimaryKey) {
    EXPECT_EQ(syntax_error("ALTER TABLE t ADD d int PRIMARY KEY"),
              "line 1:24 mismatched input 'PRIMARY' expecting <EOF> (ALTER TABLE t ADD d int "
              "[PRIMARY] KEY)");
}

TEST(ParserDdl, DropAndTruncateTable) {
    auto d = parse_as<DropTableStatement>("DROP TABLE IF EXISTS ks.t");
    EXPECT_TRUE(d.if_exists);
    EXPECT_EQ(d.table.keyspace, "ks");
    EXPECT_EQ(parse_as<TruncateStatement>("TRUNCATE t").table.name, "t");
    EXPECT_EQ(parse_as<TruncateStatement>("TRUNCATE TABLE ks.t").table.keyspace, "ks");
}

TEST(ParserDdl, UserTypes) {
    auto c = parse_as<CreateTypeStatement>(
        "CREATE TYPE IF NOT EXISTS ks.address (street text, zip int, phones list<text>)");
    EXPECT_TRUE(c.if_not_exists);
    EXPECT_EQ(c.type.keyspace, "ks");
    ASSERT_EQ(c.fields.size(), 3u);
    EXPECT_EQ(c.fields[2].type.name, "list");
    auto add = parse_as<AlterTypeStatement>("ALTER TYPE address ADD country text");
    EXPECT_EQ(add.kind, AlterTypeStatement::Kind::kAdd);
    EXPECT_EQ(add.added.name, "country");
    auto ren = parse_as<AlterTypeStatement>("ALTER TYPE address RENAME zip TO postcode");
    EXPECT_EQ(ren.kind, AlterTypeStatement::Kind::kRename);
    EXPECT_EQ(ren.renames[0].second, "postcode");
    auto d = parse_as<DropTypeStatement>("DROP TYPE IF EXISTS address");
    EXPECT_TRUE(d.if_exists);
    EXPECT_EQ(d.type.name, "address");
}

TEST(ParserDdl, Describe) {
    using K = DescribeStatement::Kind;
    EXPECT_EQ(parse_as<DescribeStatement>("DESCRIBE KEYSPACES").kind, K::kKeyspaces);
    auto ks = parse_as<DescribeStatement>("DESC KEYSPACE shop");
    EXPECT_EQ(ks.kind, K::kKeyspace);
    EXPECT_EQ(ks.name.name, "shop");
    EXPECT_EQ(parse_as<DescribeStatement>("DESC TABLES").kind, K::kTables);
    auto t = parse_as<DescribeStatement>("describe table shop.events");
    EXPECT_EQ(t.kind, K::kTable);
    EXPECT_EQ(t.name.keyspace, "shop");
    EXPECT_EQ(parse_as<DescribeStatement>("DESC TYPE address").kind, K::kType);
    EXPECT_EQ(parse_as<DescribeStatement>("DESC SCHEMA").kind, K::kSchema);
}

TEST(ParserDdl, RoleStatementsParseAndUnsupportedResourcesAreRejectedClearly) {
    for (const char* text : {"LIST ROLES", "CREATE ROLE admin", "GRANT SELECT ON ks.t TO bob"}) {
        auto st = parse_statement(text);
        ASSERT_TRUE(st.is_ok()) << text;
        EXPECT_TRUE(st->is<AuthStatement>()) << text;
    }
    EXPECT_NE(syntax_error("GRANT EXECUTE ON ALL FUNCTIONS TO bob").find("does not support"),
              std::string::npos);
    EXPECT_NE(syntax_error("GRANT SELECT ON ALL FUNCTIONS TO bob").find("not supported"),
              std::string::npos);
}

}  // namespace
}  // namespace tessel::cql
