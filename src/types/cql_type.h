// CqlType: the descriptor of a CQL data type.
//
// Values of every type are carried as their CQL native-protocol encoding
// (the bytes of a [value], without the length), held in std::string. That one
// representation is what the wire carries, what a cell stores and what the
// functions in types/value.h validate, compare, print and key-encode.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tessel {

// Numbering is the protocol's [option] id (native_protocol_v4.spec 4.2.5.2).
enum class TypeKind : uint16_t {
    kCustom = 0x0000,
    kAscii = 0x0001,
    kBigint = 0x0002,
    kBlob = 0x0003,
    kBoolean = 0x0004,
    kCounter = 0x0005,
    kDecimal = 0x0006,
    kDouble = 0x0007,
    kFloat = 0x0008,
    kInt = 0x0009,
    kTimestamp = 0x000B,
    kUuid = 0x000C,
    kVarchar = 0x000D,  // text
    kVarint = 0x000E,
    kTimeuuid = 0x000F,
    kInet = 0x0010,
    kDate = 0x0011,
    kTime = 0x0012,
    kSmallint = 0x0013,
    kTinyint = 0x0014,
    kDuration = 0x0015,  // sent as Custom(DurationType) in v4
    kList = 0x0020,
    kMap = 0x0021,
    kSet = 0x0022,
    kUdt = 0x0030,
    kTuple = 0x0031,
};

struct CqlType;
using TypePtr = std::shared_ptr<const CqlType>;

struct CqlType {
    TypeKind kind = TypeKind::kBlob;
    // frozen<...>: the whole collection/UDT is one cell. Tuples are always frozen.
    bool frozen = false;
    // list/set: {element}; map: {key, value}; tuple: its components; udt: its field types.
    std::vector<TypePtr> params;
    // udt only.
    std::string udt_keyspace;
    std::string udt_name;
    std::vector<std::string> field_names;

    bool is_collection() const {
        return kind == TypeKind::kList || kind == TypeKind::kSet || kind == TypeKind::kMap;
    }
    // Stored as one cell per element (non-frozen collection or UDT).
    bool is_multi_cell() const { return (is_collection() || kind == TypeKind::kUdt) && !frozen; }
    bool is_counter() const { return kind == TypeKind::kCounter; }

    // The CQL spelling, as DESCRIBE and system_schema print it:
    // "int", "text", "map<text, int>", "frozen<list<int>>", "frozen<address>".
    std::string cql_name() const;
    // Structural equality (ignores nothing: frozen-ness counts).
    bool equals(const CqlType& other) const;
};

// Constructors. Returned types are immutable and may be shared freely.
TypePtr native_type(TypeKind kind);
TypePtr list_type(TypePtr element, bool frozen);
TypePtr set_type(TypePtr element, bool frozen);
TypePtr map_type(TypePtr key, TypePtr value, bool frozen);
TypePtr tuple_type(std::vector<TypePtr> components);
TypePtr udt_type(std::string keyspace, std::string name, std::vector<std::string> field_names,
                 std::vector<TypePtr> field_types, bool frozen);
TypePtr frozen_of(const TypePtr& type);

// A native (non-parameterised) type by its CQL name, case-insensitive
// ("int", "text", "varchar", "timeuuid", ...); nullptr when it is not one.
TypePtr native_type_by_name(std::string_view name);

}  // namespace tessel
