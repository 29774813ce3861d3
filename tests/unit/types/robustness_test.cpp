// Hostile input never crashes: random bytes through every entry point, and
// every value that validates survives printing, JSON and key round trips.
#include <gtest/gtest.h>

#include "random_values.h"
#include "types/json.h"
#include "types_test_util.h"

namespace tessel {
namespace {

using namespace tessel::testing;

std::vector<TypePtr> all_types() {
    std::vector<TypePtr> out;
    for (TypeKind k :
         {TypeKind::kAscii,   TypeKind::kBigint,    TypeKind::kBlob,    TypeKind::kBoolean,
          TypeKind::kCounter, TypeKind::kDecimal,   TypeKind::kDouble,  TypeKind::kFloat,
          TypeKind::kInt,     TypeKind::kTimestamp, TypeKind::kUuid,    TypeKind::kVarchar,
          TypeKind::kVarint,  TypeKind::kTimeuuid,  TypeKind::kInet,    TypeKind::kDate,
          TypeKind::kTime,    TypeKind::kSmallint,  TypeKind::kTinyint, TypeKind::kDuration}) {
        out.push_back(native_type(k));
    }
    auto i = native_type(TypeKind::kInt);
    out.push_back(list_type(i, false));
    out.push_back(map_type(native_type(TypeKind::kVarchar), i, false));
    out.push_back(tuple_type({i, native_type(TypeKind::kBlob)}));
    out.push_back(udt_type("ks", "u", {"a"}, {native_type(TypeKind::kDecimal)}, false));
    return out;
}

TEST(RobustnessTest, RandomBytesEverywhere) {
    Rng rng(31337);
    int valid = 0;
    for (const auto& t : all_types()) {
        for (int n = 0; n < 400; ++n) {
            std::string junk = random_bytes(rng, rng() % 20);
            if (rng() % 3 == 0 && junk.size() >= 4) {  // plausible collection headers
                junk[0] = junk[1] = junk[2] = 0;
                junk[3] = static_cast<char>(rng() % 3);
            }
            (void)format_value(*t, junk);
            (void)format_cql_literal(*t, junk);
            (void)value_to_json(*t, junk);
            std::string key;
            encode_key(*t, junk, rng() % 2 == 0, &key);
            if (!validate_value(*t, junk).is_ok()) continue;
            ++valid;
            EXPECT_EQ(compare_values(*t, junk, junk), 0);
            for (bool desc : {false, true}) {
                std::string k;
                encode_key(*t, junk, desc, &k);
                std::string_view in = k;
                auto back = decode_key(*t, &in, desc);
                ASSERT_TRUE(back.is_ok()) << t->cql_name() << " " << bytes::to_hex(junk);
                EXPECT_EQ(compare_values(*t, *back, junk), 0);
            }
            auto j = value_from_json(*t, value_to_json(*t, junk));
            if (j.is_ok()) {
                EXPECT_TRUE(validate_value(*t, *j).is_ok());
            }
        }
    }
    EXPECT_GT(valid, 1000);  // the loop really exercised valid values
}

TEST(RobustnessTest, RandomJsonText) {
    Rng rng(4242);
    const std::string alphabet = "{}[]\",:0123456789.eE+-tfnrul\\ abc";
    for (int n = 0; n < 5000; ++n) {
        std::string text;
        size_t len = rng() % 30;
        for (size_t i = 0; i < len; ++i)
            text.push_back(alphabet[rng() % alphabet.size()]);
        auto v = json::parse(text);
        if (v.is_ok()) {
            EXPECT_TRUE(json::parse(json::serialize(*v)).is_ok()) << text;
        }
        (void)json::parse_object_raw(text);
        for (const auto& t : all_types())
            (void)value_from_json(*t, text);
    }
}

}  // namespace
}  // namespace tessel

namespace tessel {
namespace {

// A decimal key: tag 0x01, class 2 (positive), 8-byte exponent (sign bit
// flipped), digit pairs (value+1) ending in 0x00, 4-byte scale (sign flipped).
std::string corrupt_decimal_key(uint64_t exponent_bits, uint32_t scale_bits) {
    std::string k = {'\x01', '\x02'};
    for (int i = 7; i >= 0; --i)
        k.push_back(static_cast<char>(exponent_bits >> (8 * i)));
    k.push_back('\x0b');  // digits "10" -> "1"
    k.push_back('\x00');
    for (int i = 3; i >= 0; --i)
        k.push_back(static_cast<char>(scale_bits >> (8 * i)));
    return k;
}

TEST(KeyRobustness, CorruptDecimalKeysFailFastWithoutOverflow) {
    auto dec = native_type(TypeKind::kDecimal);
    // Exponent INT64_MIN: "exponent - digits" used to overflow.
    std::string a = corrupt_decimal_key(0, 0x80000000u);
    std::string_view in = a;
    EXPECT_FALSE(decode_key(*dec, &in, false).is_ok());
    // Huge exponent plus the largest scale: "... + scale" used to overflow.
    std::string b = corrupt_decimal_key(0xfffffffffffffffdULL, 0xffffffffu);  // exponent 2^63-3
    in = b;
    EXPECT_FALSE(decode_key(*dec, &in, false).is_ok());
    // Sixteen million trailing zeros: used to run a quadratic conversion for minutes.
    std::string c = corrupt_decimal_key((uint64_t{1} << 63) + 16000000, 0x80000000u);
    in = c;
    EXPECT_FALSE(decode_key(*dec, &in, false).is_ok());
}

TEST(KeyRobustness, DecimalKeysStillRoundTrip) {
    auto dec = native_type(TypeKind::kDecimal);
    for (const char* text : {"1e+1000", "-123.456", "0.000001", "100000"}) {
        auto v = value_from_literal(*dec, Literal::scalar(Literal::Kind::kFloat, text));
        ASSERT_TRUE(v.is_ok()) << text;
        std::string key;
        encode_key(*dec, *v, false, &key);
        std::string_view in = key;
        auto back = decode_key(*dec, &in, false);
        ASSERT_TRUE(back.is_ok()) << text;
        EXPECT_EQ(*back, *v) << text;
    }
}

}  // namespace
}  // namespace tessel
