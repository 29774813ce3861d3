// value_from_literal: a CQL literal given a type becomes that type's value bytes.
#include <charconv>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "types/bytes_util.h"
#include "types/collection.h"
#include "types/duration.h"
#include "types/inet.h"
#include "types/literal_util.h"
#include "types/timeutil.h"
#include "types/utf8.h"
#include "types/uuid.h"
#include "types/value.h"
#include "types/varint.h"

namespace tessel {
namespace literals {

std::string_view literal_kind_name(Literal::Kind kind) {
    switch (kind) {
        case Literal::Kind::kNull:
            return "NULL";
        case Literal::Kind::kString:
            return "STRING";
        case Literal::Kind::kInteger:
            return "INTEGER";
        case Literal::Kind::kFloat:
            return "FLOAT";
        case Literal::Kind::kBoolean:
            return "BOOLEAN";
        case Literal::Kind::kUuid:
            return "UUID";
        case Literal::Kind::kHex:
            return "HEX";
        case Literal::Kind::kDuration:
            return "DURATION";
        case Literal::Kind::kList:
            return "list";
        case Literal::Kind::kSet:
            return "set";
        case Literal::Kind::kMap:
            return "map";
        case Literal::Kind::kTuple:
            return "tuple";
        case Literal::Kind::kUdt:
            return "user type";
    }
    return "UNKNOWN";
}

std::optional<double> parse_float_literal(std::string_view t) {
    if (t == "NaN" || t == "-NaN") return std::nan("");
    if (t == "Infinity" || t == "+Infinity") return HUGE_VAL;
    if (t == "-Infinity") return -HUGE_VAL;
    if (!t.empty() && t[0] == '+') t.remove_prefix(1);
    if (t.empty()) return std::nullopt;
    for (char c : t) {
        if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+')) {
            return std::nullopt;
        }
    }
    double v = 0;
    auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    // Out-of-range magnitudes become infinities/zero as Java's parseDouble does.
    if (r.ec == std::errc::result_out_of_range) {
        return std::strtod(std::string(t).c_str(), nullptr);
    }
    if (r.ec != std::errc() || r.ptr != t.data() + t.size()) return std::nullopt;
    return v;
}

std::optional<int64_t> parse_int64_literal(std::string_view t) {
    int64_t v = 0;
    if (!t.empty() && t[0] == '+') t.remove_prefix(1);
    auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (r.ec != std::errc() || r.ptr != t.data() + t.size()) return std::nullopt;
    return v;
}

}  // namespace literals

namespace {

using literals::literal_kind_name;
using literals::parse_float_literal;
using literals::parse_int64_literal;

Status mismatch(const CqlType& type, const Literal& lit) {
    switch (lit.kind) {
        case Literal::Kind::kList:
        case Literal::Kind::kSet:
        case Literal::Kind::kMap:
        case Literal::Kind::kTuple:
        case Literal::Kind::kUdt:
            return Status::invalid(fmt::format("Invalid {} literal for type {}",
                                               literal_kind_name(lit.kind), type.cql_name()));
        default:
            return Status::invalid(fmt::format("Invalid {} constant ({}) for type {}",
                                               literal_kind_name(lit.kind), lit.text,
                                               type.cql_name()));
    }
}

Result<std::string> integer_value(const Literal& lit, int bytes_count, const char* name) {
    auto v = parse_int64_literal(lit.text);
    int64_t lo = bytes_count == 8 ? INT64_MIN : -(int64_t{1} << (bytes_count * 8 - 1));
    int64_t hi = bytes_count == 8 ? INT64_MAX : (int64_t{1} << (bytes_count * 8 - 1)) - 1;
    if (!v || *v < lo || *v > hi) {
        if (!varint::from_decimal_string(lit.text)) {
            return Status::invalid(
                fmt::format("Invalid INTEGER constant ({}) for type {}", lit.text, name));
        }
        return Status::invalid(fmt::format("value {} out of range for {}", lit.text, name));
    }
    return bytes::be_bytes(static_cast<uint64_t>(*v), static_cast<size_t>(bytes_count));
}

Result<std::string> float_value(const CqlType& type, const Literal& lit) {
    auto v = parse_float_literal(lit.text);
    if (!v) return mismatch(type, lit);
    if (type.kind == TypeKind::kFloat) {
        float f = static_cast<float>(*v);
        uint32_t bits;
        std::memcpy(&bits, &f, 4);
        return bytes::be_bytes(bits, 4);
    }
    uint64_t bits;
    std::memcpy(&bits, &*v, 8);
    return bytes::be_bytes(bits, 8);
}

Result<std::string> element(const CqlType& type, const Literal& lit) {
    if (lit.kind == Literal::Kind::kNull) {
        return Status::invalid("null is not supported inside collections");
    }
    return value_from_literal(type, lit);
}

Result<std::string> collection_value(const CqlType& type, const Literal& lit) {
    using K = Literal::Kind;
    std::vector<std::string> items;
    if (type.params.empty()) return mismatch(type, lit);
    if (type.kind == TypeKind::kList || type.kind == TypeKind::kSet) {
        K want = type.kind == TypeKind::kList ? K::kList : K::kSet;
        if (lit.kind != want) return mismatch(type, lit);
        for (const auto& e : lit.elements) {
            TESSEL_ASSIGN_OR_RETURN(std::string v, element(*type.params[0], e));
            items.push_back(std::move(v));
        }
    } else {
        if (type.params.size() < 2) return mismatch(type, lit);
        bool empty_set = lit.kind == K::kSet && lit.elements.empty();
        if (lit.kind != K::kMap && !empty_set) return mismatch(type, lit);
        for (const auto& [k, v] : lit.entries) {
            TESSEL_ASSIGN_OR_RETURN(std::string kb, element(*type.params[0], k));
            TESSEL_ASSIGN_OR_RETURN(std::string vb, element(*type.params[1], v));
            items.push_back(std::move(kb));
            items.push_back(std::move(vb));
        }
    }
    // Sorting set elements and map keys (and dropping duplicates) happens here.
    return collection::canonicalize(type,
                                    collection::write_elements(items, type.kind == TypeKind::kMap));
}

Result<std::string> tuple_value(const CqlType& type, const Literal& lit) {
    if (lit.kind != Literal::Kind::kTuple) return mismatch(type, lit);
    if (lit.elements.size() > type.params.size()) {
        return Status::invalid(
            fmt::format("Invalid tuple literal: too many elements. Type {} expects {} but got {}",
                        type.cql_name(), type.params.size(), lit.elements.size()));
    }
    std::vector<std::optional<std::string>> fields;
    for (size_t i = 0; i < lit.elements.size(); ++i) {
        if (lit.elements[i].kind == Literal::Kind::kNull) {
            fields.emplace_back(std::nullopt);
            continue;
        }
        TESSEL_ASSIGN_OR_RETURN(std::string v,
                                value_from_literal(*type.params[i], lit.elements[i]));
        fields.emplace_back(std::move(v));
    }
    return collection::write_fields(fields);
}

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(a[i])) !=
            std::tolower(static_cast<unsigned char>(b[i]))) {
            return false;
        }
    }
    return true;
}

Result<std::string> udt_value(const CqlType& type, const Literal& lit) {
    if (lit.kind != Literal::Kind::kUdt) return mismatch(type, lit);
    std::vector<std::optional<std::string>> fields(type.params.size());
    std::vector<bool> seen(type.params.size(), false);
    for (const auto& [name, value] : lit.fields) {
        size_t idx = type.field_names.size();
        for (size_t i = 0; i < type.field_names.size(); ++i) {
            if (type.field_names[i] == name) idx = i;
        }
        if (idx == type.field_names.size()) {
            for (size_t i = 0; i < type.field_names.size(); ++i) {
                if (iequals(type.field_names[i], name)) idx = i;
            }
        }
        if (idx >= type.params.size()) {
            return Status::invalid(fmt::format(
                "Unknown field '{}' in value of user defined type {}", name, type.udt_name));
        }
        if (seen[idx]) {
            return Status::invalid(fmt::format(
                "Duplicate field '{}' in value of user defined type {}", name, type.udt_name));
        }
        seen[idx] = true;
        if (value.kind == Literal::Kind::kNull) continue;
        TESSEL_ASSIGN_OR_RETURN(std::string v, value_from_literal(*type.params[idx], value));
        fields[idx] = std::move(v);
    }
    return collection::write_fields(fields);
}

}  // namespace

Result<std::string> value_from_literal(const CqlType& type, const Literal& lit) {
    using K = Literal::Kind;
    if (lit.kind == K::kNull)
        return Status::invalid("null is not a value of type " + type.cql_name());
    switch (type.kind) {
        case TypeKind::kAscii:
            if (lit.kind != K::kString) return mismatch(type, lit);
            for (unsigned char c : lit.text) {
                if (c > 127) {
                    return Status::invalid(
                        fmt::format("Invalid ASCII character in string literal ({})", lit.text));
                }
            }
            return lit.text;
        case TypeKind::kVarchar:
            if (lit.kind != K::kString) return mismatch(type, lit);
            if (!utf8::valid(lit.text)) return Status::invalid("Invalid UTF-8 in string literal");
            return lit.text;
        case TypeKind::kBlob:
        case TypeKind::kCustom: {
            if (lit.kind != K::kHex) return mismatch(type, lit);
            std::string_view h = lit.text;
            if (h.size() >= 2 && h[0] == '0' && (h[1] == 'x' || h[1] == 'X')) h.remove_prefix(2);
            auto b = bytes::from_hex(h);
            if (!b) return Status::invalid(fmt::format("Invalid hex blob literal {}", lit.text));
            return *b;
        }
        case TypeKind::kBoolean:
            if (lit.kind != K::kBoolean) return mismatch(type, lit);
            if (iequals(lit.text, "true")) return std::string(1, '\x01');
            if (iequals(lit.text, "false")) return std::string(1, '\x00');
            return mismatch(type, lit);
        case TypeKind::kTinyint:
            if (lit.kind != K::kInteger) return mismatch(type, lit);
            return integer_value(lit, 1, "tinyint");
        case TypeKind::kSmallint:
            if (lit.kind != K::kInteger) return mismatch(type, lit);
            return integer_value(lit, 2, "smallint");
        case TypeKind::kInt:
            if (lit.kind != K::kInteger) return mismatch(type, lit);
            return integer_value(lit, 4, "int");
        case TypeKind::kBigint:
        case TypeKind::kCounter:
            if (lit.kind != K::kInteger) return mismatch(type, lit);
            return integer_value(lit, 8, type.kind == TypeKind::kBigint ? "bigint" : "counter");
        case TypeKind::kVarint: {
            if (lit.kind != K::kInteger) return mismatch(type, lit);
            auto v = varint::from_decimal_string(lit.text);
            if (!v) return mismatch(type, lit);
            return *v;
        }
        case TypeKind::kDecimal: {
            if (lit.kind != K::kInteger && lit.kind != K::kFloat) return mismatch(type, lit);
            auto v = decimal::from_string(lit.text);
            if (!v) return mismatch(type, lit);
            return *v;
        }
        case TypeKind::kFloat:
        case TypeKind::kDouble:
            if (lit.kind != K::kInteger && lit.kind != K::kFloat) return mismatch(type, lit);
            return float_value(type, lit);
        case TypeKind::kUuid:
        case TypeKind::kTimeuuid: {
            if (lit.kind != K::kUuid && lit.kind != K::kString) return mismatch(type, lit);
            auto u = uuid::parse(lit.text);
            if (!u) {
                return Status::invalid(fmt::format("Unable to make UUID from '{}'", lit.text));
            }
            if (type.kind == TypeKind::kTimeuuid && uuid::version(*u) != 1) {
                return Status::invalid(
                    fmt::format("Unsupported UUID version for timeuuid: {} is not a version 1 "
                                "(time-based) UUID",
                                lit.text));
            }
            return *u;
        }
        case TypeKind::kTimestamp: {
            if (lit.kind != K::kInteger && lit.kind != K::kString) return mismatch(type, lit);
            TESSEL_ASSIGN_OR_RETURN(int64_t ms, timeutil::parse_timestamp(lit.text));
            return bytes::i64_bytes(ms);
        }
        case TypeKind::kDate: {
            if (lit.kind != K::kInteger && lit.kind != K::kString) return mismatch(type, lit);
            TESSEL_ASSIGN_OR_RETURN(uint32_t d, timeutil::parse_date(lit.text));
            return bytes::be_bytes(d, 4);
        }
        case TypeKind::kTime: {
            if (lit.kind != K::kInteger && lit.kind != K::kString) return mismatch(type, lit);
            TESSEL_ASSIGN_OR_RETURN(int64_t ns, timeutil::parse_time(lit.text));
            return bytes::i64_bytes(ns);
        }
        case TypeKind::kInet: {
            if (lit.kind != K::kString) return mismatch(type, lit);
            auto a = inet::parse(lit.text);
            if (!a)
                return Status::invalid(
                    fmt::format("Unable to make inet address from '{}'", lit.text));
            return *a;
        }
        case TypeKind::kDuration: {
            if (lit.kind != K::kDuration && lit.kind != K::kString) return mismatch(type, lit);
            TESSEL_ASSIGN_OR_RETURN(duration::Duration d, duration::parse(lit.text));
            return duration::encode(d);
        }
        case TypeKind::kList:
        case TypeKind::kSet:
        case TypeKind::kMap:
            return collection_value(type, lit);
        case TypeKind::kTuple:
            return tuple_value(type, lit);
        case TypeKind::kUdt:
            return udt_value(type, lit);
    }
    return mismatch(type, lit);
}

}  // namespace tessel
