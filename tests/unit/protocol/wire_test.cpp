#include "protocol/wire.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

namespace tessel::protocol {
namespace {

using namespace std::string_literals;
using namespace std::string_view_literals;

TEST(WireTest, IntegersAreBigEndian) {
    WireWriter w;
    w.write_byte(0xAB);
    w.write_short(0x0102);
    w.write_int(-2);
    w.write_long(0x0102030405060708LL);
    EXPECT_EQ(w.data(), "\xAB\x01\x02\xFF\xFF\xFF\xFE\x01\x02\x03\x04\x05\x06\x07\x08"s);
    WireReader r(w.data());
    EXPECT_EQ(*r.read_byte(), 0xAB);
    EXPECT_EQ(*r.read_short(), 0x0102);
    EXPECT_EQ(*r.read_int(), -2);
    EXPECT_EQ(*r.read_long(), 0x0102030405060708LL);
    EXPECT_TRUE(r.at_end());
}

TEST(WireTest, IntegerExtremesRoundTrip) {
    WireWriter w;
    w.write_short(0xFFFF);
    w.write_int(std::numeric_limits<int32_t>::min());
    w.write_int(std::numeric_limits<int32_t>::max());
    w.write_long(std::numeric_limits<int64_t>::min());
    w.write_long(-1);
    WireReader r(w.data());
    EXPECT_EQ(*r.read_short(), 0xFFFF);
    EXPECT_EQ(*r.read_int(), std::numeric_limits<int32_t>::min());
    EXPECT_EQ(*r.read_int(), std::numeric_limits<int32_t>::max());
    EXPECT_EQ(*r.read_long(), std::numeric_limits<int64_t>::min());
    EXPECT_EQ(*r.read_long(), -1);
}

TEST(WireTest, StringsAndBytes) {
    WireWriter w;
    w.write_string("héllo");
    w.write_long_string("SELECT * FROM t");
    w.write_bytes("\x00\x01"s);
    w.write_bytes(std::nullopt);
    w.write_bytes(""s);
    w.write_short_bytes("id");
    EXPECT_EQ(w.data().substr(0, 8), "\x00\x06h\xC3\xA9llo"s);
    WireReader r(w.data());
    EXPECT_EQ(*r.read_string(), "héllo");
    EXPECT_EQ(*r.read_long_string(), "SELECT * FROM t");
    auto b = r.read_bytes();
    ASSERT_TRUE(b.is_ok());
    ASSERT_TRUE(b->has_value());
    EXPECT_EQ(**b, "\x00\x01"s);
    auto null = r.read_bytes();
    ASSERT_TRUE(null.is_ok());
    EXPECT_FALSE(null->has_value());
    auto empty = r.read_bytes();
    ASSERT_TRUE(empty.is_ok() && empty->has_value());
    EXPECT_EQ(**empty, "");
    EXPECT_EQ(*r.read_short_bytes(), "id");
    EXPECT_TRUE(r.at_end());
}

TEST(WireTest, LongStringsAreCutAtACharacterBoundary) {
    // 65,535 bytes fit in a [string]; two-byte characters from offset 2 put a
    // sequence across that limit, which must not be split.
    std::string s = "ab";
    for (int i = 0; i < 40000; ++i)
        s += "\xD7\xA2";
    WireWriter w;
    w.write_string(s);
    WireReader r(w.data());
    auto read = r.read_string();
    ASSERT_TRUE(read.is_ok());
    EXPECT_EQ(read->size(), 65534u);
    EXPECT_EQ(*read, s.substr(0, 65534));
}

TEST(WireTest, ValuesNullUnsetAndErrors) {
    WireWriter w;
    w.write_value(BoundValue::of("abc"));
    w.write_value(BoundValue::null());
    w.write_value(BoundValue::unset());
    w.write_value(BoundValue::of(""));
    EXPECT_EQ(w.data(),
              "\x00\x00\x00\x03"
              "abc"
              "\xFF\xFF\xFF\xFF"
              "\xFF\xFF\xFF\xFE"
              "\x00\x00\x00\x00"s);
    WireReader r(w.data());
    EXPECT_EQ(*r.read_value(4), BoundValue::of("abc"));
    EXPECT_EQ(*r.read_value(4), BoundValue::null());
    EXPECT_EQ(*r.read_value(4), BoundValue::unset());
    EXPECT_EQ(*r.read_value(4), BoundValue::of(""));

    WireReader bad("\xFF\xFF\xFF\xFD"sv);
    auto v = bad.read_value(4);
    ASSERT_FALSE(v.is_ok());
    EXPECT_EQ(v.status().code(), ErrorCode::kProtocolError);
    EXPECT_EQ(v.status().message(), "Invalid length for value: -3");

    // v3 has no unset: every negative length is null.
    WireReader v3("\xFF\xFF\xFF\xFE\xFF\xFF\xFF\xF0"sv);
    EXPECT_EQ(*v3.read_value(3), BoundValue::null());
    EXPECT_EQ(*v3.read_value(3), BoundValue::null());
}

TEST(WireTest, CollectionsRoundTrip) {
    const std::vector<std::string> list = {"TOPOLOGY_CHANGE", "", "SCHEMA_CHANGE"};
    const StringMap map = {{"CQL_VERSION", "3.0.0"}, {"DRIVER_NAME", "x"}};
    const StringMultimap multimap = {
        {"COMPRESSION", {}}, {"CQL_VERSION", {"3.4.4"}}, {"PROTOCOL_VERSIONS", {"3/v3", "4/v4"}}};
    const BytesMap bytes_map = {{"a", "\x00\x01"s}, {"null", std::nullopt}, {"empty", ""s}};
    WireWriter w;
    w.write_string_list(list);
    w.write_string_map(map);
    w.write_string_multimap(multimap);
    w.write_bytes_map(bytes_map);
    WireReader r(w.data());
    EXPECT_EQ(*r.read_string_list(), list);
    EXPECT_EQ(*r.read_string_map(), map);
    EXPECT_EQ(*r.read_string_multimap(), multimap);
    EXPECT_EQ(*r.read_bytes_map(), bytes_map);
    EXPECT_TRUE(r.at_end());
}

TEST(WireTest, InetUuidConsistency) {
    const Inet v4{"\x7F\x00\x00\x01"s, 9042};
    const Inet v6{std::string(15, '\0') + "\x01", 7000};
    Uuid uuid;
    for (size_t i = 0; i < uuid.size(); ++i)
        uuid[i] = static_cast<uint8_t>(i * 17);
    WireWriter w;
    w.write_inet(v4);
    w.write_inet(v6);
    w.write_uuid(uuid);
    w.write_consistency(static_cast<uint16_t>(Consistency::kLocalOne));
    EXPECT_EQ(w.data().substr(0, 9), "\x04\x7F\x00\x00\x01\x00\x00\x23\x52"s);
    WireReader r(w.data());
    EXPECT_EQ(*r.read_inet(), v4);
    EXPECT_EQ(*r.read_inet(), v6);
    EXPECT_EQ(*r.read_uuid(), uuid);
    EXPECT_EQ(*r.read_consistency(), 0x000A);
    EXPECT_TRUE(r.at_end());

    WireReader bad("\x05\x01\x02\x03\x04\x05\x00\x00\x00\x00"sv);
    EXPECT_FALSE(bad.read_inet().is_ok());
    EXPECT_EQ(consistency_name(0x0006), "LOCAL_QUORUM");
    EXPECT_EQ(consistency_name(0x0042), "UNKNOWN");
}

TEST(WireTest, EveryTruncationFailsCleanly) {
    WireWriter w;
    w.write_string("key");
    w.write_long_string("query");
    w.write_bytes("bytes"s);
    w.write_string_list({"a", "b"});
    w.write_string_multimap({{"k", {"v1", "v2"}}});
    w.write_bytes_map({{"k", "v"s}});
    w.write_inet({"\x01\x02\x03\x04"s, 1});
    w.write_uuid(Uuid{});
    w.write_long(5);
    const std::string full = w.data();
    auto read_all = [](std::string_view data) -> Status {
        WireReader r(data);
        TESSEL_RETURN_IF_ERROR(r.read_string());
        TESSEL_RETURN_IF_ERROR(r.read_long_string());
        TESSEL_RETURN_IF_ERROR(r.read_bytes());
        TESSEL_RETURN_IF_ERROR(r.read_string_list());
        TESSEL_RETURN_IF_ERROR(r.read_string_multimap());
        TESSEL_RETURN_IF_ERROR(r.read_bytes_map());
        TESSEL_RETURN_IF_ERROR(r.read_inet());
        TESSEL_RETURN_IF_ERROR(r.read_uuid());
        TESSEL_RETURN_IF_ERROR(r.read_long());
        return Status::ok();
    };
    EXPECT_TRUE(read_all(full).is_ok());
    for (size_t n = 0; n < full.size(); ++n) {
        Status st = read_all(std::string_view(full).substr(0, n));
        ASSERT_FALSE(st.is_ok()) << n;
        EXPECT_EQ(st.code(), ErrorCode::kProtocolError);
    }
}

TEST(WireTest, LyingLengthsAreRejectedWithoutReading) {
    WireReader big_bytes(
        "\x7F\xFF\xFF\xFF"
        "abc"sv);
    auto b = big_bytes.read_bytes();
    ASSERT_FALSE(b.is_ok());
    EXPECT_NE(b.status().message().find("Not enough bytes to read a [bytes]"), std::string::npos);
    WireReader neg_long_string("\xFF\xFF\xFF\xFF"sv);
    EXPECT_FALSE(neg_long_string.read_long_string().is_ok());
    // 65535 list elements announced, none present.
    WireReader list("\xFF\xFF"sv);
    EXPECT_FALSE(list.read_string_list().is_ok());
    WireReader map("\xFF\xFF\x00\x00"sv);
    EXPECT_FALSE(map.read_string_map().is_ok());
    WireReader bytes_map("\xFF\xFF"sv);
    EXPECT_FALSE(bytes_map.read_bytes_map().is_ok());
}

TEST(WireTest, OverlongStringsAreCutToTheirField) {
    WireWriter w;
    w.write_string(std::string(70000, 'x'));
    EXPECT_EQ(w.size(), 2u + 65535u);
    WireReader r(w.data());
    EXPECT_EQ(r.read_string()->size(), 65535u);
}

}  // namespace
}  // namespace tessel::protocol
