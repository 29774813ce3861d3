// Operations on CQL values held in their native-protocol encoding.
//
// Every function takes the value's CqlType and the encoded bytes. "Empty"
// values (zero bytes) are legal for most non-string types as in Cassandra and
// sort before every other value. Null is not a value: callers handle it
// (std::optional or a separate flag) before calling these.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"
#include "types/cql_type.h"
#include "types/literal.h"

namespace tessel {

// Ok when `bytes` is a well-formed value of `type` (sizes, UTF-8 for text,
// ASCII range, UUID version 1 for timeuuid, nested collections...). The error
// is Invalid with a message like Cassandra's ("Expected 4 or 0 byte int (8)").
Status validate_value(const CqlType& type, std::string_view bytes);

// Three-way comparison in CQL order (<0, 0, >0). Both values must be valid.
// Order follows Cassandra: signed numbers numerically, text/blob/inet
// bytewise, timeuuid by time then bytes, uuid by version then (time or
// bytes), booleans false<true, collections element-wise, etc.
int compare_values(const CqlType& type, std::string_view a, std::string_view b);

// The value as cqlsh prints it in a result table: 42, 'text' unquoted -> text,
// 0xcafe, 2024-01-02 03:04:05.000000+0000, [1, 2], {'a': 1}, {f: 1}, (1, 'x').
std::string format_value(const CqlType& type, std::string_view bytes);

// The value as a CQL literal that parses back to the same value (quoted
// strings, timestamps as quoted ISO text): used by DESCRIBE and INSERT JSON tests.
std::string format_cql_literal(const CqlType& type, std::string_view bytes);

// Literal -> encoded value of `type`. Invalid error naming the type when the
// literal does not fit ("Invalid INTEGER constant (1.5) for "k" of type int"
// is built by the caller from the message). Precondition: lit.kind != kNull.
Result<std::string> value_from_literal(const CqlType& type, const Literal& lit);

// JSON (SELECT JSON / INSERT JSON / toJson / fromJson), as Cassandra writes it.
std::string value_to_json(const CqlType& type, std::string_view bytes);
Result<std::string> value_from_json(const CqlType& type, std::string_view json_text);

// Order-preserving key encoding: memcmp order of the output equals
// compare_values order; with `descending` the order is inverted. The encoding
// is self-delimiting (no encoded value is a prefix of another), so encoded
// components can be concatenated into composite keys.
void encode_key(const CqlType& type, std::string_view bytes, bool descending, std::string* out);
// Reads one component written by encode_key from the front of *in and
// advances *in past it. Corrupt input gives a ServerError, never a crash.
Result<std::string> decode_key(const CqlType& type, std::string_view* in, bool descending);

}  // namespace tessel
