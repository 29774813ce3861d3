#include "partition/tablet_map.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include "partition/token.h"

namespace tessel {
namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

// A physical key of a hash table: the token prefix and some component bytes.
std::string key_at(int64_t token) {
    return encode_token_prefix(token) + "\x01pk";
}

TEST(TabletMapTest, InitialHashMapSplitsTheRingEvenly) {
    const auto m = TabletMap::initial_hash(4, 2, 1000);
    ASSERT_EQ(m.size(), 4u);
    EXPECT_TRUE(m.hashed());
    EXPECT_EQ(m.at(0).start, "");
    EXPECT_EQ(decode_token_prefix(m.at(1).start).value(), kMin / 2);
    EXPECT_EQ(decode_token_prefix(m.at(2).start).value(), 0);
    EXPECT_EQ(decode_token_prefix(m.at(3).start).value(), kMax / 2 + 1);
    EXPECT_EQ(m.at(0).shard, 0);
    EXPECT_EQ(m.at(1).shard, 1);
    EXPECT_EQ(m.at(2).shard, 0);
    EXPECT_EQ(m.at(3).created_ms, 1000);
    EXPECT_FALSE(m.end(3).has_value());
    EXPECT_EQ(m.end(0), m.at(1).start);
}

TEST(TabletMapTest, RoutesEveryTokenToTheTabletCoveringIt) {
    const auto m = TabletMap::initial_hash(4, 1, 0);
    EXPECT_EQ(m.find(""), 0u);
    EXPECT_EQ(m.find(key_at(kMin)), 0u);
    EXPECT_EQ(m.find(key_at(kMin / 2 - 1)), 0u);
    EXPECT_EQ(m.find(key_at(kMin / 2)), 1u);
    EXPECT_EQ(m.find(key_at(-1)), 1u);
    EXPECT_EQ(m.find(key_at(0)), 2u);
    EXPECT_EQ(m.find(encode_token_prefix(0)), 2u);  // a boundary belongs to the right
    EXPECT_EQ(m.find(key_at(kMax)), 3u);
    std::mt19937_64 rng(7);
    for (int i = 0; i < 1000; ++i) {
        const auto tok = static_cast<int64_t>(rng());
        const size_t t = m.find(key_at(tok));
        EXPECT_GE(key_at(tok), m.at(t).start);
        if (auto e = m.end(t)) {
            EXPECT_LT(key_at(tok), *e);
        }
    }
}

TEST(TabletMapTest, SplitAtTokenMidpointAndMergeBack) {
    auto m = TabletMap::initial_hash(2, 2, 0);
    const auto mid = m.token_midpoint(1);
    ASSERT_TRUE(mid.has_value());
    EXPECT_EQ(decode_token_prefix(*mid).value(), kMax / 2 + 1);
    ASSERT_TRUE(m.split(1, *mid, 2, 50).is_ok());
    ASSERT_EQ(m.size(), 3u);
    EXPECT_EQ(m.at(2).start, *mid);
    EXPECT_EQ(m.at(1).created_ms, 50);
    EXPECT_EQ(m.find(key_at(kMax)), 2u);
    EXPECT_EQ(m.find(key_at(1)), 1u);
    // Shards 0 and 1 hold one tablet each before: the new one goes to shard 0.
    EXPECT_EQ(m.at(2).shard, 0);
    ASSERT_TRUE(m.merge(1, 60).is_ok());
    ASSERT_EQ(m.size(), 2u);
    EXPECT_EQ(m.find(key_at(kMax)), 1u);
    EXPECT_EQ(m.at(1).created_ms, 60);
    EXPECT_FALSE(m.merge(1, 0).is_ok());
}

TEST(TabletMapTest, SplitKeyMustBeInsideTheTablet) {
    auto m = TabletMap::initial_hash(2, 1, 0);
    EXPECT_FALSE(m.split(0, "", 1, 0).is_ok());
    EXPECT_FALSE(m.split(0, m.at(1).start, 1, 0).is_ok());
    EXPECT_FALSE(m.split(1, m.at(1).start, 1, 0).is_ok());
    EXPECT_FALSE(m.split(5, "x", 1, 0).is_ok());
    EXPECT_EQ(m.size(), 2u);
}

TEST(TabletMapTest, SingleTokenTabletHasNoMidpoint) {
    auto m = TabletMap::initial_hash(1, 1, 0);
    ASSERT_TRUE(m.split(0, encode_token_prefix(5), 1, 0).is_ok());
    ASSERT_TRUE(m.split(1, encode_token_prefix(6), 1, 0).is_ok());
    EXPECT_FALSE(m.token_midpoint(1).has_value());  // [5, 6)
    EXPECT_TRUE(m.token_midpoint(2).has_value());
    EXPECT_TRUE(m.token_midpoint(0).has_value());
}

TEST(TabletMapTest, OrderedMapSplitsAtKeys) {
    // Composite keys as their memcomparable bytes: ("a", 1) < ("a", 2) < ("b", 0).
    const std::string a1(
        "\x01"
        "a\x00\x00\x01\x80\x00\x00\x01",
        9);
    const std::string a2(
        "\x01"
        "a\x00\x00\x01\x80\x00\x00\x02",
        9);
    const std::string b0(
        "\x01"
        "b\x00\x00\x01\x80\x00\x00\x00",
        9);
    auto m = TabletMap::initial_ordered(0);
    EXPECT_FALSE(m.hashed());
    ASSERT_EQ(m.size(), 1u);
    EXPECT_FALSE(m.token_midpoint(0).has_value());
    ASSERT_TRUE(m.split(0, a2, 1, 0).is_ok());
    EXPECT_EQ(m.find(a1), 0u);
    EXPECT_EQ(m.find(a2), 1u);
    EXPECT_EQ(m.find(b0), 1u);
    ASSERT_TRUE(m.split(1, b0, 1, 0).is_ok());
    EXPECT_EQ(m.find(a2), 1u);
    EXPECT_EQ(m.find(b0), 2u);
    EXPECT_EQ(m.find("\xff"), 2u);
}

TEST(TabletMapTest, EncodeDecodeRoundTrip) {
    auto m = TabletMap::initial_hash(4, 3, 123456789);
    ASSERT_TRUE(m.split(2, *m.token_midpoint(2), 3, 987654321).is_ok());
    auto back = TabletMap::decode(m.encode());
    ASSERT_TRUE(back.is_ok()) << back.status().to_string();
    EXPECT_EQ(*back, m);

    auto o = TabletMap::initial_ordered(5);
    ASSERT_TRUE(o.split(0, std::string("\x01k\x00\x00", 4), 1, 6).is_ok());
    auto oback = TabletMap::decode(o.encode());
    ASSERT_TRUE(oback.is_ok());
    EXPECT_EQ(*oback, o);
}

TEST(TabletMapTest, DecodeRejectsDamagedRecords) {
    const std::string good = TabletMap::initial_hash(4, 1, 0).encode();
    for (size_t n = 0; n < good.size(); ++n) {
        EXPECT_FALSE(TabletMap::decode(good.substr(0, n)).is_ok()) << n;
    }
    EXPECT_FALSE(TabletMap::decode(good + "x").is_ok());
    std::string bad_version = good;
    bad_version[0] = 9;
    EXPECT_FALSE(TabletMap::decode(bad_version).is_ok());
    // Swap two boundaries: out of order.
    auto m = TabletMap::initial_hash(3, 1, 0);
    std::string enc = m.encode();
    const std::string b1 = m.at(1).start, b2 = m.at(2).start;
    enc.replace(enc.find(b1), 8, b2);
    enc.replace(enc.rfind(b2), 8, b1);
    auto d = TabletMap::decode(enc);
    EXPECT_FALSE(d.is_ok());
    std::mt19937 rng(3);
    for (int i = 0; i < 2000; ++i) {
        std::string junk = good;
        junk[rng() % junk.size()] = static_cast<char>(rng());
        auto r = TabletMap::decode(junk);  // must not crash; may be valid
        if (r.is_ok()) {
            EXPECT_EQ(r->at(0).start, "");
        }
    }
}

}  // namespace
}  // namespace tessel
