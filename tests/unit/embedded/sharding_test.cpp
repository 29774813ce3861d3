// Write sharding end to end through the embedded API: the merged read of a
// logical partition, LIMIT / PER PARTITION LIMIT / aggregates / DISTINCT on
// the merged stream, paging across shards (resumed on a new session), deletes
// across shards, and raising the shard count.
#include <set>

#include "test_db.h"

namespace tessel::testing {
namespace {

class ShardingTest : public ::testing::Test {
  protected:
    void SetUp() override {
        t.create_keyspace("ks");
        t.ok("USE ks");
        t.ok(
            "CREATE TABLE ev (day text, seq int, v int, PRIMARY KEY (day, seq)) "
            "WITH write_sharding = {'shards': 8, 'suffix': 'random'}");
        t.ok(
            "CREATE TABLE evd (day text, seq int, v int, PRIMARY KEY (day, seq)) "
            "WITH CLUSTERING ORDER BY (seq DESC) AND write_sharding = {'shards': 4}");
        t.ok(
            "CREATE TABLE calc (day text, seq int, dev text, v int, PRIMARY KEY (day, seq)) "
            "WITH write_sharding = {'shards': 4, 'suffix': 'calculated', 'columns': 'dev'}");
        for (int i = 0; i < 60; ++i) {
            for (const char* tbl : {"ev", "evd"}) {
                t.ok(std::string("INSERT INTO ") + tbl + " (day, seq, v) VALUES ('d1', " +
                     std::to_string(i) + ", " + std::to_string(i * 10) + ")");
            }
            if (i < 5) {
                t.ok("INSERT INTO ev (day, seq, v) VALUES ('d2', " + std::to_string(i) + ", 0)");
            }
        }
    }

    std::vector<std::string> seqs(int from, int to, int step = 1) {
        std::vector<std::string> out;
        for (int i = from; step > 0 ? i < to : i > to; i += step)
            out.push_back(std::to_string(i));
        return out;
    }

    std::vector<std::string> read_pages(const std::string& cql, int page_size, bool new_session) {
        std::vector<std::string> out;
        QueryOptions o;
        o.page_size = page_size;
        auto session = t.db().new_session();
        (void)session->execute("USE ks", {});
        while (true) {
            Session& s = new_session ? *session : t.session();
            auto r = s.execute(cql, o);
            EXPECT_TRUE(r.is_ok()) << r.status().to_string();
            if (!r.is_ok()) break;
            EXPECT_LE(static_cast<int>(r->rows.size()), page_size);
            for (auto& row : TestDb::format(*r))
                out.push_back(row);
            if (r->paging_state.empty()) break;
            o.paging_state = r->paging_state;
            if (new_session) {
                session = t.db().new_session();
                (void)session->execute("USE ks", {});
            }
        }
        return out;
    }

    TestDb t;
};

TEST_F(ShardingTest, MergedReadIsInClusteringOrder) {
    EXPECT_EQ(t.rows("SELECT seq FROM ev WHERE day = 'd1'"), seqs(0, 60));
    EXPECT_EQ(t.rows("SELECT seq FROM ev WHERE day = 'd1' ORDER BY seq DESC"), seqs(59, -1, -1));
    EXPECT_EQ(t.rows("SELECT seq FROM evd WHERE day = 'd1'"), seqs(59, -1, -1));
    EXPECT_EQ(t.rows("SELECT seq FROM evd WHERE day = 'd1' ORDER BY seq ASC"), seqs(0, 60));
    EXPECT_EQ(t.rows("SELECT seq FROM ev WHERE day = 'd1' AND seq >= 10 AND seq < 15"),
              seqs(10, 15));
    EXPECT_EQ(t.rows("SELECT v FROM ev WHERE day = 'd1' AND seq = 42"),
              std::vector<std::string>{"420"});
}

TEST_F(ShardingTest, LimitsAndAggregatesApplyToTheMergedStream) {
    EXPECT_EQ(t.rows("SELECT seq FROM ev WHERE day = 'd1' LIMIT 3"), seqs(0, 3));
    EXPECT_EQ(t.rows("SELECT seq FROM ev WHERE day = 'd1' ORDER BY seq DESC LIMIT 3"),
              seqs(59, 56, -1));
    EXPECT_EQ(t.rows("SELECT seq FROM ev WHERE day IN ('d1', 'd2') PER PARTITION LIMIT 2"),
              (std::vector<std::string>{"0", "1", "0", "1"}));
    EXPECT_EQ(t.rows("SELECT COUNT(*) FROM ev WHERE day = 'd1'"), std::vector<std::string>{"60"});
    EXPECT_EQ(t.rows("SELECT MAX(v) FROM ev WHERE day = 'd1'"), std::vector<std::string>{"590"});
    EXPECT_EQ(t.rows("SELECT DISTINCT day FROM ev WHERE day = 'd1'"),
              std::vector<std::string>{"d1"});
}

TEST_F(ShardingTest, FullScanShowsEachLogicalPartitionOnce) {
    auto days = t.rows("SELECT DISTINCT day FROM ev");
    std::sort(days.begin(), days.end());
    EXPECT_EQ(days, (std::vector<std::string>{"d1", "d2"}));
    EXPECT_EQ(t.rows("SELECT COUNT(*) FROM ev"), std::vector<std::string>{"65"});
}

TEST_F(ShardingTest, TokenRangesFollowTheLogicalToken) {
    for (int d = 3; d < 23; ++d) {
        t.ok("INSERT INTO ev (day, seq, v) VALUES ('d" + std::to_string(d) + "', 1, 1)");
    }
    // Splitting the ring at 0 gives each logical partition exactly once.
    auto low = t.rows("SELECT DISTINCT day, token(day) FROM ev WHERE token(day) <= 0");
    auto high = t.rows("SELECT DISTINCT day, token(day) FROM ev WHERE token(day) > 0");
    EXPECT_EQ(low.size() + high.size(), 22u);
    std::set<std::string> days;
    for (const auto* part : {&low, &high}) {
        for (const auto& row : *part) {
            days.insert(row.substr(0, row.find('|')));
            const int64_t token = std::stoll(row.substr(row.find('|') + 1));
            EXPECT_EQ(token > 0, part == &high) << row;
        }
    }
    EXPECT_EQ(days.size(), 22u);
}

TEST_F(ShardingTest, PagingResumesMidMergeOnNewSessions) {
    const std::string q = "SELECT seq FROM ev WHERE day = 'd1'";
    EXPECT_EQ(read_pages(q, 7, true), seqs(0, 60));
    EXPECT_EQ(read_pages(q + " ORDER BY seq DESC", 9, true), seqs(59, -1, -1));
    EXPECT_EQ(read_pages(q + " LIMIT 25", 10, false), seqs(0, 25));
    auto scan = read_pages("SELECT day, seq FROM ev", 4, true);
    EXPECT_EQ(scan.size(), 65u);
}

TEST_F(ShardingTest, OverwritesAndDeletesReachEveryShard) {
    // A later write of the same row (likely another shard) wins.
    t.ok("UPDATE ev SET v = -1 WHERE day = 'd1' AND seq = 3");
    EXPECT_EQ(t.rows("SELECT v FROM ev WHERE day = 'd1' AND seq = 3"),
              std::vector<std::string>{"-1"});
    t.ok("UPDATE ev SET v = null WHERE day = 'd1' AND seq = 3");
    EXPECT_EQ(t.rows("SELECT v FROM ev WHERE day = 'd1' AND seq = 3"),
              std::vector<std::string>{"null"});
    t.ok("DELETE FROM ev WHERE day = 'd1' AND seq = 4");
    t.ok("DELETE FROM ev WHERE day = 'd1' AND seq >= 10 AND seq < 50");
    EXPECT_EQ(t.rows("SELECT COUNT(*) FROM ev WHERE day = 'd1'"), std::vector<std::string>{"19"});
    t.ok("DELETE FROM ev WHERE day = 'd1'");
    EXPECT_TRUE(t.rows("SELECT seq FROM ev WHERE day = 'd1'").empty());
    EXPECT_EQ(t.rows("SELECT COUNT(*) FROM ev WHERE day = 'd2'"), std::vector<std::string>{"5"});
}

TEST_F(ShardingTest, CalculatedSuffixRequiresItsColumnsAndReadsBack) {
    for (int i = 0; i < 20; ++i) {
        t.ok("INSERT INTO calc (day, seq, dev, v) VALUES ('d', " + std::to_string(i) + ", 'dev" +
             std::to_string(i % 5) + "', " + std::to_string(i) + ")");
    }
    EXPECT_EQ(t.rows("SELECT seq FROM calc WHERE day = 'd'"), seqs(0, 20));
    auto st = t.err("UPDATE calc SET v = 1 WHERE day = 'd' AND seq = 1");
    EXPECT_NE(st.message().find("computes its write shard from columns dev"), std::string::npos);
    t.ok("UPDATE calc SET v = 1, dev = 'dev1' WHERE day = 'd' AND seq = 1");
    t.ok("DELETE FROM calc WHERE day = 'd' AND seq = 2");
    EXPECT_EQ(t.rows("SELECT COUNT(*) FROM calc WHERE day = 'd'"), std::vector<std::string>{"19"});
}

TEST_F(ShardingTest, ShardCountCanBeRaisedNeverLowered) {
    t.ok("ALTER TABLE ev WITH write_sharding = {'shards': 16}");
    for (int i = 60; i < 100; ++i) {
        t.ok("INSERT INTO ev (day, seq, v) VALUES ('d1', " + std::to_string(i) + ", 0)");
    }
    EXPECT_EQ(t.rows("SELECT seq FROM ev WHERE day = 'd1'"), seqs(0, 100));
    auto low = t.err("ALTER TABLE ev WITH write_sharding = {'shards': 8}");
    EXPECT_EQ(low.message(),
              "write_sharding shards cannot be lowered (from 16 to 8): existing rows live in "
              "shards 8..15");
    auto kind = t.err(
        "ALTER TABLE ev WITH write_sharding = {'shards': 32, 'suffix': 'calculated', 'columns': "
        "'v'}");
    EXPECT_NE(kind.message().find("Cannot change the write_sharding suffix"), std::string::npos);
    t.reopen();
    t.ok("USE ks");
    EXPECT_EQ(t.rows("SELECT COUNT(*) FROM ev WHERE day = 'd1'"), std::vector<std::string>{"100"});
}

TEST_F(ShardingTest, ConditionalUpdatesAreRefused) {
    auto st = t.err("INSERT INTO ev (day, seq, v) VALUES ('d9', 1, 1) IF NOT EXISTS");
    EXPECT_NE(st.message().find("Conditional updates are not supported"), std::string::npos);
}

TEST_F(ShardingTest, StaticColumnsCountersAndListsMergeAcrossShards) {
    t.ok(
        "CREATE TABLE st (k int, c int, s text static, l list<int>, PRIMARY KEY (k, c)) WITH "
        "write_sharding = {'shards': 8}");
    t.ok("INSERT INTO st (k, s) VALUES (1, 'first')");
    for (int i = 0; i < 10; ++i)
        t.ok("INSERT INTO st (k, c, l) VALUES (1, " + std::to_string(i) + ", [1, 2, 3])");
    t.ok("UPDATE st SET s = 'second' WHERE k = 1");
    EXPECT_EQ(t.rows("SELECT DISTINCT k, s FROM st WHERE k = 1"),
              std::vector<std::string>{"1|second"});
    EXPECT_EQ(t.rows("SELECT COUNT(*) FROM st WHERE k = 1"), std::vector<std::string>{"10"});
    // Setting a list element by index reads the merged row first.
    t.ok("UPDATE st SET l[1] = 20 WHERE k = 1 AND c = 4");
    EXPECT_EQ(t.rows("SELECT l FROM st WHERE k = 1 AND c = 4"),
              std::vector<std::string>{"[1, 20, 3]"});

    t.ok(
        "CREATE TABLE cnt (k int, c int, n counter, PRIMARY KEY (k, c)) WITH write_sharding = "
        "{'shards': 8}");
    for (int i = 0; i < 40; ++i)
        t.ok("UPDATE cnt SET n = n + 1 WHERE k = 1 AND c = 1");
    EXPECT_EQ(t.rows("SELECT n FROM cnt WHERE k = 1 AND c = 1"), std::vector<std::string>{"40"});
}

TEST_F(ShardingTest, PreparedStatementsWithBindMarkers) {
    auto ins = t.session().prepare("INSERT INTO ev (day, seq, v) VALUES (?, ?, ?)");
    ASSERT_TRUE(ins.is_ok());
    for (int i = 0; i < 30; ++i) {
        ASSERT_TRUE(t.session()
                        .execute_prepared(ins->id, values({BoundValue::value("d3"),
                                                           BoundValue::value(int_bytes(i)),
                                                           BoundValue::value(int_bytes(i))}))
                        .is_ok());
    }
    auto sel = t.session().prepare("SELECT seq FROM ev WHERE day = ? AND seq >= ? LIMIT ?");
    ASSERT_TRUE(sel.is_ok());
    auto r = t.session().execute_prepared(
        sel->id, values({BoundValue::value("d3"), BoundValue::value(int_bytes(25)),
                         BoundValue::value(int_bytes(3))}));
    ASSERT_TRUE(r.is_ok());
    EXPECT_EQ(TestDb::format(*r), seqs(25, 28));
    // token() is the logical partition key's token, as drivers compute it.
    t.ok("CREATE TABLE plain (day text PRIMARY KEY, v int)");
    t.ok("INSERT INTO plain (day, v) VALUES ('d3', 1)");
    auto sharded_token = t.rows("SELECT token(day) FROM ev WHERE day = 'd3' LIMIT 1");
    ASSERT_EQ(sharded_token.size(), 1u);
    EXPECT_EQ(sharded_token, t.rows("SELECT token(day) FROM plain WHERE day = 'd3'"));
}

}  // namespace
}  // namespace tessel::testing
