// Paging: page sizes, resumption on other sessions and after a restart, and
// refusal of forged or foreign paging states.
#include "test_db.h"

namespace tessel::testing {
namespace {

class PagingTest : public ::testing::Test {
  protected:
    void SetUp() override {
        t.create_keyspace("ks");
        t.ok("USE ks");
        t.ok("CREATE TABLE t (k int, c int, v int, PRIMARY KEY (k, c))");
        t.ok("CREATE TABLE other (k int, c int, v int, PRIMARY KEY (k, c))");
        auto ps = t.session().prepare("INSERT INTO t (k, c, v) VALUES (?, ?, ?)");
        ASSERT_TRUE(ps.is_ok());
        for (int k = 0; k < 25; ++k) {
            for (int c = 0; c < 50; ++c) {
                auto r = t.session().execute_prepared(
                    ps->id,
                    values({BoundValue::value(int_bytes(k)), BoundValue::value(int_bytes(c)),
                            BoundValue::value(int_bytes(k * 1000 + c))}));
                ASSERT_TRUE(r.is_ok());
            }
        }
    }

    // Reads every page of `cql`, checking each is at most page_size rows.
    std::vector<std::string> read_all(Session& s, const std::string& cql, int page_size,
                                      int* pages = nullptr) {
        std::vector<std::string> out;
        QueryOptions o;
        o.page_size = page_size;
        int n = 0;
        while (true) {
            auto r = s.execute(cql, o);
            EXPECT_TRUE(r.is_ok()) << r.status().to_string();
            if (!r.is_ok()) break;
            EXPECT_LE(static_cast<int>(r->rows.size()), page_size);
            for (auto& row : TestDb::format(*r))
                out.push_back(row);
            ++n;
            if (r->paging_state.empty()) break;
            o.paging_state = r->paging_state;
        }
        if (pages) *pages = n;
        return out;
    }
    TestDb t;
};

TEST_F(PagingTest, FullScanInSmallPagesMatchesUnpaged) {
    auto all = t.rows("SELECT k, c FROM t");
    ASSERT_EQ(all.size(), 1250u);
    int pages = 0;
    auto paged = read_all(t.session(), "SELECT k, c FROM t", 7, &pages);
    EXPECT_EQ(paged, all);
    EXPECT_EQ(pages, 179);  // ceil(1250 / 7)
    EXPECT_EQ(read_all(t.session(), "SELECT k, c FROM t", 1250).size(), 1250u);
}

TEST_F(PagingTest, SinglePartitionLimitsAndReversal) {
    auto paged = read_all(t.session(), "SELECT c FROM t WHERE k = 3 ORDER BY c DESC LIMIT 23", 5);
    ASSERT_EQ(paged.size(), 23u);
    EXPECT_EQ(paged.front(), "49");
    EXPECT_EQ(paged.back(), "27");
    auto ppl = read_all(t.session(), "SELECT k, c FROM t PER PARTITION LIMIT 3", 4);
    EXPECT_EQ(ppl.size(), 75u);
    auto in = read_all(t.session(), "SELECT k, c FROM t WHERE k IN (1, 2, 3) AND c >= 45", 4);
    EXPECT_EQ(in.size(), 15u);
    auto filtered =
        read_all(t.session(), "SELECT v FROM t WHERE v < 5000 AND c = 7 ALLOW FILTERING", 2);
    EXPECT_EQ(filtered.size(), 5u);
    auto distinct = read_all(t.session(), "SELECT DISTINCT k FROM t", 4);
    EXPECT_EQ(distinct.size(), 25u);
}

TEST_F(PagingTest, ResumesOnAnotherSessionAndAfterRestart) {
    const std::string q = "SELECT k, c FROM t";
    auto all = t.rows(q);
    QueryOptions o;
    o.page_size = 100;
    o.values = {};
    auto first = t.session().execute(q, o);
    ASSERT_TRUE(first.is_ok());
    ASSERT_FALSE(first->paging_state.empty());
    auto other = t.db().new_session();
    ASSERT_TRUE(other->execute("USE ks", {}).is_ok());
    o.paging_state = first->paging_state;
    auto second = other->execute(q, o);
    ASSERT_TRUE(second.is_ok()) << second.status().to_string();
    EXPECT_EQ(TestDb::format(*second),
              std::vector<std::string>(all.begin() + 100, all.begin() + 200));

    const std::string state = second->paging_state;
    t.reopen();
    t.ok("USE ks");
    o.paging_state = state;
    auto third = t.session().execute(q, o);
    ASSERT_TRUE(third.is_ok()) << third.status().to_string();
    EXPECT_EQ(TestDb::format(*third),
              std::vector<std::string>(all.begin() + 200, all.begin() + 300));
}

TEST_F(PagingTest, ForgedTruncatedAndForeignStatesAreRefused) {
    QueryOptions o;
    o.page_size = 10;
    auto first = t.session().execute("SELECT k, c FROM t", o);
    ASSERT_TRUE(first.is_ok());
    const std::string state = first->paging_state;
    ASSERT_FALSE(state.empty());
    auto expect_refused = [&](const std::string& cql, const std::string& s) {
        QueryOptions q;
        q.page_size = 10;
        q.paging_state = s;
        auto r = t.session().execute(cql, q);
        ASSERT_FALSE(r.is_ok()) << cql;
        EXPECT_EQ(r.status().code(), ErrorCode::kInvalid);
        EXPECT_EQ(r.status().message(), "Invalid paging state");
    };
    std::string forged = state;
    forged[forged.size() / 2] ^= 0x01;
    expect_refused("SELECT k, c FROM t", forged);
    expect_refused("SELECT k, c FROM t", state.substr(0, state.size() - 3));
    expect_refused("SELECT k, c FROM t", "garbage");
    expect_refused("SELECT k, c FROM other", state);  // another table
    expect_refused("SELECT k, c, v FROM t", state);   // another query
    expect_refused("SELECT k, c FROM t WHERE k = 1", state);
}

TEST_F(PagingTest, PreparedPagingWithBoundValues) {
    auto ps = t.session().prepare("SELECT c FROM t WHERE k = ? AND c >= ?");
    ASSERT_TRUE(ps.is_ok());
    QueryOptions o = values({BoundValue::value(int_bytes(4)), BoundValue::value(int_bytes(10))});
    o.page_size = 8;
    int rows = 0;
    std::string state;
    do {
        o.paging_state = state;
        auto r = t.session().execute_prepared(ps->id, o);
        ASSERT_TRUE(r.is_ok()) << r.status().to_string();
        rows += static_cast<int>(r->rows.size());
        state = r->paging_state;
    } while (!state.empty());
    EXPECT_EQ(rows, 40);
    // The state of one set of values does not continue another.
    o.paging_state.clear();
    auto r = t.session().execute_prepared(ps->id, o);
    ASSERT_TRUE(r.is_ok());
    QueryOptions other =
        values({BoundValue::value(int_bytes(5)), BoundValue::value(int_bytes(10))});
    other.page_size = 8;
    other.paging_state = r->paging_state;
    auto bad = t.session().execute_prepared(ps->id, other);
    ASSERT_FALSE(bad.is_ok());
    EXPECT_EQ(bad.status().message(), "Invalid paging state");
}

TEST_F(PagingTest, GroupByPagesByGroupsAndResumesAfterRestart) {
    const std::string q = "SELECT k, count(*), max(c) FROM t GROUP BY k";
    auto all = t.rows(q);
    ASSERT_EQ(all.size(), 25u);
    int pages = 0;
    EXPECT_EQ(read_all(t.session(), q, 4, &pages), all);
    EXPECT_EQ(pages, 7);  // ceil(25 / 4)
    // Groups of a clustering prefix, with LIMIT counting groups.
    const std::string by_row = "SELECT k, c, count(*) FROM t WHERE k IN (1, 2) GROUP BY k, c";
    EXPECT_EQ(read_all(t.session(), by_row, 3).size(), 100u);
    EXPECT_EQ(read_all(t.session(), by_row + " LIMIT 55", 10).size(), 55u);

    QueryOptions o;
    o.page_size = 10;
    auto first = t.session().execute(q, o);
    ASSERT_TRUE(first.is_ok());
    ASSERT_EQ(first->rows.size(), 10u);
    const std::string state = first->paging_state;
    ASSERT_FALSE(state.empty());
    t.reopen();
    t.ok("USE ks");
    o.paging_state = state;
    auto second = t.session().execute(q, o);
    ASSERT_TRUE(second.is_ok()) << second.status().to_string();
    EXPECT_EQ(TestDb::format(*second),
              std::vector<std::string>(all.begin() + 10, all.begin() + 20));
}

TEST_F(PagingTest, AggregateWithoutGroupByIsOneUnpagedRow) {
    QueryOptions o;
    o.page_size = 3;
    auto r = t.session().execute("SELECT count(*), sum(v) FROM t", o);
    ASSERT_TRUE(r.is_ok());
    EXPECT_EQ(TestDb::format(*r), std::vector<std::string>{"1250|15030625"});
    EXPECT_TRUE(r->paging_state.empty());
}

TEST_F(PagingTest, GroupByPagedEqualsUnpagedForAnyPageSize) {
    t.ok("CREATE TABLE g (k int, a int, b int, v int, PRIMARY KEY (k, a, b))");
    for (int k = 0; k < 4; ++k) {
        for (int a = 0; a < 5; ++a) {
            for (int b = 0; b <= (k + a) % 4; ++b) {
                t.ok("INSERT INTO g (k, a, b, v) VALUES (" + std::to_string(k) + ", " +
                     std::to_string(a) + ", " + std::to_string(b) + ", " +
                     std::to_string(k * 100 + a * 10 + b) + ")");
            }
        }
    }
    const std::vector<std::string> queries = {
        "SELECT k, count(*), sum(v) FROM g GROUP BY k",
        "SELECT k, a, count(*), max(b) FROM g GROUP BY k, a",
        "SELECT k, a, b FROM g GROUP BY k, a",
        "SELECT a, count(*) FROM g WHERE k = 2 GROUP BY k, a ORDER BY a DESC",
        "SELECT k, a, count(*) FROM g WHERE k IN (1, 3) AND a > 0 GROUP BY k, a",
        "SELECT k, a, count(*) FROM g GROUP BY k, a LIMIT 7",
        "SELECT k, a, count(*) FROM g GROUP BY k, a PER PARTITION LIMIT 2",
        "SELECT k, a, count(*) FROM g GROUP BY k, a PER PARTITION LIMIT 3 LIMIT 5",
        "SELECT k, a, count(*) FROM g WHERE v > 150 GROUP BY k, a ALLOW FILTERING",
    };
    for (const auto& q : queries) {
        const auto all = t.rows(q);
        ASSERT_FALSE(all.empty()) << q;
        for (int page = 1; page <= 7; ++page)
            EXPECT_EQ(read_all(t.session(), q, page), all) << q << " in pages of " << page;
    }
}

}  // namespace
}  // namespace tessel::testing
