// Binary encoding of schema definitions for the persistent catalog.
//
// Each value starts with a one-byte tag ('K' keyspace, 'T' table, 'U' user
// type) and a format version, so a later release can read what an earlier one
// wrote. Integers are LEB128 varints (signed ones zigzag), strings are
// length-prefixed, doubles are their IEEE-754 bits. CqlTypes are encoded
// recursively, user types with their full field list, so a table entry decodes
// without consulting any other entry.
//
// Decoding never trusts its input: truncated, oversized or inconsistent data
// gives a Server_error ("corrupt ... entry: ..."), never a crash.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"
#include "schema/keyspace.h"
#include "schema/table.h"
#include "types/cql_type.h"

namespace tessel {

std::string encode_type(const CqlType& type);
Result<TypePtr> decode_type(std::string_view bytes);

// The keyspace's own fields only; its tables and types are separate entries.
std::string encode_keyspace(const KeyspaceDef& ks);
Result<KeyspaceDef> decode_keyspace(std::string_view bytes);

// Returns a finalized TableDef.
std::string encode_table(const TableDef& table);
Result<TableDef> decode_table(std::string_view bytes);

std::string encode_user_type(const UserTypeDef& type);
Result<UserTypeDef> decode_user_type(std::string_view bytes);

}  // namespace tessel
