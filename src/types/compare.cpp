// compare_values: Cassandra's order for every CQL type.
#include <cmath>
#include <cstring>

#include "types/bytes_util.h"
#include "types/collection.h"
#include "types/uuid.h"
#include "types/value.h"
#include "types/varint.h"

namespace tessel {
namespace {

int cmp3(auto a, auto b) {
    return a < b ? -1 : (a > b ? 1 : 0);
}

// Java's Float.compare / Double.compare: -0.0 < 0.0, NaN above +Infinity, all NaNs equal.
template <typename F>
int compare_java_float(F a, F b) {
    bool na = std::isnan(a), nb = std::isnan(b);
    if (na || nb) return na == nb ? 0 : (na ? 1 : -1);
    if (a < b) return -1;
    if (a > b) return 1;
    bool sa = std::signbit(a), sb = std::signbit(b);
    return sa == sb ? 0 : (sa ? -1 : 1);
}

float as_float(std::string_view b) {
    uint32_t bits = bytes::read_u32(b);
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

double as_double(std::string_view b) {
    uint64_t bits = bytes::read_u64(b);
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
}

int compare_uuid(std::string_view a, std::string_view b) {
    int va = uuid::version(a), vb = uuid::version(b);
    if (va != vb) return cmp3(va, vb);
    uint64_t ma = va == 1 ? uuid::reordered_msb(a) : bytes::read_u64(a);
    uint64_t mb = vb == 1 ? uuid::reordered_msb(b) : bytes::read_u64(b);
    if (ma != mb) return cmp3(ma, mb);
    return cmp3(bytes::read_u64(a.substr(8)), bytes::read_u64(b.substr(8)));
}

// TimeUUIDType: signed compare of the reordered timestamp, then a signed
// per-byte compare of the clock sequence and node.
int compare_timeuuid(std::string_view a, std::string_view b) {
    int64_t ma = static_cast<int64_t>(uuid::reordered_msb(a));
    int64_t mb = static_cast<int64_t>(uuid::reordered_msb(b));
    if (ma != mb) return cmp3(ma, mb);
    for (size_t i = 8; i < 16; ++i) {
        int8_t x = static_cast<int8_t>(a[i]), y = static_cast<int8_t>(b[i]);
        if (x != y) return cmp3(x, y);
    }
    return 0;
}

int compare_collections(const CqlType& type, std::string_view a, std::string_view b) {
    bool is_map = type.kind == TypeKind::kMap;
    auto ea = collection::read_elements(a, is_map);
    auto eb = collection::read_elements(b, is_map);
    if (!ea.is_ok() || !eb.is_ok()) return bytes::compare_bytes(a, b);
    size_t stride = is_map ? 2 : 1;
    if (type.params.size() < stride) return bytes::compare_bytes(a, b);
    size_t n = std::min(ea->size(), eb->size());
    for (size_t i = 0; i < n; ++i) {
        int c = compare_values(*type.params[i % stride], (*ea)[i], (*eb)[i]);
        if (c != 0) return c;
    }
    return cmp3(ea->size(), eb->size());
}

// TupleType.compare: component-wise, null before any value, missing trailing
// components equal to nulls.
int compare_fields(const CqlType& type, std::string_view a, std::string_view b) {
    auto fa = collection::read_fields(a);
    auto fb = collection::read_fields(b);
    if (!fa.is_ok() || !fb.is_ok()) return bytes::compare_bytes(a, b);
    size_t n = std::max(fa->size(), fb->size());
    for (size_t i = 0; i < n; ++i) {
        std::optional<std::string_view> x = i < fa->size() ? (*fa)[i] : std::nullopt;
        std::optional<std::string_view> y = i < fb->size() ? (*fb)[i] : std::nullopt;
        if (!x || !y) {
            if (x.has_value() != y.has_value()) return x ? 1 : -1;
            continue;
        }
        if (i >= type.params.size()) return bytes::compare_bytes(*x, *y);
        int c = compare_values(*type.params[i], *x, *y);
        if (c != 0) return c;
    }
    return 0;
}

}  // namespace

int compare_values(const CqlType& type, std::string_view a, std::string_view b) {
    if (a.empty() || b.empty()) return cmp3(!a.empty(), !b.empty());
    switch (type.kind) {
        case TypeKind::kBoolean:
            return cmp3(a[0] != 0, b[0] != 0);
        case TypeKind::kTinyint:
        case TypeKind::kSmallint:
        case TypeKind::kInt:
        case TypeKind::kBigint:
        case TypeKind::kCounter:
        case TypeKind::kTimestamp:
        case TypeKind::kTime: {
            if (a.size() != b.size() || a.size() > 8) return bytes::compare_bytes(a, b);
            // Flip the sign bit so an unsigned compare of the bits is the signed order.
            uint64_t flip = uint64_t{1} << (a.size() * 8 - 1);
            return cmp3(bytes::read_be(a, a.size()) ^ flip, bytes::read_be(b, b.size()) ^ flip);
        }
        case TypeKind::kFloat:
            if (a.size() != 4 || b.size() != 4) return bytes::compare_bytes(a, b);
            return compare_java_float(as_float(a), as_float(b));
        case TypeKind::kDouble:
            if (a.size() != 8 || b.size() != 8) return bytes::compare_bytes(a, b);
            return compare_java_float(as_double(a), as_double(b));
        case TypeKind::kVarint:
            return varint::compare(a, b);
        case TypeKind::kDecimal:
            if (a.size() < 4 || b.size() < 4) return bytes::compare_bytes(a, b);
            return decimal::compare(a, b);
        case TypeKind::kUuid:
            if (a.size() != 16 || b.size() != 16) return bytes::compare_bytes(a, b);
            return compare_uuid(a, b);
        case TypeKind::kTimeuuid:
            if (a.size() != 16 || b.size() != 16) return bytes::compare_bytes(a, b);
            return compare_timeuuid(a, b);
        case TypeKind::kList:
        case TypeKind::kSet:
        case TypeKind::kMap:
            return compare_collections(type, a, b);
        case TypeKind::kTuple:
        case TypeKind::kUdt:
            return compare_fields(type, a, b);
        default:  // ascii, text, blob, inet, date (unsigned), duration, custom
            return bytes::compare_bytes(a, b);
    }
}

}  // namespace tessel
