#include <gtest/gtest.h>

#include "types/bytes_util.h"
#include "types/duration.h"
#include "types_test_util.h"

namespace tessel {
namespace {

using namespace tessel::testing;
using duration::Duration;

Duration P(std::string_view text) {
    auto r = duration::parse(text);
    EXPECT_TRUE(r.is_ok()) << text << ": " << (r.is_ok() ? "" : r.status().message());
    return r.is_ok() ? *r : Duration{};
}

void ExpectDuration(std::string_view text, int32_t months, int32_t days, int64_t nanos) {
    Duration d = P(text);
    EXPECT_EQ(d.months, months) << text;
    EXPECT_EQ(d.days, days) << text;
    EXPECT_EQ(d.nanos, nanos) << text;
}

constexpr int64_t kHour = 3600LL * 1000000000LL;

TEST(DurationTest, StandardFormat) {
    ExpectDuration("1h30m", 0, 0, kHour + 30 * 60000000000LL);
    ExpectDuration("1y2mo3w4d5h6m7s8ms9us10ns", 14, 25,
                   5 * kHour + 6 * 60000000000LL + 7000000000LL + 8000000 + 9000 + 10);
    ExpectDuration("2MO", 2, 0, 0);
    ExpectDuration("3\xC2\xB5s", 0, 0, 3000);
    ExpectDuration("-1d", 0, -1, 0);
    ExpectDuration("0s", 0, 0, 0);
    EXPECT_FALSE(duration::parse("1m1h").is_ok());  // units out of order
    EXPECT_FALSE(duration::parse("1h1h").is_ok());
    EXPECT_FALSE(duration::parse("1x").is_ok());
    EXPECT_FALSE(duration::parse("h").is_ok());
    EXPECT_FALSE(duration::parse("").is_ok());
    EXPECT_FALSE(duration::parse("3000000000mo").is_ok());
    EXPECT_EQ(duration::parse("1m1h").status().message(),
              "Invalid duration. The hours are specified after the minutes");
}

TEST(DurationTest, IsoFormats) {
    ExpectDuration("P1Y2M3DT4H5M6S", 14, 3, 4 * kHour + 5 * 60000000000LL + 6000000000LL);
    ExpectDuration("PT1M", 0, 0, 60000000000LL);
    ExpectDuration("P1M", 1, 0, 0);
    ExpectDuration("P2W", 0, 14, 0);
    ExpectDuration("-P1D", 0, -1, 0);
    ExpectDuration("P0001-02-03T04:05:06", 14, 3, 4 * kHour + 5 * 60000000000LL + 6000000000LL);
    EXPECT_FALSE(duration::parse("P").is_ok());
    EXPECT_FALSE(duration::parse("PT").is_ok());
    EXPECT_FALSE(duration::parse("P1H").is_ok());
    EXPECT_FALSE(duration::parse("P1D2Y").is_ok());
}

TEST(DurationTest, ToStringLikeCassandra) {
    EXPECT_EQ(duration::to_string(P("1h30m")), "1h30m");
    EXPECT_EQ(duration::to_string(P("1y2mo3d4h5m6s7ms8us9ns")), "1y2mo3d4h5m6s7ms8us9ns");
    EXPECT_EQ(duration::to_string(P("14mo")), "1y2mo");
    EXPECT_EQ(duration::to_string(P("90m")), "1h30m");
    EXPECT_EQ(duration::to_string(P("-2w")), "-14d");
    EXPECT_EQ(duration::to_string(P("0s")), "");
}

TEST(DurationTest, WireEncoding) {
    EXPECT_EQ(duration::encode(Duration{1, 2, 3}), B({0x02, 0x04, 0x06}));
    EXPECT_EQ(duration::encode(Duration{-1, 0, 0}), B({0x01, 0x00, 0x00}));
    // 1h = 3.6e12 ns -> zig-zag 7.2e12 needs a multi-byte vint.
    std::string enc = duration::encode(Duration{0, 0, kHour});
    auto back = duration::decode(enc);
    ASSERT_TRUE(back.is_ok());
    EXPECT_EQ(back->nanos, kHour);
    for (int64_t v :
         std::vector<int64_t>{0, 1, -1, 63, 64, -65, int64_t{1} << 40, INT64_MAX, INT64_MIN}) {
        Duration d{0, 0, v};
        auto r = duration::decode(duration::encode(d));
        ASSERT_TRUE(r.is_ok()) << v;
        EXPECT_EQ(r->nanos, v);
    }
    EXPECT_FALSE(duration::decode(B({0x02, 0x04})).is_ok());              // too short
    EXPECT_FALSE(duration::decode(B({0x02, 0x01, 0x00})).is_ok());        // mixed signs
    EXPECT_FALSE(duration::decode(B({0x02, 0x04, 0x06, 0x00})).is_ok());  // trailing
    EXPECT_FALSE(duration::decode(B({0x02, 0x04, 0xC0})).is_ok());        // truncated vint
    auto t = T(TypeKind::kDuration);
    EXPECT_EQ(format_value(*t, V(t, Str("P1DT1H"))), "1d1h");
    EXPECT_EQ(format_cql_literal(*t, V(t, L(Literal::Kind::kDuration, "-1h"))), "-1h");
    EXPECT_EQ(format_cql_literal(*t, duration::encode(Duration{})), "0s");
}

}  // namespace
}  // namespace tessel
