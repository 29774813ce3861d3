// value_to_json / value_from_json: Cassandra's toJson and fromJson forms.
#include <cctype>
#include <cmath>
#include <cstring>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "types/bytes_util.h"
#include "types/collection.h"
#include "types/duration.h"
#include "types/inet.h"
#include "types/json.h"
#include "types/literal_util.h"
#include "types/number_format.h"
#include "types/timeutil.h"
#include "types/uuid.h"
#include "types/value.h"
#include "types/varint.h"

namespace tessel {
namespace {

bool is_string_type(const CqlType& t) {
    return t.kind == TypeKind::kAscii || t.kind == TypeKind::kVarchar;
}

// UserType.toJSONString: a field name that is not all lowercase is written
// double-quoted (inside the JSON string), so that fromJson keeps its case.
std::string json_field_name(const std::string& name) {
    bool lower = true;
    for (char c : name) {
        if (c >= 'A' && c <= 'Z') lower = false;
    }
    return lower ? name : "\"" + name + "\"";
}

std::string quoted(const std::string& s) {
    return json::quote(s);
}

std::string to_json(const CqlType& type, std::string_view b) {
    if (b.empty() && !is_string_type(type) && type.kind != TypeKind::kBlob) return "\"\"";
    switch (type.kind) {
        case TypeKind::kAscii:
        case TypeKind::kVarchar:
            return json::quote(b);
        case TypeKind::kBlob:
        case TypeKind::kCustom:
            return quoted("0x" + bytes::to_hex(b));
        case TypeKind::kBoolean:
            return b[0] != 0 ? "true" : "false";
        case TypeKind::kTinyint:
        case TypeKind::kSmallint:
        case TypeKind::kInt:
        case TypeKind::kBigint:
        case TypeKind::kCounter:
        case TypeKind::kVarint:
            return varint::to_decimal_string(b);
        case TypeKind::kDecimal:
            if (b.size() < 4) return "\"\"";
            return decimal::to_string(b);
        case TypeKind::kFloat:
        case TypeKind::kDouble: {
            double v = 0;
            if (type.kind == TypeKind::kFloat) {
                if (b.size() != 4) return "\"\"";
                uint32_t bits = bytes::read_u32(b);
                float f;
                std::memcpy(&f, &bits, 4);
                v = f;
            } else {
                if (b.size() != 8) return "\"\"";
                uint64_t bits = bytes::read_u64(b);
                std::memcpy(&v, &bits, 8);
            }
            // JSON has no NaN or infinities; Cassandra writes null for them.
            if (std::isnan(v) || std::isinf(v)) return "null";
            return numfmt::java_to_string(v, type.kind == TypeKind::kFloat);
        }
        case TypeKind::kUuid:
        case TypeKind::kTimeuuid:
            if (b.size() != 16) return "\"\"";
            return quoted(uuid::format(b));
        case TypeKind::kTimestamp:
            if (b.size() != 8) return "\"\"";
            return quoted(timeutil::format_timestamp_json(bytes::read_i64(b)));
        case TypeKind::kDate: {
            if (b.size() != 4) return "\"\"";
            uint32_t d = bytes::read_u32(b);
            auto s = timeutil::format_date(d);
            return quoted(s ? *s : std::to_string(timeutil::date_days(d)));
        }
        case TypeKind::kTime:
            if (b.size() != 8) return "\"\"";
            return quoted(timeutil::format_time(bytes::read_i64(b)));
        case TypeKind::kInet:
            if (b.size() != 4 && b.size() != 16) return "\"\"";
            return quoted(inet::format_java(b));
        case TypeKind::kDuration: {
            auto d = duration::decode(b);
            return quoted(d.is_ok() ? duration::to_string(*d) : "");
        }
        case TypeKind::kList:
        case TypeKind::kSet:
        case TypeKind::kMap: {
            bool is_map = type.kind == TypeKind::kMap;
            size_t stride = is_map ? 2 : 1;
            auto elems = collection::read_elements(b, is_map);
            if (!elems.is_ok() || type.params.size() < stride) return "null";
            std::string out = is_map ? "{" : "[";
            for (size_t i = 0; i < elems->size(); i += stride) {
                if (i > 0) out += ", ";
                std::string first = to_json(*type.params[0], (*elems)[i]);
                if (!is_map) {
                    out += first;
                    continue;
                }
                out += is_string_type(*type.params[0]) ? first : json::quote(first);
                out += ": " + to_json(*type.params[1], (*elems)[i + 1]);
            }
            return out + (is_map ? "}" : "]");
        }
        case TypeKind::kTuple:
        case TypeKind::kUdt: {
            auto fields = collection::read_fields(b);
            if (!fields.is_ok()) return "null";
            bool udt = type.kind == TypeKind::kUdt;
            std::string out = udt ? "{" : "[";
            for (size_t i = 0; i < type.params.size(); ++i) {
                if (i > 0) out += ", ";
                if (udt) {
                    std::string name = i < type.field_names.size() ? type.field_names[i] : "";
                    out += json::quote(json_field_name(name)) + ": ";
                }
                std::optional<std::string_view> f =
                    i < fields->size() ? (*fields)[i] : std::nullopt;
                out += f ? to_json(*type.params[i], *f) : "null";
            }
            return out + (udt ? "}" : "]");
        }
    }
    return "null";
}

const char* json_kind_name(const json::Value& v) {
    switch (v.kind) {
        case json::Value::Kind::kNull:
            return "null";
        case json::Value::Kind::kBool:
            return "Boolean";
        case json::Value::Kind::kNumber:
            return "Number";
        case json::Value::Kind::kString:
            return "String";
        case json::Value::Kind::kArray:
            return "List";
        case json::Value::Kind::kObject:
            return "Map";
    }
    return "value";
}

Status unexpected(const CqlType& type, const json::Value& v) {
    return Status::invalid(fmt::format("Error decoding JSON value for type {}: unexpected {}: {}",
                                       type.cql_name(), json_kind_name(v), json::serialize(v)));
}

bool is_integer_text(const std::string& t) {
    return t.find_first_of(".eE") == std::string::npos;
}

Result<std::string> from_json(const CqlType& type, const json::Value& v);

// Range errors worded as Cassandra's fromJson reports them.
Status check_integer_range(const CqlType& type, const std::string& text) {
    auto v = varint::from_decimal_string(text);
    if (!v) {
        const char* name = type.kind == TypeKind::kTinyint    ? "byte"
                           : type.kind == TypeKind::kSmallint ? "short"
                           : type.kind == TypeKind::kInt      ? "int"
                           : type.kind == TypeKind::kVarint   ? "integer"
                                                              : "long";
        return Status::invalid(fmt::format("Unable to make {} from '{}'", name, text));
    }
    if (type.kind == TypeKind::kVarint) return Status::ok();
    auto n = varint::to_int64(*v);
    switch (type.kind) {
        case TypeKind::kTinyint:
            if (n && *n >= INT8_MIN && *n <= INT8_MAX) return Status::ok();
            return Status::invalid(fmt::format("Unable to make byte from '{}'", text));
        case TypeKind::kSmallint:
            if (n && *n >= INT16_MIN && *n <= INT16_MAX) return Status::ok();
            return Status::invalid(fmt::format("Unable to make short from '{}'", text));
        case TypeKind::kInt:
            if (n && *n >= INT32_MIN && *n <= INT32_MAX) return Status::ok();
            return Status::invalid(fmt::format("Expected an int value, but got a {}: {}",
                                               n ? "Long" : "BigInteger", text));
        default:
            if (n) return Status::ok();
            return Status::invalid(
                fmt::format("Expected a bigint value, but got a BigInteger: {}", text));
    }
}

Result<std::string> scalar_from_json(const CqlType& type, const json::Value& v) {
    using JK = json::Value::Kind;
    using LK = Literal::Kind;
    LK kind = LK::kNull;
    std::string text = v.text;
    switch (type.kind) {
        case TypeKind::kAscii:
        case TypeKind::kVarchar:
            if (v.kind != JK::kString) return unexpected(type, v);
            kind = LK::kString;
            break;
        case TypeKind::kBlob:
        case TypeKind::kCustom:
            if (v.kind != JK::kString) return unexpected(type, v);
            if (text.rfind("0x", 0) != 0) {
                return Status::invalid(
                    fmt::format("String representation of blob is missing 0x prefix: {}", text));
            }
            kind = LK::kHex;
            break;
        case TypeKind::kBoolean:
            if (v.kind == JK::kBool) {
                text = v.boolean ? "true" : "false";
            }
            // Strings are accepted in any case, as BooleanType.fromString does.
            for (char& c : text)
                c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            if ((v.kind != JK::kBool && v.kind != JK::kString) ||
                (text != "true" && text != "false")) {
                return Status::invalid(
                    fmt::format("Unable to make boolean from '{}'", json::serialize(v)));
            }
            kind = LK::kBoolean;
            break;
        case TypeKind::kTinyint:
        case TypeKind::kSmallint:
        case TypeKind::kInt:
        case TypeKind::kBigint:
        case TypeKind::kCounter:
        case TypeKind::kVarint:
            if (v.kind != JK::kNumber && v.kind != JK::kString) return unexpected(type, v);
            if (v.kind == JK::kNumber && !is_integer_text(text)) {
                return Status::invalid(fmt::format(
                    "Expected an integer value for type {}, but got {}", type.cql_name(), text));
            }
            TESSEL_RETURN_IF_ERROR(check_integer_range(type, text));
            kind = LK::kInteger;
            break;
        case TypeKind::kFloat:
        case TypeKind::kDouble:
        case TypeKind::kDecimal:
            if (v.kind != JK::kNumber && v.kind != JK::kString) return unexpected(type, v);
            kind = LK::kFloat;
            if (v.kind == JK::kString && !literals::parse_float_literal(text)) {
                return Status::invalid(
                    fmt::format("Unable to make {} from '{}'", type.cql_name(), text));
            }
            break;
        case TypeKind::kDate:
        case TypeKind::kTime:
            // Unlike literals, fromJson takes dates and times only as strings.
            if (v.kind != JK::kString) {
                return Status::invalid(
                    fmt::format("Expected a string representation of a {} value, "
                                "but got a {}: {}",
                                type.cql_name(), json_kind_name(v), json::serialize(v)));
            }
            kind = LK::kString;
            break;
        case TypeKind::kTimestamp:
            if (v.kind == JK::kNumber) {
                if (!is_integer_text(text)) return unexpected(type, v);
                kind = LK::kInteger;
            } else if (v.kind == JK::kString) {
                kind = LK::kString;
            } else {
                return unexpected(type, v);
            }
            break;
        case TypeKind::kUuid:
        case TypeKind::kTimeuuid:
        case TypeKind::kInet:
        case TypeKind::kDuration:
            if (v.kind != JK::kString) return unexpected(type, v);
            kind = LK::kString;
            break;
        default:
            return unexpected(type, v);
    }
    return value_from_literal(type, Literal::scalar(kind, std::move(text)));
}

Result<std::string> collection_from_json(const CqlType& type, const json::Value& v) {
    using JK = json::Value::Kind;
    bool is_map = type.kind == TypeKind::kMap;
    if (type.params.size() < (is_map ? 2u : 1u)) return unexpected(type, v);
    std::vector<std::string> items;
    if (!is_map) {
        if (v.kind != JK::kArray) return unexpected(type, v);
        for (const auto& item : v.items) {
            if (item.kind == JK::kNull) {
                return Status::invalid("null is not supported inside collections");
            }
            TESSEL_ASSIGN_OR_RETURN(std::string e, from_json(*type.params[0], item));
            items.push_back(std::move(e));
        }
    } else {
        if (v.kind != JK::kObject) return unexpected(type, v);
        const CqlType& key_type = *type.params[0];
        for (const auto& [key, value] : v.members) {
            json::Value key_value;
            key_value.kind = JK::kString;
            key_value.text = key;
            if (!is_string_type(key_type)) {
                // Non-text keys are the JSON text of the key, e.g. "1" or "[1, 2]".
                auto parsed = json::parse(key);
                if (parsed.is_ok()) key_value = std::move(parsed).value();
            }
            if (key_value.kind == JK::kNull || value.kind == JK::kNull) {
                return Status::invalid("null is not supported inside collections");
            }
            TESSEL_ASSIGN_OR_RETURN(std::string k, from_json(key_type, key_value));
            TESSEL_ASSIGN_OR_RETURN(std::string e, from_json(*type.params[1], value));
            items.push_back(std::move(k));
            items.push_back(std::move(e));
        }
    }
    return collection::canonicalize(type, collection::write_elements(items, is_map));
}

Result<std::string> fields_from_json(const CqlType& type, const json::Value& v) {
    using JK = json::Value::Kind;
    std::vector<std::optional<std::string>> fields(type.params.size());
    if (type.kind == TypeKind::kTuple) {
        if (v.kind != JK::kArray) return unexpected(type, v);
        if (v.items.size() > type.params.size()) {
            return Status::invalid(fmt::format("Tuple contains extra items (expected {}): {}",
                                               type.params.size(), json::serialize(v)));
        }
        if (v.items.size() < type.params.size()) {
            return Status::invalid(fmt::format("Tuple is missing items (expected {}): {}",
                                               type.params.size(), json::serialize(v)));
        }
        fields.resize(v.items.size());
        for (size_t i = 0; i < v.items.size(); ++i) {
            if (v.items[i].kind == JK::kNull) continue;
            TESSEL_ASSIGN_OR_RETURN(std::string f, from_json(*type.params[i], v.items[i]));
            fields[i] = std::move(f);
        }
        return collection::write_fields(fields);
    }
    if (v.kind != JK::kObject) return unexpected(type, v);
    std::vector<std::string> unknown;
    for (const auto& [raw_name, value] : v.members) {
        // A double-quoted key is case-sensitive; otherwise it is lowercased.
        std::string name;
        if (raw_name.size() >= 2 && raw_name.front() == '"' && raw_name.back() == '"') {
            name = raw_name.substr(1, raw_name.size() - 2);
        } else {
            for (char c : raw_name)
                name.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
        }
        size_t idx = type.field_names.size();
        for (size_t i = 0; i < type.field_names.size(); ++i) {
            if (type.field_names[i] == name) idx = i;
        }
        if (idx >= type.params.size()) {
            unknown.push_back(raw_name);
            continue;
        }
        if (value.kind == JK::kNull) continue;
        TESSEL_ASSIGN_OR_RETURN(std::string f, from_json(*type.params[idx], value));
        fields[idx] = std::move(f);
    }
    if (!unknown.empty()) {
        return Status::invalid(fmt::format(
            "JSON object for user-defined type {} contained unrecognized field(s): [{}]",
            type.udt_name, fmt::join(unknown, ", ")));
    }
    return collection::write_fields(fields);
}

Result<std::string> from_json(const CqlType& type, const json::Value& v) {
    switch (type.kind) {
        case TypeKind::kList:
        case TypeKind::kSet:
        case TypeKind::kMap:
            return collection_from_json(type, v);
        case TypeKind::kTuple:
        case TypeKind::kUdt:
            return fields_from_json(type, v);
        default:
            return scalar_from_json(type, v);
    }
}

}  // namespace

std::string value_to_json(const CqlType& type, std::string_view bytes) {
    return to_json(type, bytes);
}

Result<std::string> value_from_json(const CqlType& type, std::string_view json_text) {
    TESSEL_ASSIGN_OR_RETURN(json::Value v, json::parse(json_text));
    if (v.kind == json::Value::Kind::kNull) {
        return Status::invalid("JSON null is not a value; callers treat it as a null column");
    }
    return from_json(type, v);
}

}  // namespace tessel
