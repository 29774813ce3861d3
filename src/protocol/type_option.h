// CQL types as the protocol's [option] (native_protocol_v4.spec §4.2.5.2),
// used in Rows and Prepared metadata.
#pragma once

#include "common/status.h"
#include "protocol/wire.h"
#include "types/cql_type.h"

namespace tessel::protocol {

inline constexpr std::string_view kDurationTypeClass =
    "org.apache.cassandra.db.marshal.DurationType";

// Deepest type nesting accepted when decoding; deeper input is rejected so a
// hostile frame cannot exhaust the stack.
inline constexpr int kMaxTypeNesting = 64;

// Appends `type` as an [option]. Text is sent as varchar (0x000D); duration as
// Custom(DurationType), its only v4 form; list/set/map/tuple/udt recurse.
// A kCustom type carries its Java class name in `udt_name` (a convention of
// this codec: CqlType has no dedicated field for it).
void write_type_option(const CqlType& type, WireWriter& w);

// Reads one [option]. 0x000A (legacy text) reads as varchar, Custom(DurationType)
// and 0x0015 as duration, other custom classes as kCustom with the class name
// in udt_name. Frozen-ness is not on the wire: top-level collections read as
// not frozen; collections and UDTs nested in another type, top-level UDTs and
// tuples read as frozen (the only forms Cassandra allows there and in v4 results).
// Unknown ids, truncated input and nesting deeper than kMaxTypeNesting give
// Protocol_error.
Result<TypePtr> read_type_option(WireReader& r);

}  // namespace tessel::protocol
