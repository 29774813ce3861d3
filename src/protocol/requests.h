// Request messages (client -> server) for protocol v3 and v4: decoded from a
// frame body into structs for the server, encoded from the same structs for
// the C++ client. Layouts follow native_protocol_v4.spec §4.1; v3 differs only
// in [value] (no "unset": every negative length is null).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "common/status.h"
#include "protocol/frame.h"
#include "protocol/wire.h"

namespace tessel::protocol {

// QUERY / EXECUTE flags (a [byte] in v3 and v4).
inline constexpr uint8_t kQueryFlagValues = 0x01;
inline constexpr uint8_t kQueryFlagSkipMetadata = 0x02;
inline constexpr uint8_t kQueryFlagPageSize = 0x04;
inline constexpr uint8_t kQueryFlagPagingState = 0x08;
inline constexpr uint8_t kQueryFlagSerialConsistency = 0x10;
inline constexpr uint8_t kQueryFlagDefaultTimestamp = 0x20;
inline constexpr uint8_t kQueryFlagNamesForValues = 0x40;

// The <query_parameters> shared by QUERY and EXECUTE.
struct QueryParameters {
    uint16_t consistency = static_cast<uint16_t>(Consistency::kOne);
    // As received. Encoding derives the flags from the fields below instead.
    uint8_t flags = 0;
    std::vector<BoundValue> values;
    // Empty unless the values were sent with names (flag 0x40); then one per value.
    std::vector<std::string> value_names;
    std::optional<int32_t> page_size;  // <= 0 means "no paging", as in Cassandra
    std::optional<std::string> paging_state;
    std::optional<uint16_t> serial_consistency;
    std::optional<int64_t> default_timestamp;  // microseconds since the epoch
    bool skip_metadata = false;

    bool operator==(const QueryParameters&) const = default;
};

struct StartupRequest {
    StringMap options;  // CQL_VERSION, COMPRESSION, DRIVER_NAME, ...
    bool operator==(const StartupRequest&) const = default;
};
struct OptionsRequest {
    bool operator==(const OptionsRequest&) const = default;
};
struct QueryRequest {
    std::string query;
    QueryParameters params;
    bool operator==(const QueryRequest&) const = default;
};
struct PrepareRequest {
    std::string query;
    bool operator==(const PrepareRequest&) const = default;
};
struct ExecuteRequest {
    std::string id;  // prepared statement id, opaque
    QueryParameters params;
    bool operator==(const ExecuteRequest&) const = default;
};

enum class BatchType : uint8_t { kLogged = 0, kUnlogged = 1, kCounter = 2 };

struct BatchStatement {
    bool is_prepared = false;  // kind 1: `query_or_id` is a prepared id
    std::string query_or_id;
    std::vector<BoundValue> values;
    bool operator==(const BatchStatement&) const = default;
};

// BATCH flags (a [byte] in v3 and v4).
inline constexpr uint8_t kBatchFlagSerialConsistency = 0x10;
inline constexpr uint8_t kBatchFlagDefaultTimestamp = 0x20;
// Names for values (0x40) cannot be decoded (the flags follow the values) and
// are rejected with Protocol_error, as in Cassandra (CASSANDRA-10246).
inline constexpr uint8_t kBatchFlagNamesForValues = 0x40;

struct BatchRequest {
    BatchType type = BatchType::kLogged;
    std::vector<BatchStatement> statements;
    uint16_t consistency = static_cast<uint16_t>(Consistency::kOne);
    uint8_t flags = 0;  // as received; encoding derives it
    std::optional<uint16_t> serial_consistency;
    std::optional<int64_t> default_timestamp;
    bool operator==(const BatchRequest&) const = default;
};

struct RegisterRequest {
    std::vector<std::string> event_types;  // TOPOLOGY_CHANGE, STATUS_CHANGE, SCHEMA_CHANGE
    bool operator==(const RegisterRequest&) const = default;
};
struct AuthResponseRequest {
    std::optional<std::string> token;  // SASL PLAIN: "\0user\0password"
    bool operator==(const AuthResponseRequest&) const = default;
};

using Request = std::variant<StartupRequest, OptionsRequest, QueryRequest, PrepareRequest,
                             ExecuteRequest, BatchRequest, RegisterRequest, AuthResponseRequest>;

// The opcode that carries `request`.
Opcode request_opcode(const Request& request);

// Decodes a request body. `body` must already be decompressed. When
// `frame_flags` has the custom payload bit (v4 only; Protocol_error in v3 as in
// Cassandra) the leading [bytes map] is skipped; the tracing bit is ignored.
// Opcodes that are not requests, truncated or malformed bodies give
// Protocol_error. Trailing bytes after a message are ignored, as Cassandra does.
Result<Request> decode_request(uint8_t protocol_version, Opcode opcode, uint8_t frame_flags,
                               std::string_view body);

// The body of `request` for `protocol_version` (3 or 4). Flags of
// QueryParameters and BatchRequest are derived from which fields are set:
// values non-empty, value_names non-empty, page_size, paging_state, ...
// Unset values require v4 (they are sent as null in v3).
std::string encode_request_body(uint8_t protocol_version, const Request& request);

// The whole request frame, uncompressed and without custom payload.
// `extra_flags` may only hold kFlagTracing (ask the server to trace).
std::string encode_request_frame(uint8_t protocol_version, int16_t stream, const Request& request,
                                 uint8_t extra_flags = 0);

// Pieces shared by several messages, exposed for tests and for the client.
Result<QueryParameters> read_query_parameters(WireReader& r, uint8_t protocol_version);
void write_query_parameters(WireWriter& w, const QueryParameters& params, uint8_t protocol_version);

}  // namespace tessel::protocol
