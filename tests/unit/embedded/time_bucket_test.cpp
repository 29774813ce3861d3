// Time bucketing end to end: writes land in their bucket, ranges expand to
// the buckets they cover (edges, several buckets, DESC clustering, paging),
// a read without a range is refused unless ALLOW FILTERING scans every
// bucket, and deletes reach the buckets they cover.
#include "test_db.h"

namespace tessel::testing {
namespace {

class TimeBucketTest : public ::testing::Test {
  protected:
    void SetUp() override {
        t.create_keyspace("ks");
        t.ok("USE ks");
        for (const char* order : {"ASC", "DESC"}) {
            const std::string name = std::string("m_") + order;
            t.ok("CREATE TABLE " + name +
                 " (metric text, ts timestamp, v int, PRIMARY KEY (metric, ts)) WITH CLUSTERING "
                 "ORDER BY (ts " +
                 order + ") AND time_bucket = {'column': 'ts', 'width': '1h'}");
            // A point every 30 minutes for 6 hours: two per bucket, on the edges.
            for (int i = 0; i < 12; ++i) {
                t.ok("INSERT INTO " + name + " (metric, ts, v) VALUES ('cpu', " +
                     std::to_string(int64_t{i} * 1800000) + ", " + std::to_string(i) + ")");
            }
        }
    }
    std::vector<std::string> vs(std::initializer_list<int> l) {
        std::vector<std::string> out;
        for (int i : l)
            out.push_back(std::to_string(i));
        return out;
    }
    TestDb t;
};

TEST_F(TimeBucketTest, RangesExpandToTheirBucketsInOrder) {
    for (const char* tbl : {"m_ASC", "m_DESC"}) {
        const std::string base = std::string("SELECT v FROM ") + tbl + " WHERE metric = 'cpu' ";
        const bool desc = std::string(tbl) == "m_DESC";
        auto in_order = [&](std::vector<std::string> v) {
            if (desc) std::reverse(v.begin(), v.end());
            return v;
        };
        // Exactly on bucket edges: 1h and 3h are the first instants of buckets 1 and 3.
        EXPECT_EQ(t.rows(base + "AND ts >= 3600000 AND ts <= 10800000"),
                  in_order(vs({2, 3, 4, 5, 6})));
        EXPECT_EQ(t.rows(base + "AND ts > 3600000 AND ts < 10800000"), in_order(vs({3, 4, 5})));
        EXPECT_EQ(t.rows(base + "AND ts >= 0 AND ts < 100000000"),
                  in_order(vs({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})));
        EXPECT_EQ(t.rows(base + "AND ts = 5400000"), vs({3}));
        EXPECT_EQ(t.rows(base + "AND ts IN (0, 19800000)"), in_order(vs({0, 11})));
        auto rev = t.rows(base + "AND ts >= 3600000 AND ts <= 10800000 ORDER BY ts " +
                          (desc ? "ASC" : "DESC"));
        EXPECT_EQ(rev, in_order(vs({6, 5, 4, 3, 2})));
        EXPECT_EQ(t.rows(base + "AND ts >= 0 AND ts < 100000000 LIMIT 3"),
                  desc ? vs({11, 10, 9}) : vs({0, 1, 2}));
        EXPECT_EQ(t.rows(std::string("SELECT COUNT(*) FROM ") + tbl +
                         " WHERE metric = 'cpu' AND ts >= 1800000 AND ts < 9000000"),
                  vs({4}));
    }
}

TEST_F(TimeBucketTest, PagingCrossesBuckets) {
    QueryOptions o;
    o.page_size = 5;
    std::vector<std::string> all;
    while (true) {
        auto s = t.db().new_session();
        (void)s->execute("USE ks", {});
        auto r = s->execute(
            "SELECT v FROM m_ASC WHERE metric = 'cpu' AND ts >= 0 AND ts < "
            "100000000",
            o);
        ASSERT_TRUE(r.is_ok()) << r.status().to_string();
        for (auto& row : TestDb::format(*r))
            all.push_back(row);
        if (r->paging_state.empty()) break;
        o.paging_state = r->paging_state;
    }
    EXPECT_EQ(all, vs({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
}

TEST_F(TimeBucketTest, ReadWithoutRangeIsRefusedUnlessAllowFiltering) {
    auto st = t.err("SELECT v FROM m_ASC WHERE metric = 'cpu'");
    EXPECT_EQ(st.message(),
              "A range on time-bucket column ts is required for table ks.m_asc (or use ALLOW "
              "FILTERING to scan all buckets)");
    t.err("SELECT v FROM m_ASC WHERE metric = 'cpu' AND ts >= 0");
    EXPECT_EQ(t.rows("SELECT v FROM m_DESC WHERE metric = 'cpu' ALLOW FILTERING"),
              vs({11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}));
    EXPECT_EQ(t.rows("SELECT v FROM m_ASC WHERE metric = 'cpu' AND ts >= 16200000 ALLOW "
                     "FILTERING"),
              vs({9, 10, 11}));
}

TEST_F(TimeBucketTest, TooManyBucketsIsAClearError) {
    auto st = t.err("SELECT v FROM m_ASC WHERE metric = 'cpu' AND ts >= 0 AND ts < 1000000000000");
    EXPECT_NE(st.message().find("more than 10000 time buckets"), std::string::npos);
}

TEST_F(TimeBucketTest, DeletesReachTheirBuckets) {
    t.ok("DELETE FROM m_ASC WHERE metric = 'cpu' AND ts = 3600000");
    t.ok("DELETE FROM m_ASC WHERE metric = 'cpu' AND ts >= 7200000 AND ts < 14400000");
    EXPECT_EQ(t.rows("SELECT v FROM m_ASC WHERE metric = 'cpu' AND ts >= 0 AND ts < 100000000"),
              vs({0, 1, 3, 8, 9, 10, 11}));
    t.ok("DELETE FROM m_ASC WHERE metric = 'cpu'");
    EXPECT_TRUE(t.rows("SELECT v FROM m_ASC WHERE metric = 'cpu' ALLOW FILTERING").empty());
}

}  // namespace
}  // namespace tessel::testing
