// Response messages (server -> client) for protocol v3 and v4: encoded by the
// server, decoded by the C++ client. Layouts follow native_protocol_v4.spec
// §4.2; RESULT bodies live in protocol/results.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "common/status.h"
#include "protocol/frame.h"
#include "protocol/results.h"
#include "protocol/wire.h"

namespace tessel::protocol {

// ERROR: <code><message> and the code's extra fields (reference §1.11).
struct ErrorResponse {
    ErrorCode code = ErrorCode::kServerError;
    std::string message;
    // Unavailable, Write/Read_timeout, Read/Write_failure.
    uint16_t consistency = static_cast<uint16_t>(Consistency::kOne);
    int32_t required = 0;  // Unavailable
    int32_t alive = 0;     // Unavailable
    int32_t received = 0;  // timeouts and failures
    int32_t block_for = 0;
    int32_t num_failures = 0;   // Read/Write_failure
    bool data_present = false;  // Read_timeout, Read_failure
    // Write_timeout, Write_failure: SIMPLE, BATCH, UNLOGGED_BATCH, COUNTER,
    // BATCH_LOG, CAS, VIEW or CDC. Anything else is sent as SIMPLE, since
    // drivers cannot decode unknown write types.
    std::string write_type = "SIMPLE";
    // Already_exists (table empty for a keyspace); Function_failure (keyspace, function).
    std::string keyspace;
    std::string table;
    std::string function;
    std::vector<std::string> argument_types;  // Function_failure
    std::string unprepared_id;                // Unprepared: the id the client sent

    // Code and message of `status` (which must be an error), with the extra
    // fields Status carries: detail1/detail2 = keyspace/table for
    // Already_exists, detail1 = statement id for Unprepared.
    static ErrorResponse from_status(const Status& status);
    Status to_status() const;
};

struct ReadyResponse {};
struct AuthenticateResponse {
    std::string authenticator;  // e.g. org.apache.cassandra.auth.PasswordAuthenticator
};
struct SupportedResponse {
    StringMultimap options;  // must hold CQL_VERSION and COMPRESSION
};
struct AuthChallengeResponse {
    std::optional<std::string> token;
};
struct AuthSuccessResponse {
    std::optional<std::string> token;  // Cassandra sends null
};

// EVENT bodies. Change strings: NEW_NODE / REMOVED_NODE / MOVED_NODE, UP / DOWN.
struct TopologyChangeEvent {
    std::string change;
    Inet node;
};
struct StatusChangeEvent {
    std::string change;
    Inet node;
};
struct SchemaChangeEvent {
    SchemaChange change;
};

using Response = std::variant<ErrorResponse, ReadyResponse, AuthenticateResponse, SupportedResponse,
                              VoidResult, RowsResult, SetKeyspaceResult, PreparedResult,
                              SchemaChangeResult, TopologyChangeEvent, StatusChangeEvent,
                              SchemaChangeEvent, AuthChallengeResponse, AuthSuccessResponse>;

Opcode response_opcode(const Response& response);

// The message body alone. For v3, the failure codes v3 lacks are sent as
// Cassandra does: Read_failure as Read_timeout, Write_failure as
// Write_timeout, Function_failure as Invalid.
std::string encode_response_body(uint8_t protocol_version, const Response& response);

// A whole response frame, uncompressed: header version 0x80|protocol_version,
// then the tracing id (flag 0x02) and warnings (flag 0x08) when given, then the
// body. EVENT messages always go on stream -1 whatever `stream` says.
std::string encode_response_frame(uint8_t protocol_version, int16_t stream,
                                  const Response& response,
                                  const std::vector<std::string>& warnings = {},
                                  const std::optional<Uuid>& tracing_id = std::nullopt);

// The same frame appended to `out` (which may already hold other frames).
void append_response_frame(uint8_t protocol_version, int16_t stream, const Response& response,
                           const std::vector<std::string>& warnings, std::string* out,
                           const std::optional<Uuid>& tracing_id = std::nullopt);

struct DecodedResponse {
    Response response;
    std::optional<Uuid> tracing_id;
    std::vector<std::string> warnings;
    BytesMap custom_payload;
};

// Decodes a (decompressed) response body, reading in order the tracing id,
// warnings and custom payload that `frame_flags` announce. Request opcodes,
// unknown RESULT kinds or EVENT types, truncated and malformed bodies give
// Protocol_error.
Result<DecodedResponse> decode_response(uint8_t protocol_version, Opcode opcode,
                                        uint8_t frame_flags, std::string_view body);

}  // namespace tessel::protocol
