// The JSON reader and value_to_json / value_from_json.
#include <gtest/gtest.h>

#include "types/bytes_util.h"
#include "types/json.h"
#include "types_test_util.h"

namespace tessel {
namespace {

using namespace tessel::testing;
using K = Literal::Kind;

TEST(JsonParserTest, ParsesDocuments) {
    auto v = json::parse(R"( {"a": [1, -2.5e3, true, null], "b": "x\"\u00e9\ud83d\ude00"} )");
    ASSERT_TRUE(v.is_ok()) << v.status().message();
    ASSERT_EQ(v->kind, json::Value::Kind::kObject);
    ASSERT_EQ(v->members.size(), 2u);
    EXPECT_EQ(v->members[0].second.items[1].text, "-2.5e3");
    EXPECT_EQ(v->members[0].second.items[3].kind, json::Value::Kind::kNull);
    EXPECT_EQ(v->members[1].second.text, "x\"\xC3\xA9\xF0\x9F\x98\x80");
    for (const char* bad : {"", "{", "[1,]", "{\"a\" 1}", "01", "1.", "\"\\x\"", "tru", "[1] 2",
                            "\"\\ud800\"", "{1: 2}", "\"a\nb\""}) {
        EXPECT_FALSE(json::parse(bad).is_ok()) << bad;
    }
    std::string deep(1000, '[');
    EXPECT_FALSE(json::parse(deep + std::string(1000, ']')).is_ok());
}

TEST(JsonParserTest, ObjectToRawMembers) {
    auto r = json::parse_object_raw(R"({"k": 1, "v": {"x": [1, 2]}, "s": "a b" })");
    ASSERT_TRUE(r.is_ok());
    ASSERT_EQ(r->size(), 3u);
    EXPECT_EQ((*r)[0], (std::pair<std::string, std::string>{"k", "1"}));
    EXPECT_EQ((*r)[1].second, R"({"x": [1, 2]})");
    EXPECT_EQ((*r)[2].second, R"("a b")");
    EXPECT_FALSE(json::parse_object_raw("[1]").is_ok());
    EXPECT_TRUE(json::is_null(" null "));
    EXPECT_EQ(json::quote("a\"b\\\n\x01"), R"("a\"b\\\n\u0001")");
}

std::string ToJson(const TypePtr& t, const Literal& l) {
    return value_to_json(*t, V(t, l));
}

TEST(ValueJsonTest, ToJsonLikeCassandra) {
    EXPECT_EQ(ToJson(T(TypeKind::kVarchar), Str("it's \"q\"")), R"("it's \"q\"")");
    EXPECT_EQ(ToJson(T(TypeKind::kInt), Int("-5")), "-5");
    EXPECT_EQ(ToJson(T(TypeKind::kVarint), Int("123456789012345678901")), "123456789012345678901");
    EXPECT_EQ(ToJson(T(TypeKind::kDecimal), Flt("1.50")), "1.50");
    EXPECT_EQ(ToJson(T(TypeKind::kDouble), Flt("1.5")), "1.5");
    EXPECT_EQ(ToJson(T(TypeKind::kDouble), Int("2")), "2.0");
    EXPECT_EQ(ToJson(T(TypeKind::kDouble), Flt("1e20")), "1.0E20");
    EXPECT_EQ(ToJson(T(TypeKind::kFloat), Flt("0.1")), "0.1");
    EXPECT_EQ(ToJson(T(TypeKind::kDouble), Flt("NaN")), "null");
    EXPECT_EQ(ToJson(T(TypeKind::kBoolean), L(K::kBoolean, "true")), "true");
    EXPECT_EQ(ToJson(T(TypeKind::kBlob), L(K::kHex, "0xCAFE")), R"("0xcafe")");
    EXPECT_EQ(ToJson(T(TypeKind::kTimestamp), Int("1704164645123")),
              R"("2024-01-02 03:04:05.123Z")");
    EXPECT_EQ(ToJson(T(TypeKind::kDate), Str("2024-01-02")), R"("2024-01-02")");
    EXPECT_EQ(ToJson(T(TypeKind::kTime), Str("01:02:03")), R"("01:02:03.000000000")");
    EXPECT_EQ(ToJson(T(TypeKind::kUuid), L(K::kUuid, "550e8400-e29b-41d4-a716-446655440000")),
              R"("550e8400-e29b-41d4-a716-446655440000")");
    EXPECT_EQ(ToJson(T(TypeKind::kInet), Str("::1")), R"("0:0:0:0:0:0:0:1")");
    EXPECT_EQ(ToJson(T(TypeKind::kDuration), L(K::kDuration, "1h30m")), R"("1h30m")");
    auto m = map_type(T(TypeKind::kInt), T(TypeKind::kVarchar), false);
    EXPECT_EQ(ToJson(m, MapL({{Int("2"), Str("b")}, {Int("1"), Str("a")}})),
              R"({"1": "a", "2": "b"})");
    auto mt = map_type(T(TypeKind::kVarchar), list_type(T(TypeKind::kInt), true), false);
    EXPECT_EQ(ToJson(mt, MapL({{Str("k"), ListL({Int("1"), Int("2")})}})), R"({"k": [1, 2]})");
    auto tup = tuple_type({T(TypeKind::kInt), T(TypeKind::kVarchar)});
    EXPECT_EQ(ToJson(tup, TupleL({Int("1"), Literal::null()})), "[1, null]");
    auto addr = udt_type("ks", "address", {"street", "Zip"},
                         {T(TypeKind::kVarchar), T(TypeKind::kInt)}, false);
    EXPECT_EQ(ToJson(addr, UdtL({{"street", Str("x")}})), R"({"street": "x", "\"Zip\"": null})");
}

std::string FromJson(const TypePtr& t, std::string_view json) {
    auto r = value_from_json(*t, json);
    EXPECT_TRUE(r.is_ok()) << t->cql_name() << " <- " << json << ": "
                           << (r.is_ok() ? "" : r.status().message());
    return r.is_ok() ? format_value(*t, *r) : "";
}

TEST(ValueJsonTest, FromJson) {
    EXPECT_EQ(FromJson(T(TypeKind::kInt), "42"), "42");
    EXPECT_EQ(FromJson(T(TypeKind::kInt), "\"42\""), "42");
    EXPECT_FALSE(value_from_json(*T(TypeKind::kInt), "4.5").is_ok());
    EXPECT_EQ(value_from_json(*T(TypeKind::kInt), "3000000000").status().message(),
              "Expected an int value, but got a Long: 3000000000");
    EXPECT_EQ(value_from_json(*T(TypeKind::kTinyint), "128").status().message(),
              "Unable to make byte from '128'");
    EXPECT_EQ(value_from_json(*T(TypeKind::kSmallint), "\"32768\"").status().message(),
              "Unable to make short from '32768'");
    EXPECT_FALSE(value_from_json(*T(TypeKind::kBigint), "9223372036854775808").is_ok());
    EXPECT_EQ(value_from_json(*T(TypeKind::kInt), "\"notanint\"").status().message(),
              "Unable to make int from 'notanint'");
    EXPECT_EQ(value_from_json(*T(TypeKind::kDouble), "\"xyzz\"").status().message(),
              "Unable to make double from 'xyzz'");
    EXPECT_EQ(FromJson(T(TypeKind::kDouble), "\"NaN\""), "NaN");
    EXPECT_EQ(FromJson(T(TypeKind::kVarint), "\"1234567890123456789012345678901234567890\""),
              "1234567890123456789012345678901234567890");
    EXPECT_FALSE(value_from_json(*T(TypeKind::kVarint), "\"\"").is_ok());
    EXPECT_FALSE(value_from_json(*T(TypeKind::kVarint), "123.5").is_ok());
    EXPECT_EQ(FromJson(T(TypeKind::kDate), "\"1987-03-23\""), "1987-03-23");
    EXPECT_FALSE(value_from_json(*T(TypeKind::kDate), "123").is_ok());
    EXPECT_EQ(FromJson(T(TypeKind::kTime), "\"07:35:07.000111222\""), "07:35:07.000111222");
    EXPECT_FALSE(value_from_json(*T(TypeKind::kTime), "123456").is_ok());
    EXPECT_FALSE(value_from_json(*T(TypeKind::kTimestamp), "123.456").is_ok());
    EXPECT_FALSE(
        value_from_json(*T(TypeKind::kTimeuuid), "\"00000000-0000-0000-0000-000000000000\"")
            .is_ok());
    EXPECT_FALSE(value_from_json(*T(TypeKind::kAscii), "\"\\u2013\"").is_ok());
    EXPECT_EQ(FromJson(T(TypeKind::kDuration), "\"P2W\""), "14d");
    EXPECT_FALSE(value_from_json(*T(TypeKind::kInt), "null").is_ok());
    EXPECT_EQ(FromJson(T(TypeKind::kDouble), "1e3"), "1000");
    EXPECT_EQ(FromJson(T(TypeKind::kDecimal), "1.250"), "1.250");
    EXPECT_EQ(FromJson(T(TypeKind::kBoolean), "\"false\""), "False");
    EXPECT_EQ(FromJson(T(TypeKind::kBoolean), "\"TRUE\""), "True");
    EXPECT_FALSE(value_from_json(*T(TypeKind::kBoolean), "1").is_ok());
    EXPECT_EQ(FromJson(T(TypeKind::kVarchar), "\"\\u00e9\""), "\xC3\xA9");
    EXPECT_FALSE(value_from_json(*T(TypeKind::kVarchar), "1").is_ok());
    EXPECT_EQ(FromJson(T(TypeKind::kBlob), "\"0xcafe\""), "0xcafe");
    EXPECT_FALSE(value_from_json(*T(TypeKind::kBlob), "\"cafe\"").is_ok());
    EXPECT_EQ(FromJson(T(TypeKind::kTimestamp), "0"), "1970-01-01 00:00:00.000000+0000");
    EXPECT_EQ(FromJson(T(TypeKind::kTimestamp), "\"2024-01-02 03:04:05.123Z\""),
              "2024-01-02 03:04:05.123000+0000");
    EXPECT_EQ(FromJson(T(TypeKind::kUuid), "\"550e8400-e29b-41d4-a716-446655440000\""),
              "550e8400-e29b-41d4-a716-446655440000");
    auto s = set_type(T(TypeKind::kInt), false);
    EXPECT_EQ(FromJson(s, "[3, 1, 3]"), "{1, 3}");
    EXPECT_FALSE(value_from_json(*s, "[1, null]").is_ok());
    auto m = map_type(T(TypeKind::kInt), T(TypeKind::kVarchar), false);
    EXPECT_EQ(FromJson(m, R"({"2": "b", "1": "a"})"), "{1: 'a', 2: 'b'}");
    auto mu = map_type(T(TypeKind::kUuid), T(TypeKind::kInt), false);
    EXPECT_EQ(FromJson(mu, R"({"550e8400-e29b-41d4-a716-446655440000": 1})"),
              "{550e8400-e29b-41d4-a716-446655440000: 1}");
    auto tup = tuple_type({T(TypeKind::kInt), T(TypeKind::kVarchar)});
    EXPECT_EQ(FromJson(tup, R"([1, null])"), "(1, null)");
    EXPECT_FALSE(value_from_json(*tup, "[1, \"a\", 2]").is_ok());
    EXPECT_FALSE(value_from_json(*tup, "[1]").is_ok());  // fromJson wants every component
    auto addr = udt_type("ks", "address", {"street", "zip"},
                         {T(TypeKind::kVarchar), T(TypeKind::kInt)}, false);
    EXPECT_EQ(FromJson(addr, R"({"ZIP": 5})"), "{street: null, zip: 5}");
    auto bad = value_from_json(*addr, R"({"nope": 5})");
    ASSERT_FALSE(bad.is_ok());
    EXPECT_NE(bad.status().message().find("unrecognized field"), std::string::npos);
}

TEST(ValueJsonTest, RoundTrips) {
    std::vector<std::pair<TypePtr, Literal>> cases = {
        {T(TypeKind::kVarchar), Str("tab\there \"quoted\" \\ \xC3\xA9")},
        {T(TypeKind::kBigint), Int("-9223372036854775808")},
        {T(TypeKind::kDouble), Flt("-1.25e-7")},
        {T(TypeKind::kFloat), Flt("3.4028235e38")},
        {T(TypeKind::kDecimal), Flt("-1E+3")},
        {T(TypeKind::kTimestamp), Int("-86400001")},
        {T(TypeKind::kTime), Int("86399999999999")},
        {T(TypeKind::kInet), Str("2001:db8::ff00:42:8329")},
        {T(TypeKind::kDuration), L(K::kDuration, "-3mo2d10ns")},
        {list_type(T(TypeKind::kBlob), false), ListL({L(K::kHex, "0x00ff")})},
        {map_type(frozen_of(set_type(T(TypeKind::kInt), false)), T(TypeKind::kBoolean), false),
         MapL({{SetL({Int("2"), Int("1")}), L(K::kBoolean, "true")}})},
        {tuple_type({T(TypeKind::kDate), T(TypeKind::kTimeuuid)}),
         TupleL({Str("2024-02-29"), L(K::kUuid, "6ba7b810-9dad-11d1-80b4-00c04fd430c8")})},
    };
    for (const auto& [t, lit] : cases) {
        std::string v = V(t, lit);
        std::string j = value_to_json(*t, v);
        auto back = value_from_json(*t, j);
        ASSERT_TRUE(back.is_ok()) << t->cql_name() << " " << j << ": " << back.status().message();
        EXPECT_EQ(bytes::to_hex(*back), bytes::to_hex(v)) << t->cql_name() << " " << j;
    }
}

}  // namespace
}  // namespace tessel
