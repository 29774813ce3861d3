// The storage intervals of a clustering slice: each interval is one read of
// the partition, so touching intervals of a slice come out joined, and the
// intervals admit exactly the rows the restrictions admit.
#include <gtest/gtest.h>

#include "fake_schema.h"
#include "query/key_values.h"
#include "query/table_source.h"
#include "types/bytes_util.h"

namespace tessel::query {
namespace {

class ClusteringIntervalsTest : public ::testing::Test {
  protected:
    void SetUp() override {
        schema.add("CREATE TABLE asc2 (k int, c1 int, c2 int, v int, PRIMARY KEY (k, c1, c2))");
        schema.add(
            "CREATE TABLE mixed (k int, c1 int, c2 int, v int, PRIMARY KEY (k, c1, c2)) "
            "WITH CLUSTERING ORDER BY (c1 ASC, c2 DESC)");
    }

    // The intervals of `where` on `table`, with its literals.
    std::vector<storage::ClusteringInterval> intervals(const std::string& table,
                                                       const std::string& where) {
        auto st = cql::parse_statement("SELECT v FROM " + table + " WHERE k = 0 AND " + where);
        EXPECT_TRUE(st.is_ok()) << where;
        if (!st.is_ok()) return {};
        auto plan = cql::prepare(*st, "ks", schema);
        EXPECT_TRUE(plan.is_ok()) << where << ": " << plan.status().to_string();
        if (!plan.is_ok()) return {};
        const auto& select = std::get<cql::SelectPlan>((*plan)->node);
        auto r = clustering_intervals(select.where, *select.table, layout_of(*select.table), {});
        EXPECT_TRUE(r.is_ok()) << where;
        return r.is_ok() ? std::move(r).value() : std::vector<storage::ClusteringInterval>{};
    }

    // The encoded clustering of row (c1, c2) of `table`.
    std::string row(const std::string& table, int32_t c1, int32_t c2) {
        auto t = schema.find_table("ks", table);
        return encode_clustering(layout_of(*t), {bytes::i32_bytes(c1), bytes::i32_bytes(c2)});
    }

    // The rows of a 6x6 grid the intervals admit, as "c1,c2" in grid order.
    std::vector<std::string> admitted(const std::string& table,
                                      const std::vector<storage::ClusteringInterval>& ivs) {
        std::vector<std::string> out;
        for (int c1 = 0; c1 < 6; ++c1) {
            for (int c2 = 0; c2 < 6; ++c2) {
                const std::string ck = row(table, c1, c2);
                for (const auto& iv : ivs) {
                    if (iv.contains(ck)) {
                        out.push_back(std::to_string(c1) + "," + std::to_string(c2));
                        break;
                    }
                }
            }
        }
        return out;
    }

    testing::FakeSchema schema;
};

TEST_F(ClusteringIntervalsTest, InclusiveBoundsAreOneRead) {
    EXPECT_EQ(intervals("asc2", "c1 >= 2").size(), 1u);
    EXPECT_EQ(intervals("asc2", "c1 <= 2").size(), 1u);
    EXPECT_EQ(intervals("asc2", "c1 >= 2 AND c1 < 4").size(), 1u);
    EXPECT_EQ(intervals("asc2", "c1 >= 2 AND c1 <= 4").size(), 1u);
    EXPECT_EQ(intervals("asc2", "c1 = 1 AND c2 >= 2 AND c2 <= 4").size(), 1u);
    EXPECT_EQ(intervals("asc2", "(c1, c2) >= (1, 2) AND (c1, c2) <= (4, 3)").size(), 1u);
    EXPECT_EQ(intervals("mixed", "c1 >= 2 AND c1 <= 4").size(), 1u);

    auto rows = admitted("asc2", intervals("asc2", "c1 >= 2 AND c1 <= 3"));
    ASSERT_EQ(rows.size(), 12u);
    EXPECT_EQ(rows.front(), "2,0");
    EXPECT_EQ(rows.back(), "3,5");
}

TEST_F(ClusteringIntervalsTest, MixedOrderTupleSlicesKeepSeparateIntervals) {
    // (c1, c2) >= (1, 2) with c2 DESC: c1 = 1 AND c2 >= 2 lies at the start
    // of c1 = 1 in storage, c1 > 1 after all of c1 = 1.
    auto ivs = intervals("mixed", "(c1, c2) >= (1, 2)");
    ASSERT_EQ(ivs.size(), 2u);
    EXPECT_LT(*ivs[0].hi, ivs[1].lo);
    auto rows = admitted("mixed", ivs);
    std::vector<std::string> expected;
    for (int c1 = 1; c1 < 6; ++c1) {
        for (int c2 = 0; c2 < 6; ++c2) {
            if (c1 > 1 || c2 >= 2)
                expected.push_back(std::to_string(c1) + "," + std::to_string(c2));
        }
    }
    EXPECT_EQ(rows, expected);
}

TEST_F(ClusteringIntervalsTest, InValuesStaySeparateIntervals) {
    // Each IN value is its own interval, even where consecutive integers
    // touch in storage: a fully fixed row is read by key.
    auto ivs = intervals("asc2", "c1 IN (1, 2) AND c2 IN (4, 5)");
    ASSERT_EQ(ivs.size(), 4u);
    EXPECT_EQ(admitted("asc2", ivs), (std::vector<std::string>{"1,4", "1,5", "2,4", "2,5"}));
    ivs = intervals("asc2", "c1 IN (1, 2) AND c2 >= 4");
    ASSERT_EQ(ivs.size(), 2u);
    EXPECT_EQ(admitted("asc2", ivs), (std::vector<std::string>{"1,4", "1,5", "2,4", "2,5"}));
}

}  // namespace
}  // namespace tessel::query
