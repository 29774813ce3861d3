// Property tests of the key encoding: round trip, self-delimiting, and memcmp
// order equal to compare_values order, ascending and descending, for every key type.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "random_values.h"
#include "types/bytes_util.h"
#include "types/collection.h"
#include "types/duration.h"
#include "types/varint.h"
#include "types_test_util.h"

namespace tessel {
namespace {

using namespace tessel::testing;
int sgn(int v) {
    return v < 0 ? -1 : (v > 0 ? 1 : 0);
}

bool is_nan_value(const CqlType& t, std::string_view v) {
    if (t.kind == TypeKind::kFloat && v.size() == 4) {
        uint32_t b = bytes::read_u32(v);
        return (b & 0x7F800000u) == 0x7F800000u && (b & 0x7FFFFFu) != 0;
    }
    if (t.kind == TypeKind::kDouble && v.size() == 8) {
        uint64_t b = bytes::read_u64(v);
        return (b & 0x7FF0000000000000ULL) == 0x7FF0000000000000ULL &&
               (b & 0xFFFFFFFFFFFFFULL) != 0;
    }
    return false;
}

// Whether the bytes of two values that compare equal may still differ in keys
// (decimal scale is kept as a tie-breaker so keys round-trip).
bool may_tie_with_different_keys(const CqlType& t) {
    if (t.kind == TypeKind::kDecimal) return true;
    for (const auto& p : t.params) {
        if (may_tie_with_different_keys(*p)) return true;
    }
    return false;
}

bool has_float(const CqlType& t) {
    if (t.kind == TypeKind::kFloat || t.kind == TypeKind::kDouble) return true;
    for (const auto& p : t.params) {
        if (has_float(*p)) return true;
    }
    return false;
}

std::string enc(const CqlType& t, std::string_view v, bool desc) {
    std::string out;
    encode_key(t, v, desc, &out);
    return out;
}

void check_type(const TypePtr& type, uint64_t seed) {
    const CqlType& t = *type;
    SCOPED_TRACE(t.cql_name());
    Rng rng(seed);
    std::vector<std::string> pool;
    for (int i = 0; i < 150; ++i) {
        pool.push_back(random_value(t, rng));
        ASSERT_TRUE(validate_value(t, pool.back()).is_ok())
            << bytes::to_hex(pool.back()) << ": " << validate_value(t, pool.back()).message();
    }
    for (bool desc : {false, true}) {
        SCOPED_TRACE(desc ? "descending" : "ascending");
        std::vector<std::string> keys;
        for (const auto& v : pool) {
            keys.push_back(enc(t, v, desc));
            std::string_view in = keys.back();
            auto back = decode_key(t, &in, desc);
            ASSERT_TRUE(back.is_ok()) << bytes::to_hex(v);
            EXPECT_TRUE(in.empty()) << bytes::to_hex(v);
            if (has_float(t)) {
                // NaN payloads are canonicalised: the decoded value is equal, and its key
                // identical.
                EXPECT_EQ(compare_values(t, *back, v), 0);
                EXPECT_EQ(enc(t, *back, desc), keys.back());
                if (!is_nan_value(t, v) && t.params.empty()) {
                    EXPECT_EQ(bytes::to_hex(*back), bytes::to_hex(v));
                }
            } else {
                EXPECT_EQ(bytes::to_hex(*back), bytes::to_hex(v));
            }
        }
        for (size_t i = 0; i < pool.size(); ++i) {
            for (size_t j = 0; j < pool.size(); ++j) {
                int c = sgn(compare_values(t, pool[i], pool[j]));
                int k = sgn(bytes::compare_bytes(keys[i], keys[j]));
                if (desc) k = -k;
                if (c == 0 && k != 0 && may_tie_with_different_keys(t)) continue;
                ASSERT_EQ(c, k) << bytes::to_hex(pool[i]) << " vs " << bytes::to_hex(pool[j])
                                << " keys " << bytes::to_hex(keys[i]) << " / "
                                << bytes::to_hex(keys[j]);
            }
        }
        // Self-delimiting: two concatenated components decode one after the other.
        for (int n = 0; n < 200; ++n) {
            size_t i = rng() % pool.size(), j = rng() % pool.size();
            std::string both = keys[i] + keys[j];
            std::string_view in = both;
            auto a = decode_key(t, &in, desc);
            auto b = decode_key(t, &in, desc);
            ASSERT_TRUE(a.is_ok() && b.is_ok());
            EXPECT_TRUE(in.empty());
            EXPECT_EQ(compare_values(t, *a, pool[i]), 0);
            EXPECT_EQ(compare_values(t, *b, pool[j]), 0);
        }
    }
}

std::vector<TypePtr> key_types() {
    std::vector<TypePtr> out = scalar_types();
    auto i = native_type(TypeKind::kInt);
    auto txt = native_type(TypeKind::kVarchar);
    out.push_back(list_type(i, true));
    out.push_back(set_type(txt, true));
    out.push_back(map_type(i, txt, true));
    out.push_back(tuple_type({i, txt, native_type(TypeKind::kBoolean)}));
    out.push_back(
        udt_type("ks", "addr", {"street", "zip"}, {txt, native_type(TypeKind::kDecimal)}, true));
    out.push_back(list_type(tuple_type({native_type(TypeKind::kDouble), txt}), true));
    out.push_back(map_type(native_type(TypeKind::kTimeuuid), set_type(txt, true), true));
    return out;
}

TEST(KeyPropertyTest, EveryKeyType) {
    uint64_t seed = 0x5EED;
    for (const auto& t : key_types())
        check_type(t, seed++);
}

TEST(KeyPropertyTest, CompositeKeysOrderLexicographically) {
    auto a = native_type(TypeKind::kVarchar);
    auto b = native_type(TypeKind::kBigint);
    Rng rng(7);
    std::vector<std::pair<std::string, std::string>> rows;
    for (int i = 0; i < 120; ++i)
        rows.emplace_back(random_value(*a, rng), random_value(*b, rng));
    for (const auto& r1 : rows) {
        for (const auto& r2 : rows) {
            // Second component descending.
            std::string k1 = enc(*a, r1.first, false) + enc(*b, r1.second, true);
            std::string k2 = enc(*a, r2.first, false) + enc(*b, r2.second, true);
            int c = sgn(compare_values(*a, r1.first, r2.first));
            if (c == 0) c = -sgn(compare_values(*b, r1.second, r2.second));
            ASSERT_EQ(sgn(bytes::compare_bytes(k1, k2)), c);
        }
    }
}

TEST(KeyEncodingTest, EdgeValues) {
    auto txt = native_type(TypeKind::kVarchar);
    // Empty string sorts before "\0", which sorts before "\x01".
    EXPECT_LT(enc(*txt, "", false), enc(*txt, std::string(1, '\0'), false));
    EXPECT_LT(enc(*txt, std::string(1, '\0'), false), enc(*txt, "\x01", false));
    EXPECT_EQ(enc(*txt, std::string("a\0b", 3), false), std::string("a\0\xFF"
                                                                    "b\0\0",
                                                                    6));
    auto i = native_type(TypeKind::kInt);
    EXPECT_EQ(enc(*i, "", false), B({0x00}));
    EXPECT_EQ(enc(*i, B({0, 0, 0, 1}), false), B({0x01, 0x80, 0, 0, 1}));
    EXPECT_EQ(enc(*i, B({0, 0, 0, 1}), true), B({0xFE, 0x7F, 0xFF, 0xFF, 0xFE}));
    // Decimals that are numerically equal keep their own bytes.
    auto d = native_type(TypeKind::kDecimal);
    std::string one = V(d, Flt("1.0")), one2 = V(d, Flt("1.00"));
    std::string k1 = enc(*d, one, false), k2 = enc(*d, one2, false);
    EXPECT_NE(k1, k2);
    std::string_view in = k2;
    EXPECT_EQ(*decode_key(*d, &in, false), one2);
    // Non-minimal varint bytes decode to the minimal form of the same number.
    auto vi = native_type(TypeKind::kVarint);
    std::string key = enc(*vi, B({0x00, 0x00, 0x05}), false);
    in = key;
    EXPECT_EQ(*decode_key(*vi, &in, false), B({0x05}));
}

TEST(KeyEncodingTest, CorruptInputIsAnErrorNotACrash) {
    Rng rng(99);
    for (const auto& t : key_types()) {
        for (int n = 0; n < 300; ++n) {
            std::string junk = random_bytes(rng, rng() % 24);
            std::string_view in = junk;
            auto r = decode_key(*t, &in, rng() % 2 == 0);
            if (!r.is_ok()) {
                EXPECT_EQ(r.status().code(), ErrorCode::kServerError);
                EXPECT_EQ(in.size(), junk.size());  // input untouched on error
            }
        }
        std::string_view empty;
        EXPECT_FALSE(decode_key(*t, &empty, false).is_ok()) << t->cql_name();
    }
}

// ALTER TYPE ADD appends a field: keys written with the old type decode
// with the new one (the new field null) and equal the same value written
// with the new type, alone and inside a set.
TEST(KeyEncodingTest, UdtKeysSurviveAddedFields) {
    const TypePtr i = native_type(TypeKind::kInt);
    const TypePtr t = native_type(TypeKind::kVarchar);
    const TypePtr before = udt_type("ks", "u", {"a", "b"}, {i, t}, true);
    const TypePtr after = udt_type("ks", "u", {"a", "b", "c"}, {i, t, i}, true);
    const std::string one = bytes::be_bytes(1, 4);
    const std::string old_value = collection::write_fields({one, std::string("x")});
    const std::string new_value = collection::write_fields({one, std::string("x"), std::nullopt});
    for (bool desc : {false, true}) {
        std::string old_key, new_key;
        encode_key(*before, old_value, desc, &old_key);
        encode_key(*after, new_value, desc, &new_key);
        EXPECT_EQ(old_key, new_key);
        std::string_view in = old_key;
        auto decoded = decode_key(*after, &in, desc);
        ASSERT_TRUE(decoded.is_ok()) << decoded.status().message();
        EXPECT_TRUE(in.empty());
        EXPECT_EQ(*decoded, new_value);
    }
    const std::string other = collection::write_fields({bytes::be_bytes(2, 4), std::string("y")});
    const std::string set_before = collection::write_elements({old_value, other}, false);
    std::string key;
    encode_key(*set_type(before, true), set_before, false, &key);
    key += "tail";
    std::string_view in = key;
    auto decoded = decode_key(*set_type(after, true), &in, false);
    ASSERT_TRUE(decoded.is_ok()) << decoded.status().message();
    EXPECT_EQ(in, "tail");
    auto elems = collection::read_elements(*decoded, false);
    ASSERT_TRUE(elems.is_ok());
    ASSERT_EQ(elems->size(), 2u);
    EXPECT_EQ((*elems)[0], new_value);
    // A value with the new field set sorts after the same value without it.
    std::string with_c, without_c;
    encode_key(*after, collection::write_fields({one, std::string("x"), one}), false, &with_c);
    encode_key(*after, new_value, false, &without_c);
    EXPECT_LT(without_c, with_c);
    EXPECT_LT(
        compare_values(*after, new_value, collection::write_fields({one, std::string("x"), one})),
        0);
}

}  // namespace
}  // namespace tessel
