// Many sessions on one database at once: lightweight transactions on one
// partition are serialised, plain writes and reads do not interfere.
#include <atomic>
#include <thread>

#include "test_db.h"

namespace tessel::testing {
namespace {

TEST(ConcurrencyTest, CompareAndSetIsSerialisedPerPartition) {
    TestDb t;
    t.ok(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': "
        "1}");
    t.ok("CREATE TABLE ks.c (k int PRIMARY KEY, v int)");
    t.ok("INSERT INTO ks.c (k, v) VALUES (1, 0)");
    constexpr int kThreads = 4;
    constexpr int kIncrements = 25;
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; ++i) {
        threads.emplace_back([&, i] {
            auto s = t.db().new_session();
            auto read = s->prepare("SELECT v FROM ks.c WHERE k = 1");
            auto cas = s->prepare("UPDATE ks.c SET v = ? WHERE k = 1 IF v = ?");
            if (!read.is_ok() || !cas.is_ok()) {
                ++failures;
                return;
            }
            int done = 0;
            while (done < kIncrements) {
                auto r = s->execute_prepared(read->id, {});
                if (!r.is_ok() || r->rows.size() != 1 || !r->rows[0][0]) {
                    ++failures;
                    return;
                }
                const std::string cur = *r->rows[0][0];
                int32_t v = 0;
                for (unsigned char ch : cur)
                    v = (v << 8) | ch;
                auto w = s->execute_prepared(
                    cas->id, values({BoundValue::value(int_bytes(v + 1)), BoundValue::value(cur)}));
                if (!w.is_ok()) {
                    ++failures;
                    return;
                }
                if (w->rows[0][0] == std::optional<std::string>(std::string(1, '\x01'))) ++done;
            }
            // Plain writes from every thread alongside.
            for (int j = 0; j < 20; ++j) {
                auto r = s->execute(
                    "INSERT INTO ks.c (k, v) VALUES (" + std::to_string(100 + i * 100 + j) + ", 1)",
                    {});
                if (!r.is_ok()) ++failures;
            }
        });
    }
    for (auto& th : threads)
        th.join();
    EXPECT_EQ(failures.load(), 0);
    EXPECT_EQ(t.rows("SELECT v FROM ks.c WHERE k = 1"), (std::vector<std::string>{"100"}));
    EXPECT_EQ(t.rows("SELECT count(*) FROM ks.c"), (std::vector<std::string>{"81"}));
}

TEST(ConcurrencyTest, DefaultTimeToLive) {
    TestDb t;
    t.ok(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': "
        "1}");
    t.ok("CREATE TABLE ks.d (k int PRIMARY KEY, v int) WITH default_time_to_live = 100");
    t.ok("INSERT INTO ks.d (k, v) VALUES (1, 1)");
    t.ok("INSERT INTO ks.d (k, v) VALUES (2, 1) USING TTL 0");
    auto r = t.rows("SELECT k, ttl(v) FROM ks.d WHERE k IN (1, 2)");
    ASSERT_EQ(r.size(), 2u);
    EXPECT_TRUE(r[0] == "1|100" || r[0] == "1|99") << r[0];
    EXPECT_EQ(r[1], "2|null");
}

}  // namespace
}  // namespace tessel::testing
