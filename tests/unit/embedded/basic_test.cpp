#include "test_db.h"

namespace tessel::testing {
namespace {

TEST(EmbeddedBasic, CreateInsertSelect) {
    TestDb t;
    auto rs = t.ok(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': "
        "1}");
    EXPECT_EQ(rs.kind, ResultSet::Kind::kSchemaChange);
    EXPECT_EQ(rs.schema_change.change_type, "CREATED");
    EXPECT_EQ(rs.schema_change.target, "KEYSPACE");
    rs = t.ok("USE ks");
    EXPECT_EQ(rs.kind, ResultSet::Kind::kSetKeyspace);
    EXPECT_EQ(t.session().keyspace(), "ks");
    rs = t.ok("CREATE TABLE t (k int, c int, v text, PRIMARY KEY (k, c))");
    EXPECT_EQ(rs.schema_change.target, "TABLE");
    EXPECT_EQ(rs.schema_change.name, "t");
    t.ok("INSERT INTO t (k, c, v) VALUES (1, 1, 'a')");
    t.ok("INSERT INTO t (k, c, v) VALUES (1, 2, 'b')");
    t.ok("INSERT INTO t (k, c, v) VALUES (2, 1, 'c')");
    EXPECT_EQ(t.rows("SELECT * FROM t WHERE k = 1"), (std::vector<std::string>{"1|1|a", "1|2|b"}));
    EXPECT_EQ(t.rows("SELECT v FROM t WHERE k = 1 AND c = 2"), (std::vector<std::string>{"b"}));
    EXPECT_EQ(t.rows("SELECT count(*) FROM t"), (std::vector<std::string>{"3"}));
}

}  // namespace
}  // namespace tessel::testing
