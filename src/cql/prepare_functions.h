// The native scalar functions CQL terms and selectors may call: now(),
// uuid(), toTimestamp(), toDate(), toUnixTimestamp(), currentTimestamp(),
// currentDate(), currentTime(), currentTimeUUID(), minTimeuuid(),
// maxTimeuuid(), dateOf(), unixTimestampOf(), blobAsT() and TAsBlob() for
// every native type T.
//
// Prepare resolves a call to one overload (by name, arity and argument types)
// and execution calls it on encoded values. Functions never fail on null
// arguments: they return null, as Cassandra's do.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "types/cql_type.h"

namespace tessel::cql {

using OptValue = std::optional<std::string>;  // nullopt = null

struct ScalarFunction {
    std::string name;  // lower-case
    std::vector<TypePtr> arg_types;
    TypePtr return_type;
    // Whether a call with the same arguments always returns the same value
    // (now() and uuid() are not pure: each call is a new value).
    bool pure = true;
    Result<OptValue> (*call)(const ScalarFunction& self,
                             const std::vector<OptValue>& args) = nullptr;
};

// The overloads named `name` (case-insensitive) with `arity` arguments.
std::vector<const ScalarFunction*> find_functions(std::string_view name, size_t arity);

// token(k1, k2, ...): the Murmur3 token of partition key values, for
// restrictions such as token(k) > token(?). Takes any number of arguments;
// query/term_eval.cpp evaluates it.
const ScalarFunction* token_function();

// fromJson(text): a JSON document as a value of the type the term is
// assigned to (the term's type); query/term_eval.cpp evaluates it.
const ScalarFunction* fromjson_function();

// True when `name` names any native scalar function.
bool is_scalar_function(std::string_view name);

// Whether CAST(x AS to) exists for x of type `from` (Cassandra's CastFcts):
// numbers to numbers (not counter) and to text/ascii; ascii to text; inet,
// boolean, uuid, time to text/ascii; timeuuid, timestamp, date to text/ascii
// and between each other as toDate()/toTimestamp(). A cast to the argument's
// own type is no cast at all and is not asked here.
bool castable(TypeKind from, TypeKind to);

// Time helpers shared by functions and the coordinator.
int64_t now_micros();
// A version-1 (time-based) UUID for `unix_micros`, unique per call.
std::string make_timeuuid(int64_t unix_micros);
// The unix time in milliseconds of a version-1 UUID.
int64_t timeuuid_unix_millis(std::string_view uuid);
std::string encode_bigint(int64_t v);
int64_t decode_bigint(std::string_view b);  // 8-byte big-endian; 0 if malformed
std::string encode_int(int32_t v);
int32_t decode_int(std::string_view b);  // 4-byte big-endian; 0 if malformed

}  // namespace tessel::cql
