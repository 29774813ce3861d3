#include <gtest/gtest.h>

#include <set>

#include "types/bytes_util.h"
#include "types/time_functions.h"
#include "types/uuid.h"
#include "types_test_util.h"

namespace tessel {
namespace {

using namespace tessel::testing;

TEST(TimeFunctionsTest, NowIsVersion1AndIncreasing) {
    auto tu = T(TypeKind::kTimeuuid);
    std::string prev = timefn::now_timeuuid();
    int64_t before = timefn::current_millis();
    for (int i = 0; i < 2000; ++i) {
        std::string next = timefn::now_timeuuid();
        ASSERT_TRUE(validate_value(*tu, next).is_ok());
        ASSERT_LT(compare_values(*tu, prev, next), 0);
        prev = next;
    }
    auto ms = timefn::timeuuid_to_millis(prev);
    ASSERT_TRUE(ms.is_ok());
    EXPECT_GE(*ms, before - 1000);
    EXPECT_LE(*ms, timefn::current_millis() + 1000);
}

TEST(TimeFunctionsTest, RandomUuidIsVersion4) {
    std::set<std::string> seen;
    for (int i = 0; i < 100; ++i) {
        std::string u = timefn::random_uuid();
        EXPECT_EQ(uuid::version(u), 4);
        EXPECT_EQ(static_cast<uint8_t>(u[8]) & 0xC0, 0x80);
        seen.insert(u);
    }
    EXPECT_EQ(seen.size(), 100u);
}

TEST(TimeFunctionsTest, MinMaxTimeuuidBracketTheMillisecond) {
    auto tu = T(TypeKind::kTimeuuid);
    int64_t ms = 1704164645123;
    std::string lo = timefn::min_timeuuid(ms), hi = timefn::max_timeuuid(ms);
    EXPECT_TRUE(validate_value(*tu, lo).is_ok());
    EXPECT_TRUE(validate_value(*tu, hi).is_ok());
    EXPECT_EQ(*timefn::timeuuid_to_millis(lo), ms);
    EXPECT_EQ(*timefn::timeuuid_to_millis(hi), ms);
    std::string inside = timefn::make_timeuuid(
        static_cast<uint64_t>(ms * 10000 + uuid::kGregorianOffset + 5), 0x8123456789ABCDEFULL);
    EXPECT_LT(compare_values(*tu, lo, inside), 0);
    EXPECT_LT(compare_values(*tu, inside, hi), 0);
    EXPECT_LT(compare_values(*tu, hi, timefn::min_timeuuid(ms + 1)), 0);
    EXPECT_EQ(format_value(*tu, timefn::min_timeuuid(0)), "13814000-1dd2-11b2-8080-808080808080");
    EXPECT_EQ(format_value(*tu, timefn::max_timeuuid(0)), "1381670f-1dd2-11b2-7f7f-7f7f7f7f7f7f");
}

TEST(TimeFunctionsTest, Conversions) {
    int64_t ms = 1704164645123;  // 2024-01-02 03:04:05.123
    std::string ts = timefn::timestamp_value(ms);
    auto d = timefn::to_date(timefn::TimeInput::kTimestamp, ts);
    ASSERT_TRUE(d.is_ok());
    EXPECT_EQ(format_value(*T(TypeKind::kDate), *d), "2024-01-02");
    auto back = timefn::to_timestamp(timefn::TimeInput::kDate, *d);
    EXPECT_EQ(format_value(*T(TypeKind::kTimestamp), *back), "2024-01-02 00:00:00.000000+0000");
    auto unix_ms =
        timefn::to_unix_timestamp(timefn::TimeInput::kTimeuuid, timefn::min_timeuuid(ms));
    EXPECT_EQ(bytes::read_i64(*unix_ms), ms);
    EXPECT_EQ(format_value(*T(TypeKind::kDate), timefn::date_from_millis(-1)), "1969-12-31");
    EXPECT_FALSE(timefn::to_date(timefn::TimeInput::kTimeuuid, timefn::random_uuid()).is_ok());
    EXPECT_FALSE(timefn::to_timestamp(timefn::TimeInput::kDate, "abc").is_ok());
    EXPECT_TRUE(validate_value(*T(TypeKind::kTime), timefn::current_time()).is_ok());
    EXPECT_EQ(timefn::current_date().size(), 4u);
}

}  // namespace
}  // namespace tessel
