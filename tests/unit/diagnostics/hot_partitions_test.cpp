#include "diagnostics/hot_partitions.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <thread>

#include "diagnostics/test_print.h"

namespace tessel::diagnostics {
namespace {

HotPartitionsOptions small(size_t capacity = 8, int64_t window_ms = 10000, size_t stripes = 4) {
    HotPartitionsOptions o;
    o.capacity = capacity;
    o.window_ms = window_ms;
    o.stripes = stripes;
    return o;
}

TEST(HotPartitions, CountsReadsWritesAndBytes) {
    HotPartitions hot(small());
    hot.record_write("k1", "'k1'", 100, 1000);
    hot.record_write("k1", "'k1'", 100, 1001);
    hot.record_write("k2", "'k2'", 5000, 1002);
    hot.record_read("k2", "'k2'", 1003);
    HotWindow w = hot.current(2000, 10);
    EXPECT_EQ(w.start, 0);
    EXPECT_EQ(w.length_ms, 10000);
    ASSERT_EQ(w.of(HotKind::kWrites).entries.size(), 2u);
    EXPECT_EQ(w.of(HotKind::kWrites).entries[0], (TopKEntry{"k1", "'k1'", 2, 0}));
    EXPECT_EQ(w.of(HotKind::kBytes).entries[0], (TopKEntry{"k2", "'k2'", 5000, 0}));
    EXPECT_EQ(w.of(HotKind::kBytes).entries[1], (TopKEntry{"k1", "'k1'", 200, 0}));
    ASSERT_EQ(w.of(HotKind::kReads).entries.size(), 1u);
    EXPECT_EQ(w.of(HotKind::kReads).entries[0].key, "k2");
    EXPECT_EQ(hot_kind_name(HotKind::kBytes), "bytes");
}

TEST(HotPartitions, LazyDisplayIsBuiltOncePerAdmission) {
    HotPartitions hot(small(8, 10000, 1));
    int built = 0;
    auto display = [&] {
        ++built;
        return std::string("'2024-05-01'");
    };
    for (int i = 0; i < 100; ++i)
        hot.record_write("d", display, 10, 1000);
    hot.record_read("d", display, 1000);
    EXPECT_EQ(built, 2);  // once for writes+bytes, once for reads
    HotWindow w = hot.current(1000, 1);
    EXPECT_EQ(w.of(HotKind::kBytes).entries[0], (TopKEntry{"d", "'2024-05-01'", 1000, 0}));
    EXPECT_EQ(w.of(HotKind::kReads).entries[0].display, "'2024-05-01'");
}

TEST(HotPartitions, FormatterShowsOnlyListedKeysRecordedWithoutText) {
    HotPartitions hot(small(/*capacity=*/2));
    int formatted = 0;
    hot.set_formatter([&](std::string_view key) {
        ++formatted;
        return "<" + std::string(key) + ">";
    });
    for (int i = 0; i < 50; ++i)
        hot.record_read("k" + std::to_string(i), std::string_view(), 1000);
    hot.record_read("hot", std::string_view(), 1000);
    hot.record_read("hot", std::string_view(), 1000);
    hot.record_read("hot", std::string_view(), 1000);
    hot.record_write("w", "'w'", 10, 1000);
    EXPECT_EQ(formatted, 0);  // nothing made while recording
    HotWindow w = hot.current(1000, 1);
    ASSERT_EQ(w.of(HotKind::kReads).entries.size(), 1u);
    EXPECT_EQ(w.of(HotKind::kReads).entries[0].key, "hot");
    EXPECT_EQ(w.of(HotKind::kReads).entries[0].display, "<hot>");
    // A key recorded with its text keeps it.
    EXPECT_EQ(w.of(HotKind::kWrites).entries[0].display, "'w'");
    // Only what a window lists is formatted (one key per kind at most).
    EXPECT_LE(formatted, 1);
}

TEST(HotPartitions, WindowsRoll) {
    HotPartitions hot(small());
    hot.record_write("a", "", 1, 5000);
    hot.record_write("b", "", 1, 12000);  // the next window
    HotWindow cur = hot.current(15000, 10);
    HotWindow prev = hot.previous(15000, 10);
    EXPECT_EQ(cur.start, 10000);
    EXPECT_EQ(prev.start, 0);
    ASSERT_EQ(prev.of(HotKind::kWrites).entries.size(), 1u);
    EXPECT_EQ(prev.of(HotKind::kWrites).entries[0].key, "a");
    ASSERT_EQ(cur.of(HotKind::kWrites).entries.size(), 1u);
    EXPECT_EQ(cur.of(HotKind::kWrites).entries[0].key, "b");
    // Two windows later nothing is left, even in stripes that saw no writes since.
    EXPECT_TRUE(hot.current(31000, 10).of(HotKind::kWrites).entries.empty());
    EXPECT_TRUE(hot.previous(31000, 10).of(HotKind::kWrites).entries.empty());
}

TEST(HotPartitions, TruncatedListRaisesTheFloor) {
    HotPartitions hot(small(8));
    for (int i = 0; i < 5; ++i) {
        for (int j = 0; j <= i; ++j)
            hot.record_read("k" + std::to_string(i), "", 100);
    }
    HotWindow w = hot.current(200, 2);
    const TopKView& v = w.of(HotKind::kReads);
    ASSERT_EQ(v.entries.size(), 2u);
    EXPECT_EQ(v.entries[0].key, "k4");
    EXPECT_EQ(v.entries[1].key, "k3");
    EXPECT_EQ(v.floor, 3u);  // k2, cut from the list, has 3
}

TEST(HotPartitions, ConcurrentRecordersMergeToTheTruth) {
    HotPartitions hot(small(64, 1000000, 4));
    constexpr int kThreads = 8;
    constexpr int kPerThread = 20000;
    std::vector<std::map<std::string, uint64_t>> truth(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            std::mt19937 rng(static_cast<uint32_t>(t));
            std::uniform_int_distribution<int> uniform(0, 999);
            for (int i = 0; i < kPerThread; ++i) {
                // A third of every thread's writes go to one day's partition.
                std::string key = i % 3 == 0 ? "2024-05-01" : "user" + std::to_string(uniform(rng));
                hot.record_write(key, "", 10, 1000);
                ++truth[t][key];
            }
        });
    }
    for (auto& th : threads)
        th.join();
    std::map<std::string, uint64_t> all;
    for (const auto& m : truth) {
        for (const auto& [k, v] : m)
            all[k] += v;
    }
    HotWindow w = hot.current(2000, 10);
    const auto& writes = w.of(HotKind::kWrites).entries;
    ASSERT_FALSE(writes.empty());
    EXPECT_EQ(writes[0].key, "2024-05-01");
    EXPECT_EQ(all["2024-05-01"], static_cast<uint64_t>(kThreads) * ((kPerThread + 2) / 3));
    for (const TopKEntry& e : writes) {
        EXPECT_LE(all[e.key], e.count) << e.key;
        EXPECT_LE(e.count - e.error, all[e.key]) << e.key;
    }
    const auto& bytes = w.of(HotKind::kBytes).entries;
    EXPECT_EQ(bytes[0].key, "2024-05-01");
    EXPECT_GE(bytes[0].count, 10 * all["2024-05-01"]);
}

TEST(HotPartitions, DiffOfTwoReadsOfOneWindow) {
    TopKView before{{{"a", "", 100, 0}, {"b", "", 50, 10}}, 40};
    TopKView after{{{"a", "", 300, 0}, {"b", "", 60, 10}, {"c", "", 90, 40}}, 45};
    TopKView d = diff_views(before, after);
    ASSERT_EQ(d.entries.size(), 3u);
    EXPECT_EQ(d.entries[0], (TopKEntry{"a", "", 200, 0}));
    // c was unlisted before (at most 40), has between 50 and 90 now: delta in [10, 90].
    EXPECT_EQ(d.entries[1], (TopKEntry{"c", "", 90, 80}));
    // b: before in [40, 50], after in [50, 60]: delta in [0, 20].
    EXPECT_EQ(d.entries[2], (TopKEntry{"b", "", 20, 20}));
    EXPECT_EQ(d.floor, 45u);
}

TEST(HotPartitions, DiffOfLiveSnapshotsBoundsTheSampledInterval) {
    HotPartitions hot(small(16, 60000));
    for (int i = 0; i < 500; ++i)
        hot.record_write("old" + std::to_string(i % 50), "", 1, 100);
    TopKView before = hot.current(200, 16).of(HotKind::kWrites);
    for (int i = 0; i < 300; ++i)
        hot.record_write("new-hot", "", 1, 300);
    for (int i = 0; i < 100; ++i)
        hot.record_write("old" + std::to_string(i % 50), "", 1, 300);
    TopKView after = hot.current(400, 16).of(HotKind::kWrites);
    TopKView d = diff_views(before, after);
    ASSERT_FALSE(d.entries.empty());
    EXPECT_EQ(d.entries[0].key, "new-hot");
    EXPECT_GE(d.entries[0].count, 300u);
    EXPECT_LE(d.entries[0].count - d.entries[0].error, 300u);
}

TEST(HotPartitions, MergeViewsOfDisjointWindows) {
    TopKView w1{{{"a", "'a'", 10, 0}, {"b", "", 5, 1}}, 5};
    TopKView w2{{{"a", "", 7, 2}, {"c", "", 6, 0}}, 0};
    TopKView m = merge_views({&w1, &w2});
    ASSERT_EQ(m.entries.size(), 3u);
    EXPECT_EQ(m.entries[0], (TopKEntry{"a", "'a'", 17, 2}));
    EXPECT_EQ(m.entries[1], (TopKEntry{"c", "", 11, 5}));
    EXPECT_EQ(m.entries[2], (TopKEntry{"b", "", 5, 1}));
    EXPECT_EQ(m.floor, 5u);
}

TEST(HotPartitionsRegistry, OneInstancePerTable) {
    HotPartitionsRegistry reg(small());
    auto a = reg.get_or_create("ks", "t");
    EXPECT_EQ(a, reg.get_or_create("ks", "t"));
    EXPECT_EQ(a, reg.find("ks", "t"));
    EXPECT_EQ(reg.find("ks", "u"), nullptr);
    reg.get_or_create("a", "z");
    auto list = reg.list();
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[0].keyspace, "a");
    reg.drop("ks", "t");
    EXPECT_EQ(reg.find("ks", "t"), nullptr);
    EXPECT_EQ(a->options().capacity, 8u);  // still usable by whoever holds it
}

}  // namespace
}  // namespace tessel::diagnostics
