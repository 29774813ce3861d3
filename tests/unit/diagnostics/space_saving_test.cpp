#include "diagnostics/space_saving.h"

#include <gtest/gtest.h>

#include "diagnostics/test_print.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace tessel::diagnostics {
namespace {

// A deterministic Zipf(s) stream over `keys` distinct keys.
std::vector<std::string> zipf_stream(size_t n, size_t keys, double s, uint32_t seed) {
    std::vector<double> w(keys);
    for (size_t i = 0; i < keys; ++i)
        w[i] = 1.0 / std::pow(static_cast<double>(i + 1), s);
    std::discrete_distribution<size_t> dist(w.begin(), w.end());
    std::mt19937 rng(seed);
    std::vector<std::string> out;
    out.reserve(n);
    for (size_t i = 0; i < n; ++i)
        out.push_back("k" + std::to_string(dist(rng)));
    return out;
}

std::map<std::string, uint64_t> true_counts(const std::vector<std::string>& stream) {
    std::map<std::string, uint64_t> c;
    for (const auto& k : stream)
        ++c[k];
    return c;
}

std::vector<std::string> true_top(const std::map<std::string, uint64_t>& counts, size_t k) {
    std::vector<std::pair<std::string, uint64_t>> v(counts.begin(), counts.end());
    std::sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.second > b.second; });
    std::vector<std::string> out;
    for (size_t i = 0; i < k && i < v.size(); ++i)
        out.push_back(v[i].first);
    return out;
}

void expect_bounds(const SpaceSaving& s, const std::map<std::string, uint64_t>& truth) {
    const uint64_t n = s.total();
    for (const TopKEntry& e : s.top(s.size())) {
        uint64_t t = truth.count(e.key) ? truth.at(e.key) : 0;
        EXPECT_LE(t, e.count) << e.key;
        EXPECT_LE(e.count - e.error, t) << e.key;
        EXPECT_LE(e.error, n / s.capacity()) << e.key;
    }
    // Every key heavier than min_count() is monitored.
    for (const auto& [key, t] : truth) {
        if (t > s.min_count()) {
            auto top = s.top(s.size());
            const auto& k = key;  // clang 14 cannot capture a structured binding
            bool found = std::any_of(top.begin(), top.end(), [&](auto& e) { return e.key == k; });
            EXPECT_TRUE(found) << key << " with " << t;
        }
    }
}

TEST(SpaceSaving, ExactWhenKeysFitInCapacity) {
    SpaceSaving s(4);
    for (const char* k : {"a", "b", "a", "c", "a", "b"})
        s.record(k);
    auto top = s.top(10);
    ASSERT_EQ(top.size(), 3u);
    EXPECT_EQ(top[0], (TopKEntry{"a", "", 3, 0}));
    EXPECT_EQ(top[1], (TopKEntry{"b", "", 2, 0}));
    EXPECT_EQ(top[2], (TopKEntry{"c", "", 1, 0}));
    EXPECT_EQ(s.total(), 6u);
    EXPECT_FALSE(s.full());
    EXPECT_EQ(s.min_count(), 0u);
}

TEST(SpaceSaving, NewKeyTakesOverTheSmallestCounter) {
    SpaceSaving s(2);
    s.record("a", 1, "'a'");
    s.record("a");
    s.record("b", 1, "'b'");
    s.record("c", 1, "'c'");  // replaces b (count 1): count 2, error 1
    auto top = s.top(2);
    ASSERT_EQ(top.size(), 2u);
    EXPECT_EQ(top[0], (TopKEntry{"a", "'a'", 2, 0}));
    EXPECT_EQ(top[1], (TopKEntry{"c", "'c'", 2, 1}));
    EXPECT_TRUE(s.full());
    EXPECT_EQ(s.min_count(), 2u);
}

TEST(SpaceSaving, WeightsAndZeroWeight) {
    SpaceSaving s(3);
    s.record("big", 1000);
    s.record("small", 10);
    s.record("big", 24);
    s.record("none", 0);
    auto top = s.top(5);
    ASSERT_EQ(top.size(), 2u);
    EXPECT_EQ(top[0].key, "big");
    EXPECT_EQ(top[0].count, 1024u);
    EXPECT_EQ(top[1].count, 10u);
    EXPECT_EQ(s.total(), 1034u);
}

TEST(SpaceSaving, DisplayBuiltOnlyWhenKeyEnters) {
    SpaceSaving s(2);
    int built = 0;
    auto make = [&] {
        ++built;
        return std::string("'x'");
    };
    s.record_with("x", 1, make);
    s.record_with("x", 1, make);
    s.record_with("x", 5, make);
    EXPECT_EQ(built, 1);
    EXPECT_EQ(s.top(1)[0], (TopKEntry{"x", "'x'", 7, 0}));
}

TEST(SpaceSaving, ZipfHeavyHittersRankFirstWithValidBounds) {
    auto stream = zipf_stream(200000, 20000, 1.2, 42);
    auto truth = true_counts(stream);
    SpaceSaving s(200);
    for (const auto& k : stream)
        s.record(k);
    expect_bounds(s, truth);
    std::vector<std::string> got;
    for (const auto& e : s.top(5))
        got.push_back(e.key);
    EXPECT_EQ(got, true_top(truth, 5));
    // The hottest key's count is exact or nearly: its error is tiny relative.
    auto first = s.top(1)[0];
    EXPECT_LT(static_cast<double>(first.error), 0.01 * static_cast<double>(first.count));
}

TEST(SpaceSaving, WeightedZipfBounds) {
    auto stream = zipf_stream(50000, 5000, 1.1, 7);
    std::map<std::string, uint64_t> truth;
    SpaceSaving s(100);
    std::mt19937 rng(3);
    std::uniform_int_distribution<uint64_t> bytes(1, 2000);
    for (const auto& k : stream) {
        uint64_t w = bytes(rng);
        truth[k] += w;
        s.record(k, w);
    }
    expect_bounds(s, truth);
}

TEST(SpaceSaving, MergeOfPartsKeepsBoundsAndRanking) {
    auto stream = zipf_stream(120000, 10000, 1.2, 11);
    auto truth = true_counts(stream);
    std::vector<SpaceSaving> parts;
    for (int i = 0; i < 4; ++i)
        parts.emplace_back(100);
    // Uneven split, as event loops see different shares.
    for (size_t i = 0; i < stream.size(); ++i)
        parts[(i * 7) % 13 % 4].record(stream[i]);
    std::vector<const SpaceSaving*> ptrs;
    for (const auto& p : parts)
        ptrs.push_back(&p);
    SpaceSaving merged = SpaceSaving::merge(ptrs, 100);
    EXPECT_EQ(merged.total(), stream.size());
    EXPECT_EQ(merged.size(), 100u);
    for (const TopKEntry& e : merged.top(merged.size())) {
        uint64_t t = truth.count(e.key) ? truth.at(e.key) : 0;
        EXPECT_LE(t, e.count) << e.key;
        EXPECT_LE(e.count - e.error, t) << e.key;
    }
    for (const auto& [key, t] : truth) {
        if (t > merged.min_count()) {
            auto top = merged.top(merged.size());
            const auto& k = key;  // clang 14 cannot capture a structured binding
            EXPECT_TRUE(std::any_of(top.begin(), top.end(), [&](auto& e) { return e.key == k; }))
                << key;
        }
    }
    std::vector<std::string> got;
    for (const auto& e : merged.top(3))
        got.push_back(e.key);
    EXPECT_EQ(got, true_top(truth, 3));
}

TEST(SpaceSaving, MergeChargesAbsentKeysThePartsFloor) {
    SpaceSaving a(2);
    a.record("x", 5);
    a.record("y", 3);  // full, min 3
    SpaceSaving b(2);
    b.record("z", 4);  // not full, min 0
    SpaceSaving m = SpaceSaving::merge({&a, &b}, 3);
    auto top = m.top(3);
    ASSERT_EQ(top.size(), 3u);
    EXPECT_EQ(top[0], (TopKEntry{"z", "", 7, 3}));  // 4 in b, up to 3 unseen in a
    EXPECT_EQ(top[1], (TopKEntry{"x", "", 5, 0}));
    EXPECT_EQ(top[2], (TopKEntry{"y", "", 3, 0}));
}

TEST(SpaceSaving, MovedSketchKeepsWorking) {
    SpaceSaving a(2);
    a.record("p");
    a.record("q");
    SpaceSaving b(std::move(a));
    b.record("r");  // evicts through iterators that must still be valid
    b.record("p");
    SpaceSaving c(1);
    c = std::move(b);
    c.record("r", 10);
    auto top = c.top(2);
    ASSERT_EQ(top.size(), 2u);
    EXPECT_EQ(top[0].key, "r");
    EXPECT_EQ(top[0].count, 12u);
    c.clear();
    EXPECT_EQ(c.size(), 0u);
    c.record("s");
    EXPECT_EQ(c.top(1)[0].count, 1u);
}

TEST(SpaceSaving, ZeroCapacityActsAsOne) {
    SpaceSaving s(0);
    s.record("a");
    s.record("b");
    EXPECT_EQ(s.capacity(), 1u);
    EXPECT_EQ(s.top(5), (std::vector<TopKEntry>{{"b", "", 2, 1}}));
}

}  // namespace
}  // namespace tessel::diagnostics
