#include "query/term_eval.h"

#include <algorithm>

#include "partition/murmur3.h"
#include "partition/token.h"
#include "types/bytes_util.h"
#include "types/collection.h"
#include "types/value.h"

namespace tessel::query {
namespace {

void put_len_value(std::string* out, std::string_view v) {
    bytes::append_be(out, static_cast<uint32_t>(v.size()), 4);
    out->append(v);
}

Result<TermValue> evaluate_collection(const cql::TermPlan& t, const std::vector<BoundValue>& vals) {
    std::vector<TermValue> parts;
    parts.reserve(t.args.size());
    for (const auto& a : t.args) {
        TESSEL_ASSIGN_OR_RETURN(auto v, evaluate(a, vals));
        parts.push_back(std::move(v));
    }
    const CqlType& type = *t.type;
    if (type.kind == TypeKind::kTuple || type.kind == TypeKind::kUdt) {
        std::string out;
        for (size_t i = 0; i < parts.size(); ++i) {
            const TermValue& p = parts[i];
            if (p.is_unset()) {
                if (type.kind == TypeKind::kTuple) {
                    return Status::invalid("Invalid unset value for tuple field number " +
                                           std::to_string(i));
                }
                return Status::invalid("Invalid unset value for field '" +
                                       (i < type.field_names.size() ? type.field_names[i] : "") +
                                       "' of user defined type " + type.udt_name);
            }
            if (p.is_value()) {
                put_len_value(&out, p.bytes);
            } else {
                bytes::append_be(&out, 0xFFFFFFFFu, 4);  // null component
            }
        }
        return TermValue::value(std::move(out));
    }
    // Cassandra 4.0: null is refused anywhere in a collection literal; an
    // unset element or map value leaves the whole collection unset (the
    // column is not written), an unset map key is refused.
    for (size_t i = 0; i < parts.size(); ++i) {
        const TermValue& p = parts[i];
        if (p.is_unset()) {
            if (type.kind == TypeKind::kMap && i % 2 == 0) {
                return Status::invalid("unset value is not supported for map keys");
            }
            return TermValue{TermValue::Kind::kUnset, {}};
        }
        if (!p.is_value()) return Status::invalid("null is not supported inside collections");
    }
    if (type.kind == TypeKind::kList) {
        std::vector<std::string> els;
        for (auto& p : parts)
            els.push_back(std::move(p.bytes));
        return TermValue::value(encode_collection(els));
    }
    if (type.kind == TypeKind::kSet) {
        std::vector<std::string> els;
        for (auto& p : parts)
            els.push_back(std::move(p.bytes));
        const CqlType& et = *type.params[0];
        std::sort(els.begin(), els.end(), [&](const std::string& a, const std::string& b) {
            return compare_values(et, a, b) < 0;
        });
        els.erase(std::unique(els.begin(), els.end(),
                              [&](const std::string& a, const std::string& b) {
                                  return compare_values(et, a, b) == 0;
                              }),
                  els.end());
        return TermValue::value(encode_collection(els));
    }
    std::vector<std::pair<std::string, std::string>> entries;
    for (size_t i = 0; i + 1 < parts.size(); i += 2) {
        entries.emplace_back(std::move(parts[i].bytes), std::move(parts[i + 1].bytes));
    }
    const CqlType& kt = *type.params[0];
    std::stable_sort(entries.begin(), entries.end(), [&](const auto& a, const auto& b) {
        return compare_values(kt, a.first, b.first) < 0;
    });
    // Later duplicates win, as in Cassandra's map literal.
    std::vector<std::pair<std::string, std::string>> dedup;
    for (auto& e : entries) {
        if (!dedup.empty() && compare_values(kt, dedup.back().first, e.first) == 0) {
            dedup.back() = std::move(e);
        } else {
            dedup.push_back(std::move(e));
        }
    }
    return TermValue::value(encode_map(dedup));
}

}  // namespace

std::string encode_collection(const std::vector<std::string>& elements) {
    std::string out;
    bytes::append_be(&out, elements.size(), 4);
    for (const auto& e : elements)
        put_len_value(&out, e);
    return out;
}

std::string encode_map(const std::vector<std::pair<std::string, std::string>>& entries) {
    std::string out;
    bytes::append_be(&out, entries.size(), 4);
    for (const auto& [k, v] : entries) {
        put_len_value(&out, k);
        put_len_value(&out, v);
    }
    return out;
}

Result<std::vector<std::string>> split_collection(const CqlType& type, std::string_view in) {
    std::vector<std::string> out;
    if (in.empty()) return out;
    if (in.size() < 4) return Status::invalid("Not enough bytes to read a collection size");
    const uint32_t n = bytes::read_u32(in);
    in.remove_prefix(4);
    const uint32_t per = type.kind == TypeKind::kMap ? 2 : 1;
    for (uint64_t i = 0; i < static_cast<uint64_t>(n) * per; ++i) {
        if (in.size() < 4) return Status::invalid("Not enough bytes to read a collection element");
        const int32_t len = bytes::read_i32(in);
        in.remove_prefix(4);
        if (len < 0 || in.size() < static_cast<size_t>(len)) {
            return Status::invalid("Invalid collection element length");
        }
        out.emplace_back(in.substr(0, len));
        in.remove_prefix(len);
    }
    return out;
}

Result<TermValue> evaluate(const cql::TermPlan& t, const std::vector<BoundValue>& vals) {
    switch (t.kind) {
        case cql::TermPlan::Kind::kConstant:
            return TermValue::value(t.constant);
        case cql::TermPlan::Kind::kNull:
            return TermValue{};
        case cql::TermPlan::Kind::kMarker: {
            if (t.marker < 0 || static_cast<size_t>(t.marker) >= vals.size()) {
                return Status::invalid("There were " + std::to_string(vals.size()) +
                                       " markers(?) in CQL but " + std::to_string(vals.size()) +
                                       " bound variables");
            }
            const BoundValue& b = vals[t.marker];
            if (b.kind == BoundValue::Kind::kNull) return TermValue{};
            if (b.kind == BoundValue::Kind::kUnset) return TermValue{TermValue::Kind::kUnset, {}};
            Status st = validate_value(*t.type, b.bytes);
            if (!st.is_ok()) {
                return Status::invalid("Invalid value for bind marker " + std::to_string(t.marker) +
                                       " of type " + t.type->cql_name() + ": " + st.message());
            }
            // A client may send a set or map unsorted or with duplicates: what
            // is stored and compared is the canonical form (Cassandra sorts
            // them as it deserializes).
            if (t.type->is_collection() || t.type->kind == TypeKind::kTuple ||
                t.type->kind == TypeKind::kUdt) {
                return TermValue::value(collection::canonicalize(*t.type, b.bytes));
            }
            return TermValue::value(b.bytes);
        }
        case cql::TermPlan::Kind::kFunction: {
            std::vector<cql::OptValue> args;
            for (const auto& a : t.args) {
                TESSEL_ASSIGN_OR_RETURN(auto v, evaluate(a, vals));
                if (v.is_value()) {
                    args.emplace_back(std::move(v.bytes));
                } else {
                    args.emplace_back();
                }
            }
            if (t.function == cql::fromjson_function()) {
                if (!args[0]) return TermValue{};
                TESSEL_ASSIGN_OR_RETURN(auto v, value_from_json(*t.type, *args[0]));
                return TermValue::value(std::move(v));
            }
            if (t.function == cql::token_function()) {
                std::vector<std::string_view> parts;
                for (const auto& a : args) {
                    if (!a) return TermValue{};
                    parts.push_back(*a);
                }
                TESSEL_RETURN_IF_ERROR(check_partition_key_components(parts));
                return TermValue::value(
                    bytes::i64_bytes(murmur3_token(serialize_partition_key(parts))));
            }
            TESSEL_ASSIGN_OR_RETURN(auto r, t.function->call(*t.function, args));
            if (!r) return TermValue{};
            return TermValue::value(std::move(*r));
        }
        case cql::TermPlan::Kind::kCollection:
            return evaluate_collection(t, vals);
    }
    return TermValue{};
}

}  // namespace tessel::query
