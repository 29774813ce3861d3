// Prepared statements, bind metadata and system tables.
#include "test_db.h"

namespace tessel::testing {
namespace {

using Rows = std::vector<std::string>;

class PreparedTest : public ::testing::Test {
  protected:
    void SetUp() override {
        t.create_keyspace("ks");
        t.ok("USE ks");
        t.ok("CREATE TABLE t (a int, b text, c int, v list<int>, PRIMARY KEY ((a, b), c))");
    }
    TestDb t;
};

TEST_F(PreparedTest, IdsAreDeterministicAndGlobal) {
    auto p1 = t.session().prepare("SELECT * FROM t WHERE a = ? AND b = ?");
    ASSERT_TRUE(p1.is_ok());
    EXPECT_EQ(p1->id.size(), 16u);
    auto other = t.db().new_session();
    ASSERT_TRUE(other->execute("USE ks", {}).is_ok());
    auto p2 = other->prepare("SELECT * FROM t WHERE a = ? AND b = ?");
    ASSERT_TRUE(p2.is_ok());
    EXPECT_EQ(p1->id, p2->id);
    // Executable from a session that never prepared it.
    auto s3 = t.db().new_session();
    auto r = s3->execute_prepared(
        p1->id, values({BoundValue::value(int_bytes(1)), BoundValue::value("x")}));
    EXPECT_TRUE(r.is_ok()) << r.status().to_string();
    auto unknown = t.session().execute_prepared("0123456789abcdef", {});
    ASSERT_FALSE(unknown.is_ok());
    EXPECT_EQ(unknown.status().code(), ErrorCode::kUnprepared);
    EXPECT_EQ(unknown.status().detail1, "0123456789abcdef");
    // Survives a restart: same id from the same text and keyspace.
    const std::string id = p1->id;
    t.reopen();
    t.ok("USE ks");
    auto p3 = t.session().prepare("SELECT * FROM t WHERE a = ? AND b = ?");
    ASSERT_TRUE(p3.is_ok());
    EXPECT_EQ(p3->id, id);
}

TEST_F(PreparedTest, BindMetadata) {
    auto p = t.session().prepare("SELECT * FROM t WHERE b = :bee AND a = ? AND c IN ? LIMIT ?");
    ASSERT_TRUE(p.is_ok()) << p.status().to_string();
    ASSERT_EQ(p->bind_columns.size(), 4u);
    EXPECT_EQ(p->bind_columns[0].name, "bee");
    EXPECT_EQ(p->bind_columns[1].name, "a");
    EXPECT_EQ(p->bind_columns[2].name, "in(c)");
    EXPECT_EQ(p->bind_columns[2].type->cql_name(), "list<int>");
    EXPECT_EQ(p->bind_columns[3].name, "[limit]");
    EXPECT_EQ(p->bind_columns[0].keyspace, "ks");
    EXPECT_EQ(p->bind_columns[0].table, "t");
    EXPECT_EQ(p->partition_key_indexes, (std::vector<uint16_t>{1, 0}));
    ASSERT_EQ(p->result_columns.size(), 4u);
    EXPECT_EQ(p->result_columns[0].name, "a");
    auto ins = t.session().prepare(
        "INSERT INTO t (a, b, c, v) VALUES (?, 'x', ?, ?) USING TTL ? AND TIMESTAMP ?");
    ASSERT_TRUE(ins.is_ok()) << ins.status().to_string();
    EXPECT_TRUE(ins->partition_key_indexes.empty());
    EXPECT_EQ(ins->bind_columns[3].name, "[ttl]");
    EXPECT_EQ(ins->bind_columns[4].name, "[timestamp]");
    EXPECT_EQ(ins->bind_columns[4].type->cql_name(), "bigint");
    EXPECT_TRUE(ins->result_columns.empty());
}

TEST_F(PreparedTest, NullUnsetAndNamedValues) {
    auto p = t.session().prepare("INSERT INTO t (a, b, c, v) VALUES (?, ?, ?, ?)");
    ASSERT_TRUE(p.is_ok());
    std::string list = int_bytes(1) + int_bytes(4) + int_bytes(7);
    auto r = t.session().execute_prepared(
        p->id, values({BoundValue::value(int_bytes(1)), BoundValue::value("x"),
                       BoundValue::value(int_bytes(1)), BoundValue::value(list)}));
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    EXPECT_EQ(t.rows("SELECT v FROM t WHERE a = 1 AND b = 'x'"), (Rows{"[7]"}));
    // Unset leaves the column alone; null deletes it.
    r = t.session().execute_prepared(
        p->id, values({BoundValue::value(int_bytes(1)), BoundValue::value("x"),
                       BoundValue::value(int_bytes(1)), BoundValue::unset()}));
    ASSERT_TRUE(r.is_ok());
    EXPECT_EQ(t.rows("SELECT v FROM t WHERE a = 1 AND b = 'x'"), (Rows{"[7]"}));
    r = t.session().execute_prepared(
        p->id, values({BoundValue::value(int_bytes(1)), BoundValue::value("x"),
                       BoundValue::value(int_bytes(1)), BoundValue::null()}));
    ASSERT_TRUE(r.is_ok());
    EXPECT_EQ(t.rows("SELECT v FROM t WHERE a = 1 AND b = 'x'"), (Rows{"null"}));
    auto bad = t.session().execute_prepared(p->id, values({BoundValue::value(int_bytes(1))}));
    ASSERT_FALSE(bad.is_ok());
    EXPECT_EQ(bad.status().message(), "There were 4 markers(?) in CQL but 1 bound variables");
    auto wrong = t.session().execute_prepared(
        p->id, values({BoundValue::value("abc"), BoundValue::value("x"),
                       BoundValue::value(int_bytes(1)), BoundValue::null()}));
    ASSERT_FALSE(wrong.is_ok());
    EXPECT_EQ(wrong.status().code(), ErrorCode::kInvalid);
    QueryOptions named;
    named.named_values = true;
    BoundValue va = BoundValue::value(int_bytes(2));
    va.name = "a";
    BoundValue vb = BoundValue::value("y");
    vb.name = "b";
    named.values = {vb, va};
    auto sel = t.session().prepare("SELECT a, b FROM t WHERE a = :a AND b = :b");
    ASSERT_TRUE(sel.is_ok());
    auto nr = t.session().execute_prepared(sel->id, named);
    EXPECT_TRUE(nr.is_ok()) << nr.status().to_string();
}

TEST_F(PreparedTest, SystemTables) {
    auto local = t.ok(
        "SELECT key, cluster_name, host_id, partitioner FROM system.local WHERE key = 'local'");
    ASSERT_EQ(local.rows.size(), 1u);
    ASSERT_TRUE(local.rows[0][2]);
    EXPECT_EQ(*local.rows[0][2], t.db().host_id());
    EXPECT_EQ(TestDb::format(local)[0].substr(0, 20), "local|Tessel Cluster");
    EXPECT_TRUE(t.rows("SELECT * FROM system.peers").empty());
    EXPECT_TRUE(t.rows("SELECT * FROM system.peers_v2").empty());
    EXPECT_EQ(t.rows("SELECT keyspace_name FROM system_virtual_schema.keyspaces"),
              (Rows{"system_virtual_schema"}));
    auto tables = t.rows("SELECT table_name FROM system_schema.tables WHERE keyspace_name = 'ks'");
    EXPECT_EQ(tables, (Rows{"t"}));
    auto cols = t.rows(
        "SELECT column_name, kind FROM system_schema.columns WHERE keyspace_name = 'ks' AND "
        "table_name = 't'");
    EXPECT_EQ(cols.size(), 4u);
    // Paged over a virtual table.
    QueryOptions o;
    o.page_size = 2;
    auto page = t.session().execute(
        "SELECT column_name FROM system_schema.columns WHERE keyspace_name = 'ks'", o);
    ASSERT_TRUE(page.is_ok());
    EXPECT_EQ(page->rows.size(), 2u);
    EXPECT_FALSE(page->paging_state.empty());
    o.paging_state = page->paging_state;
    page = t.session().execute(
        "SELECT column_name FROM system_schema.columns WHERE keyspace_name = 'ks'", o);
    ASSERT_TRUE(page.is_ok()) << page.status().to_string();
    EXPECT_EQ(page->rows.size(), 2u);
    Status s = t.err("INSERT INTO system.peers (peer) VALUES ('127.0.0.2')");
    EXPECT_EQ(s.code(), ErrorCode::kInvalid);
    // The schema tables follow DDL at once.
    t.ok("CREATE TABLE t2 (k int PRIMARY KEY)");
    EXPECT_EQ(t.rows("SELECT table_name FROM system_schema.tables WHERE keyspace_name = 'ks'"),
              (Rows{"t", "t2"}));
}

}  // namespace
}  // namespace tessel::testing
