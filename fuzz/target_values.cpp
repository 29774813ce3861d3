// fuzz_values: the value codecs (validation, printing, JSON, key encoding) on
// bytes that claim to be a value of a given type.
#include <string>
#include <string_view>
#include <vector>

#include "targets.h"
#include "types/bytes_util.h"
#include "types/value.h"
#include "value_types.h"

namespace tessel::fuzz {
namespace {

bool contains_kind(const CqlType& t, TypeKind k) {
    if (t.kind == k) return true;
    for (const auto& p : t.params) {
        if (contains_kind(*p, k)) return true;
    }
    return false;
}

// Types whose key round trip may return other bytes for the same value, by
// design of the key codec: NaN payloads, non-minimal varints (decimal's
// unscaled part too) and booleans other than 0x00/0x01 (any non-zero byte is
// true) are canonicalised, and tuple/UDT fields come back with
// null written as length -1 (any negative length is null on the wire) and the
// missing trailing fields as explicit nulls. For those the decoded value must
// still compare equal and have the same key.
bool key_may_normalise(const CqlType& t) {
    return contains_kind(t, TypeKind::kFloat) || contains_kind(t, TypeKind::kDouble) ||
           contains_kind(t, TypeKind::kBoolean) || contains_kind(t, TypeKind::kVarint) ||
           contains_kind(t, TypeKind::kDecimal) || contains_kind(t, TypeKind::kTuple) ||
           contains_kind(t, TypeKind::kUdt);
}

int sgn(int v) {
    return v < 0 ? -1 : (v > 0 ? 1 : 0);
}

std::string key_of(const CqlType& t, std::string_view v, bool desc) {
    std::string out;
    encode_key(t, v, desc, &out);
    return out;
}

// A valid value: print it every way and check that its key decodes to it.
void check_valid(const CqlType& t, std::string_view v, bool desc) {
    (void)format_value(t, v);
    (void)format_cql_literal(t, v);
    (void)value_to_json(t, v);
    if (compare_values(t, v, v) != 0) fuzz_fail("values", "a value does not equal itself");
    const std::string key = key_of(t, v, desc);
    // Self-delimiting: a trailing component must be left in place.
    const std::string two = key + key;
    std::string_view in = two;
    auto back = decode_key(t, &in, desc);
    if (!back.is_ok()) fuzz_fail("values", "decode_key rejects what encode_key wrote");
    if (in != key) fuzz_fail("values", "decode_key did not stop at the end of its component");
    if (*back != v) {
        if (!key_may_normalise(t)) fuzz_fail("values", "key round trip changed the bytes");
        if (compare_values(t, *back, v) != 0) {
            fuzz_fail("values", "key round trip changed the value");
        }
        if (key_of(t, *back, desc) != key) fuzz_fail("values", "key of decoded value differs");
    }
    if (!validate_value(t, *back).is_ok()) fuzz_fail("values", "decoded key value is invalid");
}

void check_pair(const CqlType& t, std::string_view a, std::string_view b, bool desc) {
    const int c = sgn(compare_values(t, a, b));
    if (c != -sgn(compare_values(t, b, a))) fuzz_fail("values", "compare_values not antisymmetric");
    int k = sgn(bytes::compare_bytes(key_of(t, a, desc), key_of(t, b, desc)));
    if (desc) k = -k;
    if (c == k) return;
    // Numerically equal decimals keep their scale in the key as a tie-breaker.
    if (c == 0 && contains_kind(t, TypeKind::kDecimal)) return;
    fuzz_fail("values", "key order disagrees with compare_values");
}

}  // namespace

void fuzz_values(const uint8_t* data, size_t size) {
    const std::vector<TypePtr>& types = value_type_table();
    if (size < 2) return;
    const CqlType& t = *types[data[0] % types.size()];
    const bool desc = (data[1] & 0x01) != 0;
    const bool pair = (data[1] & 0x02) != 0;
    const std::string_view rest(reinterpret_cast<const char*>(data) + 2, size - 2);

    // Raw bytes as a stored key component: corrupt keys are errors, not crashes.
    {
        std::string_view in = rest;
        auto decoded = decode_key(t, &in, desc);
        if (decoded.is_ok() && in.size() > rest.size()) fuzz_fail("values", "decode_key grew");
    }

    if (pair && !rest.empty()) {
        // The first byte of the rest splits it into two values.
        const size_t cut = 1 + static_cast<uint8_t>(rest[0]) % rest.size();
        const std::string_view a = rest.substr(1, cut - 1), b = rest.substr(cut);
        const bool a_ok = validate_value(t, a).is_ok(), b_ok = validate_value(t, b).is_ok();
        if (a_ok) check_valid(t, a, desc);
        if (b_ok) check_valid(t, b, desc);
        if (a_ok && b_ok) check_pair(t, a, b, desc);
        return;
    }

    if (validate_value(t, rest).is_ok()) check_valid(t, rest, desc);

    auto from_json = value_from_json(t, rest);
    if (from_json.is_ok()) {
        if (!validate_value(t, *from_json).is_ok()) {
            fuzz_fail("values", "value_from_json produced an invalid value");
        }
        check_valid(t, *from_json, desc);
    }
}

}  // namespace tessel::fuzz
