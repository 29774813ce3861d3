// Random values of any CQL type for property tests (seeded, reproducible).
#pragma once

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "types/bytes_util.h"
#include "types/collection.h"
#include "types/duration.h"
#include "types/varint.h"
#include "types_test_util.h"

namespace tessel::testing {

using Rng = std::mt19937_64;

inline std::string random_bytes(Rng& rng, size_t n) {
    std::string s(n, '\0');
    for (auto& c : s)
        c = static_cast<char>(rng() & 0xFF);
    return s;
}

inline std::string random_fixed(Rng& rng, size_t n) {
    // Mostly random, sometimes an edge value (min, max, 0, -1, 1).
    switch (rng() % 8) {
        case 0:
            return std::string(1, '\x80') + std::string(n - 1, '\0');
        case 1:
            return std::string(1, '\x7F') + std::string(n - 1, '\xFF');
        case 2:
            return std::string(n, '\0');
        case 3:
            return std::string(n, '\xFF');
        case 4:
            return std::string(n - 1, '\0') + "\x01";
        default:
            return random_bytes(rng, n);
    }
}

inline std::string random_float_bits(Rng& rng, size_t w) {
    static const std::vector<uint64_t> edges32 = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000,
                                                  0x7FC00000, 0xFFC00001, 0x00000001, 0x3F800000,
                                                  0xBF800000, 0x7F7FFFFF};
    static const std::vector<uint64_t> edges64 = {0,
                                                  0x8000000000000000ULL,
                                                  0x7FF0000000000000ULL,
                                                  0xFFF0000000000000ULL,
                                                  0x7FF8000000000000ULL,
                                                  0xFFF8000000000123ULL,
                                                  1,
                                                  0x3FF0000000000000ULL,
                                                  0xBFF0000000000000ULL};
    const auto& edges = w == 4 ? edges32 : edges64;
    if (rng() % 4 == 0) return bytes::be_bytes(edges[rng() % edges.size()], w);
    if (rng() % 2 == 0) {
        double d = std::ldexp(static_cast<double>(static_cast<int64_t>(rng() % 2001) - 1000),
                              static_cast<int>(rng() % 20) - 10);
        if (w == 4) {
            float f = static_cast<float>(d);
            uint32_t bits;
            std::memcpy(&bits, &f, 4);
            return bytes::be_bytes(bits, 4);
        }
        uint64_t bits;
        std::memcpy(&bits, &d, 8);
        return bytes::be_bytes(bits, 8);
    }
    return random_bytes(rng, w);
}

inline std::string random_text(Rng& rng, bool utf8) {
    static const std::vector<std::string> pieces = {
        "", "a", "b", "z", std::string(1, '\0'), "\x01", "\x7F", "ab", "\xC3\xA9", "\xE2\x82\xAC"};
    std::string s;
    size_t n = rng() % 6;
    for (size_t i = 0; i < n; ++i) {
        if (!utf8 && rng() % 4 == 0) {
            s.push_back(static_cast<char>(rng() & 0xFF));
        } else {
            s += pieces[rng() % pieces.size()];
        }
    }
    return s;
}

inline std::string random_varint(Rng& rng) {
    static const std::vector<std::string> edges = {B({0}),          B({0xFF}), B({0x7F}),
                                                   B({0x00, 0x80}), B({0x80}), B({0xFF, 0x7F})};
    if (rng() % 5 == 0) return edges[rng() % edges.size()];
    return varint::minimal(random_bytes(rng, 1 + rng() % 12));
}

inline std::string random_decimal(Rng& rng) {
    static const std::vector<int32_t> scales = {0, 1, 2, 3, -1, -2, 10, -10, INT32_MAX, INT32_MIN};
    int32_t scale =
        rng() % 2 ? scales[rng() % scales.size()] : static_cast<int32_t>(rng() % 41) - 20;
    std::string unscaled = rng() % 3 == 0
                               ? varint::from_int64(static_cast<int64_t>(rng() % 2001) - 1000)
                               : random_varint(rng);
    if (rng() % 4 == 0) {  // multiples of powers of ten: 1.0 vs 1.00 style ties
        int64_t base = static_cast<int64_t>(rng() % 21) - 10;
        for (int k = static_cast<int>(rng() % 4); k > 0; --k)
            base *= 10;
        unscaled = varint::from_int64(base);
        scale = static_cast<int32_t>(rng() % 6);
    }
    return bytes::i32_bytes(scale) + unscaled;
}

inline std::string random_value(const CqlType& t, Rng& rng, bool allow_empty = true) {
    bool can_be_empty = allow_empty && t.kind != TypeKind::kTinyint &&
                        t.kind != TypeKind::kSmallint && t.kind != TypeKind::kDate &&
                        t.kind != TypeKind::kTime && t.kind != TypeKind::kDuration;
    if (can_be_empty && rng() % 20 == 0) return "";
    switch (t.kind) {
        case TypeKind::kTinyint:
            return random_fixed(rng, 1);
        case TypeKind::kSmallint:
            return random_fixed(rng, 2);
        case TypeKind::kInt:
            return random_fixed(rng, 4);
        case TypeKind::kBigint:
        case TypeKind::kTimestamp:
            return random_fixed(rng, 8);
        case TypeKind::kDate:
            return random_fixed(rng, 4);
        case TypeKind::kTime:
            return bytes::i64_bytes(static_cast<int64_t>(rng() % 86400000000000ULL));
        case TypeKind::kBoolean:
            return std::string(1, static_cast<char>(rng() % 2));
        case TypeKind::kFloat:
            return random_float_bits(rng, 4);
        case TypeKind::kDouble:
            return random_float_bits(rng, 8);
        case TypeKind::kVarint:
            return random_varint(rng);
        case TypeKind::kDecimal:
            return random_decimal(rng);
        case TypeKind::kAscii: {
            std::string s = random_text(rng, true);
            for (auto& c : s)
                c = static_cast<char>(c & 0x7F);
            return s;
        }
        case TypeKind::kVarchar:
            return random_text(rng, true);
        case TypeKind::kBlob:
            return random_text(rng, false);
        case TypeKind::kUuid:
        case TypeKind::kTimeuuid: {
            std::string u = random_bytes(rng, 16);
            if (rng() % 3 == 0) u.replace(0, 6, std::string(6, '\0'));  // time ties
            int version = t.kind == TypeKind::kTimeuuid ? 1 : static_cast<int>(rng() % 6);
            u[6] = static_cast<char>((u[6] & 0x0F) | (version << 4));
            return u;
        }
        case TypeKind::kInet:
            return random_bytes(rng, rng() % 2 ? 4 : 16);
        case TypeKind::kDuration: {
            int sign = rng() % 2 ? 1 : -1;
            duration::Duration d{static_cast<int32_t>(sign * static_cast<int32_t>(rng() % 30)),
                                 static_cast<int32_t>(sign * static_cast<int32_t>(rng() % 40)),
                                 sign * static_cast<int64_t>(rng() % 100000000000LL)};
            return duration::encode(d);
        }
        case TypeKind::kList:
        case TypeKind::kSet:
        case TypeKind::kMap: {
            bool is_map = t.kind == TypeKind::kMap;
            std::vector<std::string> items;
            size_t n = rng() % 4;
            for (size_t i = 0; i < n; ++i) {
                items.push_back(random_value(*t.params[0], rng, false));
                if (is_map) items.push_back(random_value(*t.params[1], rng, false));
            }
            return collection::canonicalize(t, collection::write_elements(items, is_map));
        }
        case TypeKind::kTuple:
        case TypeKind::kUdt: {
            std::vector<std::optional<std::string>> fields;
            for (const auto& p : t.params) {
                if (rng() % 5 == 0) {
                    fields.emplace_back(std::nullopt);
                } else {
                    fields.emplace_back(random_value(*p, rng, allow_empty));
                }
            }
            return collection::write_fields(fields);
        }
        default:
            return random_bytes(rng, 4);
    }
}

}  // namespace tessel::testing
