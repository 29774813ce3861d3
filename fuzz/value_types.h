// The fixed table of CQL types fuzz_values picks from (by data[0] modulo its
// size) and the seed generator writes values for. Appending keeps existing
// seeds meaningful; reordering or removing entries retargets them.
#pragma once

#include <vector>

#include "types/cql_type.h"

namespace tessel::fuzz {
namespace value_types_detail {

inline TypePtr nat(TypeKind k) {
    return native_type(k);
}

// Every native type, then nested frozen collections, tuples and UDTs (the
// shapes keys and cells take), then a few non-frozen collections.
inline std::vector<TypePtr> build_type_table() {
    std::vector<TypePtr> t;
    for (TypeKind k :
         {TypeKind::kAscii,   TypeKind::kBigint,    TypeKind::kBlob,    TypeKind::kBoolean,
          TypeKind::kCounter, TypeKind::kDecimal,   TypeKind::kDouble,  TypeKind::kFloat,
          TypeKind::kInt,     TypeKind::kTimestamp, TypeKind::kUuid,    TypeKind::kVarchar,
          TypeKind::kVarint,  TypeKind::kTimeuuid,  TypeKind::kInet,    TypeKind::kDate,
          TypeKind::kTime,    TypeKind::kSmallint,  TypeKind::kTinyint, TypeKind::kDuration}) {
        t.push_back(nat(k));
    }
    const TypePtr i = nat(TypeKind::kInt), txt = nat(TypeKind::kVarchar);
    const TypePtr address = udt_type(
        "ks", "address", {"street", "zip", "tags", "loc"},
        {txt, i, set_type(txt, true), tuple_type({nat(TypeKind::kFloat), nat(TypeKind::kFloat)})},
        true);
    t.push_back(list_type(i, true));
    t.push_back(set_type(txt, true));
    t.push_back(map_type(txt, nat(TypeKind::kBigint), true));
    t.push_back(list_type(map_type(i, set_type(nat(TypeKind::kUuid), true), true), true));
    t.push_back(tuple_type({i, txt, list_type(nat(TypeKind::kDouble), true)}));
    t.push_back(address);
    t.push_back(map_type(nat(TypeKind::kTimeuuid),
                         tuple_type({nat(TypeKind::kDecimal), nat(TypeKind::kVarint)}), true));
    t.push_back(tuple_type({nat(TypeKind::kInet), nat(TypeKind::kDate), nat(TypeKind::kTime),
                            nat(TypeKind::kDuration)}));
    t.push_back(set_type(tuple_type({nat(TypeKind::kVarint), nat(TypeKind::kDecimal)}), true));
    t.push_back(list_type(nat(TypeKind::kBlob), true));
    t.push_back(map_type(nat(TypeKind::kAscii), address, true));
    t.push_back(udt_type("ks", "outer", {"a", "b"}, {address, list_type(address, true)}, true));
    t.push_back(set_type(nat(TypeKind::kDouble), true));
    t.push_back(set_type(nat(TypeKind::kFloat), true));
    t.push_back(map_type(nat(TypeKind::kBoolean), nat(TypeKind::kSmallint), true));
    t.push_back(
        tuple_type({nat(TypeKind::kTinyint), nat(TypeKind::kTimestamp), nat(TypeKind::kTimeuuid)}));
    t.push_back(list_type(i, false));
    t.push_back(map_type(txt, list_type(i, true), false));
    t.push_back(set_type(nat(TypeKind::kDate), false));
    t.push_back(udt_type("ks", "address", {"street", "zip"}, {txt, i}, false));
    return t;
}

}  // namespace value_types_detail

inline const std::vector<TypePtr>& value_type_table() {
    static const std::vector<TypePtr> table = value_types_detail::build_type_table();
    return table;
}

}  // namespace tessel::fuzz
