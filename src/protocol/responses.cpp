#include "protocol/responses.h"

#include "types/utf8.h"

#include <type_traits>

namespace tessel::protocol {
namespace {

bool is_known_write_type(std::string_view t) {
    return t == "SIMPLE" || t == "BATCH" || t == "UNLOGGED_BATCH" || t == "COUNTER" ||
           t == "BATCH_LOG" || t == "CAS" || t == "VIEW" || t == "CDC";
}

// v3 clients know neither the failure codes nor Function_failure.
ErrorResponse downgrade_for_v3(ErrorResponse e) {
    switch (e.code) {
        case ErrorCode::kReadFailure:
            e.code = ErrorCode::kReadTimeout;
            break;
        case ErrorCode::kWriteFailure:
            e.code = ErrorCode::kWriteTimeout;
            break;
        case ErrorCode::kFunctionFailure:
            e.code = ErrorCode::kInvalid;
            break;
        default:
            break;
    }
    return e;
}

void write_error(WireWriter& w, const ErrorResponse& e) {
    w.write_int(static_cast<int32_t>(e.code));
    // Messages quote what the client sent (names, literals, bytes of a bad
    // frame): whatever those were, the [string] sent back is valid UTF-8.
    w.write_string(utf8::repair(e.message));
    const std::string_view write_type =
        is_known_write_type(e.write_type) ? std::string_view(e.write_type) : "SIMPLE";
    switch (e.code) {
        case ErrorCode::kUnavailable:
            w.write_consistency(e.consistency);
            w.write_int(e.required);
            w.write_int(e.alive);
            break;
        case ErrorCode::kWriteTimeout:
            w.write_consistency(e.consistency);
            w.write_int(e.received);
            w.write_int(e.block_for);
            w.write_string(write_type);
            break;
        case ErrorCode::kReadTimeout:
            w.write_consistency(e.consistency);
            w.write_int(e.received);
            w.write_int(e.block_for);
            w.write_byte(e.data_present ? 1 : 0);
            break;
        case ErrorCode::kReadFailure:
            w.write_consistency(e.consistency);
            w.write_int(e.received);
            w.write_int(e.block_for);
            w.write_int(e.num_failures);
            w.write_byte(e.data_present ? 1 : 0);
            break;
        case ErrorCode::kWriteFailure:
            w.write_consistency(e.consistency);
            w.write_int(e.received);
            w.write_int(e.block_for);
            w.write_int(e.num_failures);
            w.write_string(write_type);
            break;
        case ErrorCode::kFunctionFailure:
            w.write_string(utf8::repair(e.keyspace));
            w.write_string(e.function);
            w.write_string_list(e.argument_types);
            break;
        case ErrorCode::kAlreadyExists:
            w.write_string(utf8::repair(e.keyspace));
            w.write_string(utf8::repair(e.table));
            break;
        case ErrorCode::kUnprepared:
            w.write_short_bytes(e.unprepared_id);
            break;
        default:
            break;
    }
}

Result<ErrorResponse> read_error(WireReader& r) {
    ErrorResponse e;
    TESSEL_ASSIGN_OR_RETURN(int32_t code, r.read_int());
    e.code = static_cast<ErrorCode>(code);
    TESSEL_ASSIGN_OR_RETURN(std::string_view message, r.read_string());
    e.message = std::string(message);
    switch (e.code) {
        case ErrorCode::kUnavailable: {
            TESSEL_ASSIGN_OR_RETURN(e.consistency, r.read_consistency());
            TESSEL_ASSIGN_OR_RETURN(e.required, r.read_int());
            TESSEL_ASSIGN_OR_RETURN(e.alive, r.read_int());
            break;
        }
        case ErrorCode::kWriteTimeout:
        case ErrorCode::kWriteFailure: {
            TESSEL_ASSIGN_OR_RETURN(e.consistency, r.read_consistency());
            TESSEL_ASSIGN_OR_RETURN(e.received, r.read_int());
            TESSEL_ASSIGN_OR_RETURN(e.block_for, r.read_int());
            if (e.code == ErrorCode::kWriteFailure) {
                TESSEL_ASSIGN_OR_RETURN(e.num_failures, r.read_int());
            }
            TESSEL_ASSIGN_OR_RETURN(std::string_view wt, r.read_string());
            e.write_type = std::string(wt);
            break;
        }
        case ErrorCode::kReadTimeout:
        case ErrorCode::kReadFailure: {
            TESSEL_ASSIGN_OR_RETURN(e.consistency, r.read_consistency());
            TESSEL_ASSIGN_OR_RETURN(e.received, r.read_int());
            TESSEL_ASSIGN_OR_RETURN(e.block_for, r.read_int());
            if (e.code == ErrorCode::kReadFailure) {
                TESSEL_ASSIGN_OR_RETURN(e.num_failures, r.read_int());
            }
            TESSEL_ASSIGN_OR_RETURN(uint8_t present, r.read_byte());
            e.data_present = present != 0;
            break;
        }
        case ErrorCode::kFunctionFailure: {
            TESSEL_ASSIGN_OR_RETURN(std::string_view ks, r.read_string());
            TESSEL_ASSIGN_OR_RETURN(std::string_view fn, r.read_string());
            e.keyspace = std::string(ks);
            e.function = std::string(fn);
            TESSEL_ASSIGN_OR_RETURN(e.argument_types, r.read_string_list());
            break;
        }
        case ErrorCode::kAlreadyExists: {
            TESSEL_ASSIGN_OR_RETURN(std::string_view ks, r.read_string());
            TESSEL_ASSIGN_OR_RETURN(std::string_view table, r.read_string());
            e.keyspace = std::string(ks);
            e.table = std::string(table);
            break;
        }
        case ErrorCode::kUnprepared: {
            TESSEL_ASSIGN_OR_RETURN(std::string_view id, r.read_short_bytes());
            e.unprepared_id = std::string(id);
            break;
        }
        default:
            break;
    }
    return e;
}

void write_event(WireWriter& w, std::string_view type, std::string_view change, const Inet& node) {
    w.write_string(type);
    w.write_string(change);
    w.write_inet(node);
}

Result<Response> read_event(WireReader& r) {
    TESSEL_ASSIGN_OR_RETURN(std::string_view type, r.read_string());
    if (type == "SCHEMA_CHANGE") {
        TESSEL_ASSIGN_OR_RETURN(SchemaChange change, read_schema_change(r));
        return Response(SchemaChangeEvent{std::move(change)});
    }
    if (type == "TOPOLOGY_CHANGE" || type == "STATUS_CHANGE") {
        TESSEL_ASSIGN_OR_RETURN(std::string_view change, r.read_string());
        TESSEL_ASSIGN_OR_RETURN(Inet node, r.read_inet());
        if (type == "TOPOLOGY_CHANGE") {
            return Response(TopologyChangeEvent{std::string(change), std::move(node)});
        }
        return Response(StatusChangeEvent{std::string(change), std::move(node)});
    }
    return Status::protocol("Unknown event type '" + std::string(type) + "'");
}

Result<Response> read_result(WireReader& r, uint8_t version) {
    TESSEL_ASSIGN_OR_RETURN(int32_t kind, r.read_int());
    switch (static_cast<ResultKind>(kind)) {
        case ResultKind::kVoid:
            return Response(VoidResult{});
        case ResultKind::kRows: {
            TESSEL_ASSIGN_OR_RETURN(RowsResult rows, read_rows_result(r));
            return Response(std::move(rows));
        }
        case ResultKind::kSetKeyspace: {
            TESSEL_ASSIGN_OR_RETURN(std::string_view ks, r.read_string());
            return Response(SetKeyspaceResult{std::string(ks)});
        }
        case ResultKind::kPrepared: {
            TESSEL_ASSIGN_OR_RETURN(PreparedResult prepared, read_prepared_result(r, version));
            return Response(std::move(prepared));
        }
        case ResultKind::kSchemaChange: {
            TESSEL_ASSIGN_OR_RETURN(SchemaChange change, read_schema_change(r));
            return Response(SchemaChangeResult{std::move(change)});
        }
    }
    return Status::protocol("Unknown RESULT kind " + std::to_string(kind));
}

std::optional<std::string_view> opt_view(const std::optional<std::string>& s) {
    return s ? std::optional<std::string_view>(*s) : std::nullopt;
}

}  // namespace

ErrorResponse ErrorResponse::from_status(const Status& status) {
    ErrorResponse e;
    if (status.is_ok()) {
        e.message = "Unexpected success reported as an error";
        return e;
    }
    e.code = status.code();
    e.message = status.message();
    if (e.code == ErrorCode::kAlreadyExists) {
        e.keyspace = status.detail1;
        e.table = status.detail2;
    } else if (e.code == ErrorCode::kUnprepared) {
        e.unprepared_id = status.detail1;
    }
    return e;
}

Status ErrorResponse::to_status() const {
    Status s(code, message);
    if (code == ErrorCode::kAlreadyExists) {
        s.detail1 = keyspace;
        s.detail2 = table;
    } else if (code == ErrorCode::kUnprepared) {
        s.detail1 = unprepared_id;
    }
    return s;
}

Opcode response_opcode(const Response& response) {
    return std::visit(
        [](const auto& m) -> Opcode {
            using T = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<T, ErrorResponse>) return Opcode::kError;
            if constexpr (std::is_same_v<T, ReadyResponse>) return Opcode::kReady;
            if constexpr (std::is_same_v<T, AuthenticateResponse>) return Opcode::kAuthenticate;
            if constexpr (std::is_same_v<T, SupportedResponse>) return Opcode::kSupported;
            if constexpr (std::is_same_v<T, VoidResult> || std::is_same_v<T, RowsResult> ||
                          std::is_same_v<T, SetKeyspaceResult> ||
                          std::is_same_v<T, PreparedResult> ||
                          std::is_same_v<T, SchemaChangeResult>) {
                return Opcode::kResult;
            }
            if constexpr (std::is_same_v<T, TopologyChangeEvent> ||
                          std::is_same_v<T, StatusChangeEvent> ||
                          std::is_same_v<T, SchemaChangeEvent>) {
                return Opcode::kEvent;
            }
            if constexpr (std::is_same_v<T, AuthChallengeResponse>) return Opcode::kAuthChallenge;
            if constexpr (std::is_same_v<T, AuthSuccessResponse>) return Opcode::kAuthSuccess;
        },
        response);
}

namespace {

void write_response_body(WireWriter& w, uint8_t protocol_version, const Response& response) {
    std::visit(
        [&](const auto& m) {
            using T = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<T, ErrorResponse>) {
                write_error(w, protocol_version < 4 ? downgrade_for_v3(m) : m);
            } else if constexpr (std::is_same_v<T, ReadyResponse>) {
                // empty body
            } else if constexpr (std::is_same_v<T, AuthenticateResponse>) {
                w.write_string(m.authenticator);
            } else if constexpr (std::is_same_v<T, SupportedResponse>) {
                w.write_string_multimap(m.options);
            } else if constexpr (std::is_same_v<T, VoidResult>) {
                write_void_result(w);
            } else if constexpr (std::is_same_v<T, RowsResult>) {
                write_rows_result(w, m);
            } else if constexpr (std::is_same_v<T, SetKeyspaceResult>) {
                write_set_keyspace_result(w, m);
            } else if constexpr (std::is_same_v<T, PreparedResult>) {
                write_prepared_result(w, m, protocol_version);
            } else if constexpr (std::is_same_v<T, SchemaChangeResult>) {
                write_schema_change_result(w, m);
            } else if constexpr (std::is_same_v<T, TopologyChangeEvent>) {
                write_event(w, "TOPOLOGY_CHANGE", m.change, m.node);
            } else if constexpr (std::is_same_v<T, StatusChangeEvent>) {
                write_event(w, "STATUS_CHANGE", m.change, m.node);
            } else if constexpr (std::is_same_v<T, SchemaChangeEvent>) {
                w.write_string("SCHEMA_CHANGE");
                write_schema_change(w, m.change);
            } else if constexpr (std::is_same_v<T, AuthChallengeResponse> ||
                                 std::is_same_v<T, AuthSuccessResponse>) {
                w.write_bytes(opt_view(m.token));
            }
        },
        response);
}

}  // namespace

std::string encode_response_body(uint8_t protocol_version, const Response& response) {
    WireWriter w;
    write_response_body(w, protocol_version, response);
    return w.take();
}

void append_response_frame(uint8_t protocol_version, int16_t stream, const Response& response,
                           const std::vector<std::string>& warnings, std::string* out,
                           const std::optional<Uuid>& tracing_id) {
    // The body is written straight after a placeholder header in `out`'s own
    // buffer, then the header is filled in: no intermediate strings.
    const size_t start = out->size();
    WireWriter w(std::move(*out));
    w.write_raw(std::string_view("\0\0\0\0\0\0\0\0\0", kHeaderSize));
    uint8_t flags = 0;
    if (tracing_id) {
        flags |= kFlagTracing;
        w.write_uuid(*tracing_id);
    }
    if (!warnings.empty()) {
        flags |= kFlagWarning;
        w.write_string_list(warnings);
    }
    write_response_body(w, protocol_version, response);
    *out = w.take();
    const Opcode opcode = response_opcode(response);
    if (opcode == Opcode::kEvent) stream = kEventStreamId;
    const FrameHeader h{
        static_cast<uint8_t>((protocol_version & kVersionMask) | kResponseDirection), flags, stream,
        static_cast<uint8_t>(opcode), static_cast<uint32_t>(out->size() - start - kHeaderSize)};
    std::string header;
    header.reserve(kHeaderSize);
    append_header(h, &header);
    out->replace(start, kHeaderSize, header);
}

std::string encode_response_frame(uint8_t protocol_version, int16_t stream,
                                  const Response& response,
                                  const std::vector<std::string>& warnings,
                                  const std::optional<Uuid>& tracing_id) {
    std::string out;
    append_response_frame(protocol_version, stream, response, warnings, &out, tracing_id);
    return out;
}

Result<DecodedResponse> decode_response(uint8_t protocol_version, Opcode opcode,
                                        uint8_t frame_flags, std::string_view body) {
    WireReader r(body);
    std::optional<Uuid> tracing_id;
    std::vector<std::string> warnings;
    BytesMap custom_payload;
    if (frame_flags & kFlagTracing) {
        TESSEL_ASSIGN_OR_RETURN(Uuid id, r.read_uuid());
        tracing_id = id;
    }
    if (frame_flags & kFlagWarning) {
        TESSEL_ASSIGN_OR_RETURN(warnings, r.read_string_list());
    }
    if (frame_flags & kFlagCustomPayload) {
        TESSEL_ASSIGN_OR_RETURN(custom_payload, r.read_bytes_map());
    }
    auto decoded = [&]() -> Result<Response> {
        switch (opcode) {
            case Opcode::kError: {
                TESSEL_ASSIGN_OR_RETURN(ErrorResponse e, read_error(r));
                return Response(std::move(e));
            }
            case Opcode::kReady:
                return Response(ReadyResponse{});
            case Opcode::kAuthenticate: {
                TESSEL_ASSIGN_OR_RETURN(std::string_view name, r.read_string());
                return Response(AuthenticateResponse{std::string(name)});
            }
            case Opcode::kSupported: {
                TESSEL_ASSIGN_OR_RETURN(StringMultimap options, r.read_string_multimap());
                return Response(SupportedResponse{std::move(options)});
            }
            case Opcode::kResult:
                return read_result(r, protocol_version);
            case Opcode::kEvent:
                return read_event(r);
            case Opcode::kAuthChallenge:
            case Opcode::kAuthSuccess: {
                TESSEL_ASSIGN_OR_RETURN(std::optional<std::string_view> token, r.read_bytes());
                std::optional<std::string> owned;
                if (token) owned = std::string(*token);
                if (opcode == Opcode::kAuthChallenge) {
                    return Response(AuthChallengeResponse{std::move(owned)});
                }
                return Response(AuthSuccessResponse{std::move(owned)});
            }
            default:
                return Status::protocol("Unexpected message " + std::string(opcode_name(opcode)) +
                                        ": not a response");
        }
    }();
    if (!decoded.is_ok()) return std::move(decoded).status();
    return DecodedResponse{std::move(decoded).value(), std::move(tracing_id), std::move(warnings),
                           std::move(custom_payload)};
}

}  // namespace tessel::protocol
