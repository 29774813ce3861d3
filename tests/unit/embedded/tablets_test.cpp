// Tablets end to end through the embedded API: every table is cut into
// tablets listed in system.tablets, writes and reads are counted on the
// tablet they were routed to, tablets split and merge (explicitly evaluated,
// thresholds lowered) without losing or duplicating a row, and the map
// survives a restart, is reset by TRUNCATE and removed by DROP.
#include <atomic>
#include <chrono>
#include <set>
#include <thread>

#include "test_db.h"
#include "types/bytes_util.h"

namespace tessel::testing {
namespace {

TabletOptions lowered() {
    TabletOptions o;
    o.initial_tablets = 4;
    o.shards = 2;
    o.thresholds.split_size_bytes = 4000;
    o.thresholds.merge_size_bytes = 1000;
    o.thresholds.split_writes_per_sec = 1e9;
    o.thresholds.split_bytes_per_sec = 1e12;
    o.thresholds.merge_writes_per_sec = 1e9;
    o.thresholds.merge_bytes_per_sec = 1e12;
    o.thresholds.min_age_ms = 0;
    o.evaluation_interval_ms = 0;  // only when a test asks
    return o;
}

class TabletsTest : public ::testing::Test {
  protected:
    TabletsTest() : t(4u << 20, lowered()) {}
    void SetUp() override {
        t.create_keyspace("ks");
        t.ok("USE ks");
    }

    std::vector<std::string> tablets(const std::string& table, const std::string& cols =
                                                                   "tablet_id, range_start, "
                                                                   "range_end, shard") {
        return t.rows("SELECT " + cols +
                      " FROM system.tablets WHERE keyspace_name = 'ks' AND table_name = '" + table +
                      "'");
    }
    size_t count(const std::string& table) { return tablets(table).size(); }

    size_t evaluate() {
        auto r = t.db().evaluate_tablets();
        EXPECT_TRUE(r.is_ok()) << r.status().to_string();
        return r.is_ok() ? *r : 0;
    }

    // Writes `n` partitions of ~100 bytes each into kv.
    void fill(int from, int to) {
        const std::string pad(80, 'x');
        for (int i = from; i < to; ++i) {
            t.ok("INSERT INTO kv (k, v) VALUES (" + std::to_string(i) + ", '" + pad + "')");
        }
    }

    std::set<int> keys(const std::string& table, int page_size) {
        std::set<int> out;
        QueryOptions o;
        o.page_size = page_size;
        size_t total = 0;
        while (true) {
            auto rs = t.ok("SELECT k FROM " + table, o);
            for (const auto& row : rs.rows) {
                out.insert(static_cast<int>(bytes::read_i32(*row[0])));
                ++total;
            }
            if (rs.paging_state.empty()) break;
            o.paging_state = rs.paging_state;
        }
        EXPECT_EQ(total, out.size()) << "a partition was returned twice";
        return out;
    }

    TestDb t;
};

TEST_F(TabletsTest, NewHashTableHasFourTabletsOverTheRing) {
    t.ok("CREATE TABLE kv (k int PRIMARY KEY, v text)");
    EXPECT_EQ(tablets("kv"), (std::vector<std::string>{
                                 "0|-9223372036854775808|-4611686018427387905|0",
                                 "1|-4611686018427387904|-1|1",
                                 "2|0|4611686018427387903|0",
                                 "3|4611686018427387904|9223372036854775807|1",
                             }));
}

TEST_F(TabletsTest, NewOrderedTableHasOneTablet) {
    t.ok("CREATE TABLE o (k text, c int, PRIMARY KEY (k, c)) WITH distribution = 'ordered'");
    EXPECT_EQ(tablets("o"), (std::vector<std::string>{"0|||0"}));
}

TEST_F(TabletsTest, WritesAndReadsAreCountedOnTheirTablet) {
    t.ok("CREATE TABLE kv (k int PRIMARY KEY, v text)");
    fill(0, 40);
    for (int i = 0; i < 10; ++i)
        t.ok("SELECT * FROM kv WHERE k = 1");
    // Rates need time to pass since the tablets were created.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const auto rows = tablets("kv", "rows, size_bytes");
    ASSERT_EQ(rows.size(), 4u);
    size_t total_rows = 0;
    for (const auto& r : rows) {
        total_rows += std::stoul(r.substr(0, r.find('|')));
    }
    EXPECT_EQ(total_rows, 40u);
    // token(1) is in one tablet only: it alone saw the 10 reads.
    auto reads = tablets("kv", "reads_per_sec");
    int hot = 0;
    for (const auto& r : reads)
        hot += std::stod(r) > 0;
    EXPECT_EQ(hot, 1);
}

TEST_F(TabletsTest, HotShardedPartitionSpreadsOverTablets) {
    t.ok(
        "CREATE TABLE hot (day text, seq int, v int, PRIMARY KEY (day, seq)) "
        "WITH write_sharding = {'shards': 16, 'suffix': 'random'}");
    for (int i = 0; i < 400; ++i)
        t.ok("INSERT INTO hot (day, seq, v) VALUES ('d1', " + std::to_string(i) + ", 1)");
    // One logical partition, yet several tablets hold rows of it.
    int holding = 0;
    size_t total = 0;
    for (const auto& r : tablets("hot", "rows")) {
        holding += std::stoul(r) > 0;
        total += std::stoul(r);
    }
    EXPECT_GE(holding, 3);
    EXPECT_EQ(total, 400u);
    EXPECT_EQ(t.rows("SELECT COUNT(*) FROM hot WHERE day = 'd1'"), std::vector<std::string>{"400"});
}

TEST_F(TabletsTest, HashTableSplitsWhenLargeAndKeepsEveryRow) {
    t.ok("CREATE TABLE kv (k int PRIMARY KEY, v text)");
    fill(0, 200);  // ~25 kB over 4 tablets: each above the 4 kB threshold
    std::set<int> all;
    for (int i = 0; i < 200; ++i)
        all.insert(i);
    EXPECT_EQ(keys("kv", 7), all);
    size_t rounds = 0;
    while (evaluate() > 0 && ++rounds < 10) {
        EXPECT_EQ(keys("kv", 7), all);
    }
    EXPECT_GT(count("kv"), 4u);
    // Every tablet now under the threshold, each row still readable by key.
    for (const auto& r : tablets("kv", "size_bytes")) {
        EXPECT_LE(std::stoul(r), 4000u);
    }
    for (int i = 0; i < 200; i += 13) {
        EXPECT_EQ(t.rows("SELECT k FROM kv WHERE k = " + std::to_string(i)).size(), 1u);
    }
    // Writes after the split land in (and are read from) the new tablets.
    fill(200, 220);
    for (int i = 200; i < 220; ++i)
        all.insert(i);
    EXPECT_EQ(keys("kv", 50), all);
}

TEST_F(TabletsTest, HotTabletSplitsOnItsWriteRate) {
    t.ok("CREATE TABLE kv (k int PRIMARY KEY, v text)");
    TabletOptions hot = lowered();
    hot.thresholds.split_size_bytes = 1 << 30;  // size never decides here
    hot.thresholds.merge_size_bytes = 0;
    hot.thresholds.split_writes_per_sec = 50;
    t.set_tablets(hot);
    t.reopen();
    t.ok("USE ks");
    // Every write goes to the tablet of token(7); the others stay idle.
    for (int i = 0; i < 300; ++i)
        t.ok("UPDATE kv SET v = 'x" + std::to_string(i) + "' WHERE k = 7");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    auto rates = tablets("kv", "writes_per_sec");
    int busy = 0;
    for (const auto& r : rates)
        busy += std::stod(r) > 50;
    EXPECT_EQ(busy, 1);
    EXPECT_EQ(evaluate(), 1u);  // only the hot tablet splits
    EXPECT_EQ(count("kv"), 5u);
    EXPECT_EQ(t.rows("SELECT v FROM kv WHERE k = 7"), std::vector<std::string>{"x299"});
}

TEST_F(TabletsTest, WritesRacingSplitsLoseNothing) {
    t.ok("CREATE TABLE kv (k int PRIMARY KEY, v text)");
    std::atomic<bool> done{false};
    std::vector<std::thread> writers;
    for (int w = 0; w < 3; ++w) {
        writers.emplace_back([&, w] {
            auto session = t.db().new_session();
            const std::string pad(80, 'z');
            for (int i = 0; i < 300; ++i) {
                const int k = w * 1000 + i;
                auto r = session->execute(
                    "INSERT INTO ks.kv (k, v) VALUES (" + std::to_string(k) + ", '" + pad + "')",
                    {});
                EXPECT_TRUE(r.is_ok());
            }
        });
    }
    std::thread splitter([&] {
        while (!done) {
            auto r = t.db().evaluate_tablets();
            EXPECT_TRUE(r.is_ok());
        }
    });
    for (auto& w : writers)
        w.join();
    done = true;
    splitter.join();
    EXPECT_GT(count("kv"), 4u);
    EXPECT_EQ(keys("kv", 97).size(), 900u);
    size_t rows = 0;
    for (const auto& r : tablets("kv", "rows"))
        rows += std::stoul(r);
    EXPECT_EQ(rows, 900u);
}

TEST_F(TabletsTest, PagingStaysCorrectAcrossASplit) {
    t.ok("CREATE TABLE kv (k int PRIMARY KEY, v text)");
    fill(0, 200);
    QueryOptions o;
    o.page_size = 30;
    std::multiset<int> seen;
    auto rs = t.ok("SELECT k FROM kv", o);
    for (const auto& row : rs.rows)
        seen.insert(bytes::read_i32(*row[0]));
    ASSERT_GT(evaluate(), 0u);  // the map changes between pages
    while (!rs.paging_state.empty()) {
        o.paging_state = rs.paging_state;
        rs = t.ok("SELECT k FROM kv", o);
        for (const auto& row : rs.rows)
            seen.insert(bytes::read_i32(*row[0]));
    }
    EXPECT_EQ(seen.size(), 200u);
    EXPECT_EQ(std::set<int>(seen.begin(), seen.end()).size(), 200u);
}

TEST_F(TabletsTest, OrderedCompositeKeyTableSplitsAtStoredKeys) {
    t.ok(
        "CREATE TABLE o (a text, b int, c int, v text, PRIMARY KEY ((a, b), c)) "
        "WITH distribution = 'ordered'");
    const std::string pad(80, 'x');
    for (int i = 0; i < 120; ++i) {
        t.ok("INSERT INTO o (a, b, c, v) VALUES ('p" + std::to_string(i % 6) + "', " +
             std::to_string(i) + ", 1, '" + pad + "')");
    }
    while (evaluate() > 0) {
    }
    const auto map = tablets("o");
    ASSERT_GT(map.size(), 1u);
    // Boundaries are whole composite keys, as cqlsh prints them.
    EXPECT_EQ(map[0].substr(0, 3), "0||");
    EXPECT_EQ(map[1].substr(0, 3), "1|p") << map[1];
    EXPECT_NE(map[1].find(":"), std::string::npos) << map[1];
    // A full scan still walks the partitions in key order, each once.
    auto rs = t.rows("SELECT a, b FROM o");
    ASSERT_EQ(rs.size(), 120u);
    EXPECT_TRUE(
        std::is_sorted(rs.begin(), rs.end(), [](const std::string& x, const std::string& y) {
            auto ax = x.substr(0, x.find('|')), ay = y.substr(0, y.find('|'));
            if (ax != ay) return ax < ay;
            return std::stoi(x.substr(x.find('|') + 1)) < std::stoi(y.substr(y.find('|') + 1));
        }));
}

TEST_F(TabletsTest, IdleTabletsMergeBackToTheInitialCount) {
    t.ok("CREATE TABLE kv (k int PRIMARY KEY, v text)");
    fill(0, 200);
    while (evaluate() > 0) {
    }
    ASSERT_GT(count("kv"), 4u);
    t.ok("TRUNCATE kv");  // resets the map
    EXPECT_EQ(count("kv"), 4u);
    fill(0, 200);
    while (evaluate() > 0) {
    }
    const size_t split = count("kv");
    ASSERT_GT(split, 4u);
    // What was written does not shrink, so raise the thresholds instead:
    // with everything idle and small, neighbours merge down to the first 4.
    TabletOptions big = lowered();
    big.thresholds.split_size_bytes = 1 << 30;
    big.thresholds.merge_size_bytes = 1 << 20;
    t.set_tablets(big);
    t.reopen();
    t.ok("USE ks");
    EXPECT_EQ(count("kv"), split);
    size_t rounds = 0;
    while (evaluate() > 0 && ++rounds < 10) {
        EXPECT_EQ(keys("kv", 17).size(), 200u);
    }
    EXPECT_EQ(count("kv"), 4u);
    EXPECT_EQ(keys("kv", 17).size(), 200u);
}

TEST_F(TabletsTest, MapSurvivesRestartAndDropRemovesIt) {
    t.ok("CREATE TABLE kv (k int PRIMARY KEY, v text)");
    t.ok("CREATE TABLE o (k int PRIMARY KEY, v text) WITH distribution = 'ordered'");
    fill(0, 200);
    for (int i = 0; i < 100; ++i)
        t.ok("INSERT INTO o (k, v) VALUES (" + std::to_string(i) + ", '" + std::string(80, 'y') +
             "')");
    while (evaluate() > 0) {
    }
    const auto before = tablets("kv");
    const auto obefore = tablets("o");
    ASSERT_GT(before.size(), 4u);
    ASSERT_GT(obefore.size(), 1u);
    t.reopen();
    t.ok("USE ks");
    EXPECT_EQ(tablets("kv"), before);
    EXPECT_EQ(tablets("o"), obefore);
    EXPECT_EQ(keys("kv", 33).size(), 200u);
    t.ok("DROP TABLE kv");
    t.ok("CREATE TABLE kv (k int PRIMARY KEY, v text)");
    EXPECT_EQ(count("kv"), 4u);
}

}  // namespace
}  // namespace tessel::testing
