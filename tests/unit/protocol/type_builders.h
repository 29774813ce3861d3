// Type construction and comparison for the protocol tests, kept local so the
// tests need nothing from the types library but the CqlType struct.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "types/cql_type.h"

namespace tessel::protocol::test_types {

inline TypePtr t(TypeKind kind, bool frozen = false, std::vector<TypePtr> params = {}) {
    auto type = std::make_shared<CqlType>();
    type->kind = kind;
    type->frozen = frozen;
    type->params = std::move(params);
    return type;
}

inline TypePtr udt(std::string ks, std::string name, std::vector<std::string> fields,
                   std::vector<TypePtr> types) {
    auto type = std::make_shared<CqlType>();
    type->kind = TypeKind::kUdt;
    type->frozen = true;
    type->udt_keyspace = std::move(ks);
    type->udt_name = std::move(name);
    type->field_names = std::move(fields);
    type->params = std::move(types);
    return type;
}

inline bool same_type(const CqlType& a, const CqlType& b) {
    if (a.kind != b.kind || a.frozen != b.frozen || a.udt_keyspace != b.udt_keyspace ||
        a.udt_name != b.udt_name || a.field_names != b.field_names ||
        a.params.size() != b.params.size()) {
        return false;
    }
    for (size_t i = 0; i < a.params.size(); ++i) {
        if (!a.params[i] || !b.params[i] || !same_type(*a.params[i], *b.params[i])) return false;
    }
    return true;
}

}  // namespace tessel::protocol::test_types
