#include "types/type_compatibility.h"

namespace tessel {
namespace {

bool is_text(TypeKind k) {
    return k == TypeKind::kVarchar || k == TypeKind::kAscii;
}

// Tuples and user types: `type` may add components at the end.
bool fields_compatible(const CqlType& type, const CqlType& previous, bool values) {
    if (type.kind != previous.kind || type.frozen != previous.frozen) return false;
    if (type.kind == TypeKind::kUdt && type.udt_keyspace != previous.udt_keyspace) return false;
    if (type.params.size() < previous.params.size()) return false;
    for (size_t i = 0; i < previous.params.size(); ++i) {
        const bool ok = values ? is_value_compatible_with(*type.params[i], *previous.params[i])
                               : is_compatible_with(*type.params[i], *previous.params[i]);
        if (!ok) return false;
    }
    return true;
}

bool collection_compatible(const CqlType& type, const CqlType& previous, bool values) {
    if (type.kind != previous.kind || type.is_multi_cell() != previous.is_multi_cell()) {
        return false;
    }
    // A multi-cell collection's elements are keyed cells: value compatibility
    // is compatibility there.
    if (type.is_multi_cell()) values = false;
    switch (type.kind) {
        case TypeKind::kList:
            return values ? is_value_compatible_with(*type.params[0], *previous.params[0])
                          : is_compatible_with(*type.params[0], *previous.params[0]);
        case TypeKind::kSet:
            return is_compatible_with(*type.params[0], *previous.params[0]);
        default:  // map: keys order the entries, values are values
            return is_compatible_with(*type.params[0], *previous.params[0]) &&
                   is_value_compatible_with(*type.params[1], *previous.params[1]);
    }
}

}  // namespace

bool is_compatible_with(const CqlType& type, const CqlType& previous) {
    if (type.equals(previous)) return true;
    if (type.is_collection()) return collection_compatible(type, previous, false);
    if (type.kind == TypeKind::kUdt || type.kind == TypeKind::kTuple) {
        return fields_compatible(type, previous, false);
    }
    switch (type.kind) {
        case TypeKind::kVarchar:  // text sorts ascii the same
            return previous.kind == TypeKind::kAscii;
        case TypeKind::kBlob:  // bytes sort text the same
            return is_text(previous.kind);
        default:
            return false;
    }
}

bool is_value_compatible_with(const CqlType& type, const CqlType& previous) {
    if (is_compatible_with(type, previous)) return true;
    if (type.is_collection()) return collection_compatible(type, previous, true);
    if (type.kind == TypeKind::kUdt || type.kind == TypeKind::kTuple) {
        return fields_compatible(type, previous, true);
    }
    switch (type.kind) {
        case TypeKind::kBlob:  // bytes read anything
            return true;
        case TypeKind::kBigint:
            return previous.kind == TypeKind::kTimestamp;
        case TypeKind::kTimestamp:
            return previous.kind == TypeKind::kBigint;
        case TypeKind::kVarint:
            return previous.kind == TypeKind::kInt || previous.kind == TypeKind::kBigint ||
                   previous.kind == TypeKind::kSmallint || previous.kind == TypeKind::kTinyint;
        default:
            return false;
    }
}

}  // namespace tessel
