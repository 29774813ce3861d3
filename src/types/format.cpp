// format_value (cqlsh's display) and format_cql_literal (CQL text that parses back).
#include <algorithm>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "types/bytes_util.h"
#include "types/collection.h"
#include "types/duration.h"
#include "types/inet.h"
#include "types/number_format.h"
#include "types/timeutil.h"
#include "types/uuid.h"
#include "types/value.h"
#include "types/varint.h"

namespace tessel {
namespace {

enum class Mode {
    kCqlshTop,     // a cell in a cqlsh result table
    kCqlshNested,  // inside a collection, tuple or UDT: strings and times quoted
    kLiteral,      // CQL literal
};

std::string quote_cql(std::string_view s) {
    std::string out = "'";
    for (char c : s) {
        if (c == '\'') out.push_back('\'');
        out.push_back(c);
    }
    out.push_back('\'');
    return out;
}

// cqlsh's format_value_text: backslashes doubled, C0/C1 controls (and U+00A0)
// shown as Python escapes, quotes doubled and wrapped when nested.
std::string cqlsh_text(std::string_view s, bool quote) {
    std::string out;
    if (quote) out.push_back('\'');
    for (size_t i = 0; i < s.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        uint32_t cp = c;
        if (c == 0xC2 && i + 1 < s.size()) {
            unsigned char c2 = static_cast<unsigned char>(s[i + 1]);
            if (c2 >= 0x80 && c2 <= 0xA0) {
                cp = c2;
                ++i;
            }
        }
        if (cp == '\\') {
            out += "\\\\";
        } else if (cp == '\'' && quote) {
            out += "''";
        } else if (cp == '\n') {
            out += "\\n";
        } else if (cp == '\t') {
            out += "\\t";
        } else if (cp == '\r') {
            out += "\\r";
        } else if (cp < 0x20 || (cp >= 0x7F && cp <= 0xA0)) {
            out += fmt::format("\\x{:02x}", cp);
        } else {
            out.push_back(static_cast<char>(c));
        }
    }
    if (quote) out.push_back('\'');
    return out;
}

std::string maybe_quote_name(const std::string& name) {
    bool plain = !name.empty() && ((name[0] >= 'a' && name[0] <= 'z'));
    for (char c : name) {
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) plain = false;
    }
    if (plain) return name;
    std::string out = "\"";
    for (char c : name) {
        if (c == '"') out.push_back('"');
        out.push_back(c);
    }
    return out + "\"";
}

std::string format_any(const CqlType& type, std::string_view b, Mode mode);

// Python's order of the driver's value objects: uuid.UUID compares as a 128-bit
// integer, inet values are str; other types order as in CQL.
int python_order(const CqlType& type, std::string_view a, std::string_view b) {
    if (type.kind == TypeKind::kUuid || type.kind == TypeKind::kTimeuuid) {
        return bytes::compare_bytes(a, b);
    }
    if (type.kind == TypeKind::kInet && (a.size() == 4 || a.size() == 16) &&
        (b.size() == 4 || b.size() == 16)) {
        return inet::format(a).compare(inet::format(b));
    }
    return compare_values(type, a, b);
}

std::string format_collection(const CqlType& type, std::string_view b, Mode mode) {
    bool is_map = type.kind == TypeKind::kMap;
    auto elems = collection::read_elements(b, is_map);
    size_t stride = is_map ? 2 : 1;
    if (!elems.is_ok() || type.params.size() < stride) return "0x" + bytes::to_hex(b);
    Mode inner = mode == Mode::kLiteral ? Mode::kLiteral : Mode::kCqlshNested;
    std::vector<size_t> order;
    for (size_t i = 0; i < elems->size(); i += stride)
        order.push_back(i);
    if (mode != Mode::kLiteral && type.kind != TypeKind::kList) {
        // The Python driver hands cqlsh sorted sets and cqlsh sorts map items, both in
        // Python's order, which differs from CQL's for uuids and inets.
        const CqlType& key_type = *type.params[0];
        std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
            return python_order(key_type, (*elems)[x], (*elems)[y]) < 0;
        });
    }
    std::string out = type.kind == TypeKind::kList ? "[" : "{";
    for (size_t k = 0; k < order.size(); ++k) {
        size_t i = order[k];
        if (k > 0) out += ", ";
        out += format_any(*type.params[0], (*elems)[i], inner);
        if (is_map) out += ": " + format_any(*type.params[1], (*elems)[i + 1], inner);
    }
    out += type.kind == TypeKind::kList ? "]" : "}";
    return out;
}

std::string format_fields(const CqlType& type, std::string_view b, Mode mode) {
    auto fields = collection::read_fields(b);
    if (!fields.is_ok()) return "0x" + bytes::to_hex(b);
    Mode inner = mode == Mode::kLiteral ? Mode::kLiteral : Mode::kCqlshNested;
    bool udt = type.kind == TypeKind::kUdt;
    // Missing trailing fields print as null, as the Python driver pads them.
    size_t n = std::max(fields->size(), type.params.size());
    std::string out = udt ? "{" : "(";
    for (size_t i = 0; i < n; ++i) {
        if (i > 0) out += ", ";
        if (udt) {
            std::string name =
                i < type.field_names.size() ? type.field_names[i] : fmt::format("field{}", i);
            out += (mode == Mode::kLiteral ? maybe_quote_name(name) : name) + ": ";
        }
        std::optional<std::string_view> f = i < fields->size() ? (*fields)[i] : std::nullopt;
        if (!f) {
            out += "null";
        } else if (i < type.params.size()) {
            out += format_any(*type.params[i], *f, inner);
        } else {
            out += "0x" + bytes::to_hex(*f);
        }
    }
    out += udt ? "}" : ")";
    return out;
}

double float_of(std::string_view b) {
    uint32_t bits = bytes::read_u32(b);
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

double double_of(std::string_view b) {
    uint64_t bits = bytes::read_u64(b);
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
}

std::string format_any(const CqlType& type, std::string_view b, Mode mode) {
    bool literal = mode == Mode::kLiteral;
    bool quoted = mode != Mode::kCqlshTop;  // strings and times quoted when nested
    if (b.empty()) {
        switch (type.kind) {
            case TypeKind::kAscii:
            case TypeKind::kVarchar:
                return quoted ? "''" : "";
            case TypeKind::kBlob:
                return "0x";
            default:
                return literal ? "''" : "";
        }
    }
    auto q = [&](std::string s) { return quoted ? quote_cql(s) : s; };
    switch (type.kind) {
        case TypeKind::kAscii:
        case TypeKind::kVarchar:
            return literal ? quote_cql(b) : cqlsh_text(b, quoted);
        case TypeKind::kBlob:
        case TypeKind::kCustom:
            return "0x" + bytes::to_hex(b);
        case TypeKind::kBoolean:
            if (literal) return b[0] != 0 ? "true" : "false";
            return b[0] != 0 ? "True" : "False";
        case TypeKind::kTinyint:
        case TypeKind::kSmallint:
        case TypeKind::kInt:
        case TypeKind::kBigint:
        case TypeKind::kCounter: {
            if (b.size() > 8) return "0x" + bytes::to_hex(b);
            return varint::to_decimal_string(b);
        }
        case TypeKind::kVarint:
            return varint::to_decimal_string(b);
        case TypeKind::kDecimal:
            if (b.size() < 4) return "0x" + bytes::to_hex(b);
            return decimal::to_string(b);
        case TypeKind::kFloat:
            if (b.size() != 4) return "0x" + bytes::to_hex(b);
            return literal ? numfmt::python_repr(float_of(b), true)
                           : numfmt::cqlsh_float(float_of(b), 5);
        case TypeKind::kDouble:
            if (b.size() != 8) return "0x" + bytes::to_hex(b);
            // cqlsh picks the precision from the column's type: 12 for a double
            // column, 5 (the float precision) for doubles inside collections.
            return literal ? numfmt::python_repr(double_of(b), false)
                           : numfmt::cqlsh_float(double_of(b), mode == Mode::kCqlshTop ? 12 : 5);
        case TypeKind::kUuid:
        case TypeKind::kTimeuuid:
            if (b.size() != 16) return "0x" + bytes::to_hex(b);
            return uuid::format(b);
        case TypeKind::kTimestamp: {
            if (b.size() != 8) return "0x" + bytes::to_hex(b);
            int64_t ms = bytes::read_i64(b);
            if (literal) {
                auto iso = timeutil::format_timestamp_iso(ms);
                return iso ? quote_cql(*iso) : std::to_string(ms);
            }
            std::string s = timeutil::format_timestamp_cqlsh(ms);
            return s.find('-', 1) == std::string::npos ? s : q(s);
        }
        case TypeKind::kDate: {
            if (b.size() != 4) return "0x" + bytes::to_hex(b);
            uint32_t d = bytes::read_u32(b);
            auto s = timeutil::format_date(d);
            if (!s) return literal ? std::to_string(d) : std::to_string(timeutil::date_days(d));
            // cqlsh prints dates and times unquoted even inside collections.
            return literal ? quote_cql(*s) : *s;
        }
        case TypeKind::kTime: {
            if (b.size() != 8) return "0x" + bytes::to_hex(b);
            std::string s = timeutil::format_time(bytes::read_i64(b));
            return literal ? quote_cql(s) : s;
        }
        case TypeKind::kInet:
            if (b.size() != 4 && b.size() != 16) return "0x" + bytes::to_hex(b);
            return q(inet::format(b));
        case TypeKind::kDuration: {
            auto d = duration::decode(b);
            if (!d.is_ok()) return "0x" + bytes::to_hex(b);
            std::string s = duration::to_string(*d);
            return literal && s.empty() ? "0s" : s;
        }
        case TypeKind::kList:
        case TypeKind::kSet:
        case TypeKind::kMap:
            return format_collection(type, b, mode);
        case TypeKind::kTuple:
        case TypeKind::kUdt:
            return format_fields(type, b, mode);
    }
    return "0x" + bytes::to_hex(b);
}

}  // namespace

std::string format_value(const CqlType& type, std::string_view bytes) {
    return format_any(type, bytes, Mode::kCqlshTop);
}

std::string format_cql_literal(const CqlType& type, std::string_view bytes) {
    return format_any(type, bytes, Mode::kLiteral);
}

}  // namespace tessel
