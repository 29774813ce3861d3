#include "test_db.h"

namespace tessel::testing {
namespace {

class DdlTest : public ::testing::Test {
  protected:
    TestDb t;
};

TEST_F(DdlTest, KeyspaceLifecycleAndSchemaEvents) {
    std::vector<SchemaChange> events;
    const int sub =
        t.db().subscribe_schema_changes([&](const SchemaChange& c) { events.push_back(c); });
    const std::string v0 = t.db().schema_version();
    EXPECT_EQ(v0.size(), 16u);
    t.ok(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': "
        "1}");
    EXPECT_NE(t.db().schema_version(), v0);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].change_type, "CREATED");
    EXPECT_EQ(events[0].keyspace, "ks");
    // IF NOT EXISTS on an existing keyspace changes nothing: Void, no event.
    auto rs = t.ok(
        "CREATE KEYSPACE IF NOT EXISTS ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}");
    EXPECT_EQ(rs.kind, ResultSet::Kind::kVoid);
    EXPECT_EQ(events.size(), 1u);
    Status s = t.err(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': "
        "1}");
    EXPECT_EQ(s.code(), ErrorCode::kAlreadyExists);
    t.db().unsubscribe_schema_changes(sub);
    rs = t.ok("DROP KEYSPACE ks");
    EXPECT_EQ(rs.schema_change.change_type, "DROPPED");
    EXPECT_EQ(events.size(), 1u);
    s = t.err("USE ks");
    EXPECT_EQ(s.code(), ErrorCode::kInvalid);
    EXPECT_EQ(s.message(), "Keyspace 'ks' does not exist");
}

TEST_F(DdlTest, TableLifecycleTruncateAndAlter) {
    t.ok(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': "
        "1}");
    Status s = t.err("CREATE TABLE t (k int PRIMARY KEY)");
    EXPECT_EQ(
        s.message(),
        "No keyspace has been specified. USE a keyspace, or explicitly specify keyspace.tablename");
    t.ok("CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
    t.ok("INSERT INTO ks.t (k, v) VALUES (1, 1)");
    auto rs = t.ok("ALTER TABLE ks.t ADD w text");
    EXPECT_EQ(rs.schema_change.change_type, "UPDATED");
    t.ok("INSERT INTO ks.t (k, v, w) VALUES (2, 2, 'x')");
    EXPECT_EQ(t.rows("SELECT k, v, w FROM ks.t WHERE k = 2"), (std::vector<std::string>{"2|2|x"}));
    s = t.err("ALTER TABLE ks.t DROP k");
    EXPECT_NE(s.message().find("primary keys are immutable"), std::string::npos) << s.message();
    rs = t.ok("TRUNCATE ks.t");
    EXPECT_EQ(rs.kind, ResultSet::Kind::kVoid);
    EXPECT_TRUE(t.rows("SELECT * FROM ks.t").empty());
    t.ok("DROP TABLE ks.t");
    s = t.err("SELECT * FROM ks.t");
    EXPECT_EQ(s.message(), "unconfigured table t");
    s = t.err("SELECT * FROM nope.t");
    EXPECT_EQ(s.message(), "Keyspace nope does not exist");
    // A dropped and recreated table starts empty.
    t.ok("CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
    EXPECT_TRUE(t.rows("SELECT * FROM ks.t").empty());
}

TEST_F(DdlTest, PreparedStatementFollowsSchemaChanges) {
    t.ok(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': "
        "1}");
    t.ok("USE ks");
    t.ok("CREATE TABLE t (k int PRIMARY KEY, v int)");
    auto ps = t.session().prepare("SELECT * FROM t WHERE k = ?");
    ASSERT_TRUE(ps.is_ok());
    t.ok("INSERT INTO t (k, v) VALUES (1, 10)");
    t.ok("ALTER TABLE t ADD w int");
    auto rs = t.session().execute_prepared(ps->id, values({BoundValue::value(int_bytes(1))}));
    ASSERT_TRUE(rs.is_ok()) << rs.status().to_string();
    EXPECT_EQ(rs->columns.size(), 3u);
}

TEST_F(DdlTest, DescribeTable) {
    t.ok(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': "
        "1}");
    t.ok(
        "CREATE TABLE ks.t (k int, c int, v text, PRIMARY KEY (k, c)) WITH CLUSTERING ORDER BY (c "
        "DESC)");
    auto rs = t.ok("DESCRIBE TABLE ks.t");
    ASSERT_EQ(rs.rows.size(), 1u);
    ASSERT_TRUE(rs.rows[0][3]);
    EXPECT_NE(rs.rows[0][3]->find("CREATE TABLE ks.t"), std::string::npos);
    EXPECT_NE(rs.rows[0][3]->find("CLUSTERING ORDER BY (c DESC)"), std::string::npos);
}

TEST_F(DdlTest, UserTypes) {
    t.ok(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': "
        "1}");
    t.ok("USE ks");
    auto rs = t.ok("CREATE TYPE addr (street text, zip int)");
    EXPECT_EQ(rs.schema_change.target, "TYPE");
    t.ok("CREATE TABLE t (k int PRIMARY KEY, a frozen<addr>)");
    t.ok("INSERT INTO t (k, a) VALUES (1, {street: 'main', zip: 42})");
    EXPECT_EQ(t.rows("SELECT a.zip FROM t WHERE k = 1"), (std::vector<std::string>{"42"}));
}

}  // namespace
}  // namespace tessel::testing
