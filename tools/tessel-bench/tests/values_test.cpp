#include "values.h"

#include <gtest/gtest.h>

#include <set>

namespace tessel::bench {
namespace {

std::string hex(const std::string& s) {
    static const char* d = "0123456789abcdef";
    std::string out;
    for (unsigned char c : s) {
        out += d[c >> 4];
        out += d[c & 15];
    }
    return out;
}

TEST(EncodeCql, IntegersAreBigEndian) {
    EXPECT_EQ(hex(encode_cql(Value::bigint(1))), "0000000000000001");
    EXPECT_EQ(hex(encode_cql(Value::bigint(-1))), "ffffffffffffffff");
    EXPECT_EQ(hex(encode_cql(Value::int32(258))), "00000102");
    EXPECT_EQ(hex(encode_cql(Value::timestamp_ms(1000))), "00000000000003e8");
}

TEST(EncodeCql, DateIsCentredOnTwoToThe31) {
    EXPECT_EQ(hex(encode_cql(Value::date_days(0))), "80000000");  // 1970-01-01
    EXPECT_EQ(hex(encode_cql(Value::date_days(-1))), "7fffffff");
}

TEST(EncodeCql, DoubleIsIeeeBigEndian) {
    EXPECT_EQ(hex(encode_cql(Value::float64(1.0))), "3ff0000000000000");
}

TEST(EncodePg, TimestampAndDateCountFrom2000) {
    // 2000-01-01T00:00:00Z is 946684800000 ms after the Unix epoch.
    EXPECT_EQ(hex(encode_pg_binary(Value::timestamp_ms(946684800000LL))), "0000000000000000");
    EXPECT_EQ(hex(encode_pg_binary(Value::timestamp_ms(946684800001LL))), "00000000000003e8");
    EXPECT_EQ(hex(encode_pg_binary(Value::date_days(10957))), "00000000");
    EXPECT_EQ(hex(encode_pg_binary(Value::date_days(10958))), "00000001");
    EXPECT_EQ(encode_pg_binary(Value::blob("ab")), "ab");
}

TEST(Timeuuid, IsVersionOneAndDistinct) {
    std::set<std::string> seen;
    for (uint32_t seq = 0; seq < 30000; ++seq) {
        std::string u = make_timeuuid(1700000000000LL, seq, 0x123456789abcULL);
        ASSERT_EQ(u.size(), 16u);
        EXPECT_EQ(static_cast<uint8_t>(u[6]) >> 4, 1);       // version 1
        EXPECT_EQ(static_cast<uint8_t>(u[8]) & 0xc0, 0x80);  // RFC 4122 variant
        seen.insert(u);
    }
    EXPECT_EQ(seen.size(), 30000u);
}

TEST(Timeuuid, EncodesTheMillisecond) {
    // Reassemble the 60-bit timestamp and convert back to Unix ms.
    std::string u = make_timeuuid(1700000000123LL, 0, 1);
    uint64_t time_low = get_be64(std::string(4, '\0') + u.substr(0, 4));
    uint64_t mid = (static_cast<uint8_t>(u[4]) << 8) | static_cast<uint8_t>(u[5]);
    uint64_t hi = ((static_cast<uint8_t>(u[6]) & 0x0f) << 8) | static_cast<uint8_t>(u[7]);
    uint64_t ticks = (hi << 48) | (mid << 32) | time_low;
    EXPECT_EQ((ticks - 0x01B21DD213814000ULL) / 10000, 1700000000123ULL);
}

TEST(KeyScatter, IsABijectionOfTheKeySpace) {
    for (uint64_t n : {1ULL, 2ULL, 10ULL, 1000ULL, 4096ULL, 99991ULL}) {
        KeyScatter s(n);
        std::set<uint64_t> keys;
        for (uint64_t i = 0; i < n; ++i) {
            uint64_t k = s(i);
            ASSERT_LT(k, n);
            keys.insert(k);
        }
        EXPECT_EQ(keys.size(), n) << n;
        EXPECT_EQ(s(n), s(0));  // wraps around
    }
}

TEST(KeyScatter, ScattersConsecutiveSequenceNumbers) {
    KeyScatter s(1000000);
    EXPECT_NE(s(1), s(0) + 1);
}

TEST(Payload, IsDeterministicPerKey) {
    EXPECT_EQ(payload_for(7, 100), payload_for(7, 100));
    EXPECT_NE(payload_for(7, 100), payload_for(8, 100));
    EXPECT_EQ(payload_for(7, 100).size(), 100u);
    EXPECT_EQ(payload_for(7, 3).size(), 3u);
}

}  // namespace
}  // namespace tessel::bench
