// Tuple slices over clustering columns of every ASC/DESC combination, checked
// against a brute-force filter of all rows: forward, reversed, paged, and as
// range deletions.
#include <algorithm>
#include <random>
#include <tuple>

#include "test_db.h"

namespace tessel::testing {
namespace {

using Key = std::tuple<int, int, int>;

// (a, b, c) compared with a tuple of the first `width` values, in natural order.
int compare_prefix(const Key& k, const std::vector<int>& v) {
    const int parts[3] = {std::get<0>(k), std::get<1>(k), std::get<2>(k)};
    for (size_t i = 0; i < v.size(); ++i) {
        if (parts[i] != v[i]) return parts[i] < v[i] ? -1 : 1;
    }
    return 0;
}

std::string tuple_text(const std::vector<int>& v) {
    std::string s = "(";
    for (size_t i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + std::to_string(v[i]);
    return s + ")";
}

std::string columns_text(size_t width) {
    const char* names[] = {"a", "b", "c"};
    std::string s = "(";
    for (size_t i = 0; i < width; ++i)
        s += std::string(i ? ", " : "") + names[i];
    return s + ")";
}

TEST(TupleSliceTest, MatchesBruteForceForEveryClusteringOrder) {
    TestDb t;
    t.create_keyspace("ks");
    t.ok("USE ks");
    std::mt19937 rng(20261125);
    for (int order = 0; order < 8; ++order) {
        const bool desc[3] = {(order & 1) != 0, (order & 2) != 0, (order & 4) != 0};
        const std::string table = "t" + std::to_string(order);
        t.ok("CREATE TABLE " + table +
             " (k int, a int, b int, c int, PRIMARY KEY (k, a, b, c)) WITH CLUSTERING ORDER BY "
             "(a " +
             (desc[0] ? "DESC" : "ASC") + ", b " + (desc[1] ? "DESC" : "ASC") + ", c " +
             (desc[2] ? "DESC" : "ASC") + ")");
        std::vector<Key> all;
        for (int a = 0; a < 3; ++a) {
            for (int b = 0; b < 3; ++b) {
                for (int c = 0; c < 3; ++c) {
                    all.emplace_back(a, b, c);
                    t.ok("INSERT INTO " + table + " (k, a, b, c) VALUES (0, " + std::to_string(a) +
                         ", " + std::to_string(b) + ", " + std::to_string(c) + ")");
                }
            }
        }
        // Storage order: each column in its own direction.
        auto storage_less = [&](const Key& x, const Key& y) {
            const int xs[3] = {std::get<0>(x), std::get<1>(x), std::get<2>(x)};
            const int ys[3] = {std::get<0>(y), std::get<1>(y), std::get<2>(y)};
            for (int i = 0; i < 3; ++i) {
                if (xs[i] != ys[i]) return desc[i] ? xs[i] > ys[i] : xs[i] < ys[i];
            }
            return false;
        };
        std::sort(all.begin(), all.end(), storage_less);
        for (int round = 0; round < 40; ++round) {
            const size_t w1 = 1 + rng() % 3, w2 = 1 + rng() % 3;
            std::vector<int> lo, hi;
            for (size_t i = 0; i < w1; ++i)
                lo.push_back(static_cast<int>(rng() % 4) - 1);
            for (size_t i = 0; i < w2; ++i)
                hi.push_back(static_cast<int>(rng() % 4));
            const bool lo_incl = rng() % 2, hi_incl = rng() % 2, both = rng() % 3 != 0;
            std::string where =
                "k = 0 AND " + columns_text(w1) + (lo_incl ? " >= " : " > ") + tuple_text(lo);
            // Cassandra wants both bounds of a tuple slice to start at the same column.
            if (both) {
                where += " AND " + columns_text(w2) + (hi_incl ? " <= " : " < ") + tuple_text(hi);
            }
            std::vector<std::string> expected;
            for (const auto& k : all) {
                const int cl = compare_prefix(k, lo), ch = compare_prefix(k, hi);
                if (cl < 0 || (cl == 0 && !lo_incl)) continue;
                if (both && (ch > 0 || (ch == 0 && !hi_incl))) continue;
                expected.push_back(std::to_string(std::get<0>(k)) + "|" +
                                   std::to_string(std::get<1>(k)) + "|" +
                                   std::to_string(std::get<2>(k)));
            }
            const std::string select = "SELECT a, b, c FROM " + table + " WHERE " + where;
            EXPECT_EQ(t.rows(select), expected) << select;
            // Reversed, and paged by 2 rows in both directions.
            const std::string rev = select + " ORDER BY a " + (desc[0] ? "ASC" : "DESC") + ", b " +
                                    (desc[1] ? "ASC" : "DESC") + ", c " +
                                    (desc[2] ? "ASC" : "DESC");
            std::vector<std::string> reversed(expected.rbegin(), expected.rend());
            EXPECT_EQ(t.rows(rev), reversed) << rev;
            for (const auto& [q, want] : {std::pair{select, expected}, std::pair{rev, reversed}}) {
                QueryOptions o;
                o.page_size = 2;
                std::vector<std::string> got;
                do {
                    auto r = t.session().execute(q, o);
                    ASSERT_TRUE(r.is_ok()) << q;
                    for (auto& row : TestDb::format(*r))
                        got.push_back(row);
                    o.paging_state = r->paging_state;
                } while (!o.paging_state.empty());
                EXPECT_EQ(got, want) << q << " (pages of 2)";
            }
        }
        // A range deletion by tuple slice removes exactly those rows.
        t.ok("DELETE FROM " + table + " WHERE k = 0 AND (a, b) > (0, 1) AND (a, b) <= (2, 0)");
        size_t kept = 0;
        for (const auto& k : all) {
            if (compare_prefix(k, {0, 1}) <= 0 || compare_prefix(k, {2, 0}) > 0) ++kept;
        }
        EXPECT_EQ(t.rows("SELECT a, b, c FROM " + table + " WHERE k = 0").size(), kept) << table;
    }
}

}  // namespace
}  // namespace tessel::testing
