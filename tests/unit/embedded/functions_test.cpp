// Functions, aggregates, GROUP BY, JSON, token(), CAST, ordered tables and
// restart durability.
#include <algorithm>

#include "partition/murmur3.h"
#include "test_db.h"

namespace tessel::testing {
namespace {

using Rows = std::vector<std::string>;

class FunctionsTest : public ::testing::Test {
  protected:
    void SetUp() override {
        t.create_keyspace("ks");
        t.ok("USE ks");
    }
    TestDb t;
};

TEST_F(FunctionsTest, AggregatesAndGroupBy) {
    t.ok("CREATE TABLE m (host text, ts int, val int, d double, PRIMARY KEY (host, ts))");
    for (int i = 1; i <= 6; ++i) {
        const std::string host = i <= 3 ? "'a'" : "'b'";
        t.ok("INSERT INTO m (host, ts, val, d) VALUES (" + host + ", " + std::to_string(i) + ", " +
             std::to_string(i * 10) + ", " + std::to_string(i) + ".5)");
    }
    EXPECT_EQ(t.rows("SELECT count(*), min(val), max(val), sum(val), avg(val) FROM m"),
              (Rows{"6|10|60|210|35"}));
    EXPECT_EQ(t.rows("SELECT host, count(*), sum(val) FROM m GROUP BY host"),
              (Rows{"a|3|60", "b|3|150"}));
    EXPECT_EQ(t.rows("SELECT sum(d) FROM m WHERE host = 'a'"), (Rows{"7.5"}));
    EXPECT_EQ(t.rows("SELECT count(*) FROM m WHERE host = 'zzz'"), (Rows{"0"}));
    auto rs = t.ok("SELECT count(*) AS n FROM m");
    EXPECT_EQ(rs.columns[0].name, "n");
    Status s = t.err("SELECT count(*) FROM m GROUP BY ts");
    EXPECT_EQ(s.message(),
              "Group by currently only support groups of columns following their declared order in "
              "the PRIMARY KEY");
}

TEST_F(FunctionsTest, TimeAndBlobFunctions) {
    t.ok("CREATE TABLE e (k int, id timeuuid, at timestamp, b blob, PRIMARY KEY (k, id))");
    t.ok("INSERT INTO e (k, id, at, b) VALUES (1, now(), toTimestamp(now()), textAsBlob('hi'))");
    t.ok(
        "INSERT INTO e (k, id, at, b) VALUES (1, now(), '2024-01-02 03:04:05+0000', intAsBlob(7))");
    auto r = t.rows("SELECT blobAsText(b) FROM e WHERE k = 1 LIMIT 1");
    EXPECT_EQ(r, (Rows{"hi"}));
    r = t.rows(
        "SELECT toUnixTimestamp(at), toDate(at) FROM e WHERE k = 1 AND id > "
        "maxTimeuuid('2020-01-01') AND at = '2024-01-02 03:04:05+0000' ALLOW FILTERING");
    EXPECT_EQ(r, (Rows{"1704164645000|2024-01-02"}));
    EXPECT_EQ(t.rows("SELECT k FROM e WHERE k = 1 AND id < minTimeuuid('2020-01-01')").size(), 0u);
    auto ts = t.ok("SELECT toTimestamp(id), dateOf(id) FROM e WHERE k = 1");
    EXPECT_EQ(ts.columns[0].name, "system.totimestamp(id)");
    EXPECT_EQ(ts.rows.size(), 2u);
    Status s = t.err("SELECT blobAsInt(b) FROM e WHERE k = 1");
    EXPECT_EQ(s.code(), ErrorCode::kInvalid);
}

TEST_F(FunctionsTest, TokenCastWritetimeJson) {
    t.ok("CREATE TABLE t (k int PRIMARY KEY, v int, s text)");
    t.ok("INSERT INTO t (k, v, s) VALUES (1, 42, 'x') USING TIMESTAMP 12345");
    auto rs = t.ok(
        "SELECT token(k), CAST(v AS text), CAST(v AS bigint), writetime(s) FROM t WHERE k = 1");
    ASSERT_EQ(rs.rows.size(), 1u);
    const std::string one = int_bytes(1);
    EXPECT_EQ(TestDb::format(rs)[0], std::to_string(murmur3_token(one)) + "|42|42|12345");
    EXPECT_EQ(rs.columns[0].name, "system.token(k)");
    EXPECT_EQ(t.rows("SELECT JSON k, s FROM t WHERE k = 1"), (Rows{"{\"k\": 1, \"s\": \"x\"}"}));
    t.ok("INSERT INTO t JSON '{\"k\": 2, \"v\": 7}'");
    EXPECT_EQ(t.rows("SELECT k, v, s FROM t WHERE k = 2"), (Rows{"2|7|null"}));
    t.ok("INSERT INTO t JSON '{\"k\": 2, \"s\": \"y\"}' DEFAULT UNSET");
    EXPECT_EQ(t.rows("SELECT k, v, s FROM t WHERE k = 2"), (Rows{"2|7|y"}));
    // token() ranges cover the ring in token order.
    for (int k = 3; k < 40; ++k)
        t.ok("INSERT INTO t (k, v) VALUES (" + std::to_string(k) + ", 0)");
    auto lo = t.rows("SELECT k FROM t WHERE token(k) <= 0");
    auto hi = t.rows("SELECT k FROM t WHERE token(k) > 0");
    EXPECT_EQ(lo.size() + hi.size(), 39u);
    EXPECT_FALSE(lo.empty());
    EXPECT_FALSE(hi.empty());
    // token() of values on the right-hand side.
    auto after5 = t.rows("SELECT k FROM t WHERE token(k) > token(5)");
    auto all = t.rows("SELECT k FROM t");
    auto pos = std::find(all.begin(), all.end(), "5");
    ASSERT_NE(pos, all.end());
    EXPECT_EQ(after5, Rows(pos + 1, all.end()));
    // INSERT JSON as a lightweight transaction.
    auto rs2 = t.ok("INSERT INTO t JSON '{\"k\": 100, \"v\": 1}' IF NOT EXISTS");
    EXPECT_EQ(TestDb::format(rs2), (Rows{"True"}));
    rs2 = t.ok("INSERT INTO t JSON '{\"k\": 100, \"v\": 2}' IF NOT EXISTS");
    EXPECT_EQ(TestDb::format(rs2)[0].substr(0, 5), "False");
}

TEST_F(FunctionsTest, OrderByAcrossInPartitions) {
    t.ok("CREATE TABLE e (k int, c int, PRIMARY KEY (k, c))");
    for (int k = 0; k < 3; ++k) {
        for (int c = 0; c < 3; ++c) {
            t.ok("INSERT INTO e (k, c) VALUES (" + std::to_string(k) + ", " +
                 std::to_string(k + c * 3) + ")");
        }
    }
    EXPECT_EQ(t.rows("SELECT c FROM e WHERE k IN (0, 1, 2) ORDER BY c DESC LIMIT 4"),
              (Rows{"8", "7", "6", "5"}));
    QueryOptions o;
    o.page_size = 2;
    Status s = t.err("SELECT c FROM e WHERE k IN (0, 1) ORDER BY c DESC", o);
    EXPECT_NE(s.message().find("Cannot page queries with both ORDER BY and a IN restriction"),
              std::string::npos);
}

TEST_F(FunctionsTest, OrderedTablesScanInKeyOrder) {
    t.ok("CREATE TABLE o (uid int PRIMARY KEY, v int) WITH distribution = 'ordered'");
    for (int k = 30; k >= 0; --k)
        t.ok("INSERT INTO o (uid, v) VALUES (" + std::to_string(k) + ", 1)");
    EXPECT_EQ(t.rows("SELECT uid FROM o WHERE uid >= 10 AND uid < 14"),
              (Rows{"10", "11", "12", "13"}));
    auto all = t.rows("SELECT uid FROM o LIMIT 3");
    EXPECT_EQ(all, (Rows{"0", "1", "2"}));
    // token() restrictions still select by token on ordered tables.
    auto lo = t.rows("SELECT uid FROM o WHERE token(uid) <= 0");
    auto hi = t.rows("SELECT uid FROM o WHERE token(uid) > 0");
    EXPECT_EQ(lo.size() + hi.size(), 31u);
    EXPECT_FALSE(lo.empty());
    EXPECT_FALSE(hi.empty());
}

TEST_F(FunctionsTest, RestartDurability) {
    t.ok("CREATE TABLE d (k int, c int, v text, l list<int>, PRIMARY KEY (k, c))");
    t.ok("CREATE TABLE cnt (k int PRIMARY KEY, n counter)");
    for (int i = 0; i < 50; ++i) {
        t.ok("INSERT INTO d (k, c, v, l) VALUES (" + std::to_string(i % 5) + ", " +
             std::to_string(i) + ", 'v" + std::to_string(i) + "', [" + std::to_string(i) + "])");
    }
    t.ok("DELETE FROM d WHERE k = 0");
    t.ok("UPDATE cnt SET n = n + 3 WHERE k = 1");
    const std::string version = t.db().schema_version();
    const std::string host = t.db().host_id();
    t.reopen();
    EXPECT_EQ(t.db().schema_version(), version);
    EXPECT_EQ(t.db().host_id(), host);
    EXPECT_EQ(t.rows("SELECT count(*) FROM ks.d"), (Rows{"40"}));
    EXPECT_EQ(t.rows("SELECT v, l FROM ks.d WHERE k = 1 AND c = 6"), (Rows{"v6|[6]"}));
    EXPECT_EQ(t.rows("SELECT n FROM ks.cnt WHERE k = 1"), (Rows{"3"}));
}

}  // namespace
}  // namespace tessel::testing
