#include "protocol/requests.h"

#include <limits>
#include <type_traits>

namespace tessel::protocol {
namespace {

Result<uint16_t> read_consistency_level(WireReader& r) {
    TESSEL_ASSIGN_OR_RETURN(uint16_t code, r.read_consistency());
    if (code > static_cast<uint16_t>(Consistency::kLocalOne)) {
        return Status::protocol("Unknown code " + std::to_string(code) +
                                " for a consistency level");
    }
    return code;
}

Result<int64_t> read_timestamp(WireReader& r) {
    TESSEL_ASSIGN_OR_RETURN(int64_t ts, r.read_long());
    if (ts == std::numeric_limits<int64_t>::min()) {
        return Status::protocol("Out of bound timestamp, must be in [" +
                                std::to_string(std::numeric_limits<int64_t>::min() + 1) + ", " +
                                std::to_string(std::numeric_limits<int64_t>::max()) + "] (got " +
                                std::to_string(ts) + ")");
    }
    return ts;
}

// [short] n, then n values, each optionally preceded by a [string] name.
Status read_value_list(WireReader& r, uint8_t version, bool with_names,
                       std::vector<BoundValue>* values, std::vector<std::string>* names) {
    TESSEL_ASSIGN_OR_RETURN(uint16_t n, r.read_short());
    // Every value takes at least its 4-byte length.
    if (r.remaining() < size_t{n} * (with_names ? 6 : 4)) {
        return Status::protocol("Not enough bytes to read " + std::to_string(n) + " values");
    }
    values->reserve(n);
    if (with_names) names->reserve(n);
    for (uint16_t i = 0; i < n; ++i) {
        if (with_names) {
            TESSEL_ASSIGN_OR_RETURN(std::string_view name, r.read_string());
            names->emplace_back(name);
        }
        TESSEL_ASSIGN_OR_RETURN(BoundValue v, r.read_value(version));
        values->push_back(std::move(v));
    }
    return Status::ok();
}

void write_value_list(WireWriter& w, const std::vector<BoundValue>& values,
                      const std::vector<std::string>* names, uint8_t version) {
    const size_t n = std::min<size_t>(values.size(), 0xFFFF);
    w.write_short(static_cast<uint16_t>(n));
    for (size_t i = 0; i < n; ++i) {
        if (names != nullptr) w.write_string(i < names->size() ? (*names)[i] : std::string());
        if (values[i].is_unset() && version < 4) {
            w.write_value(BoundValue::null());
        } else {
            w.write_value(values[i]);
        }
    }
}

Result<Request> decode_batch(WireReader& r, uint8_t version) {
    BatchRequest b;
    TESSEL_ASSIGN_OR_RETURN(uint8_t type, r.read_byte());
    if (type > 2) return Status::protocol("Invalid BATCH message type " + std::to_string(type));
    b.type = static_cast<BatchType>(type);
    TESSEL_ASSIGN_OR_RETURN(uint16_t n, r.read_short());
    // kind + shortest query/id + value count.
    if (r.remaining() < size_t{n} * 5) {
        return Status::protocol("Not enough bytes to read " + std::to_string(n) +
                                " BATCH statements");
    }
    b.statements.reserve(n);
    for (uint16_t i = 0; i < n; ++i) {
        BatchStatement s;
        TESSEL_ASSIGN_OR_RETURN(uint8_t kind, r.read_byte());
        if (kind == 0) {
            TESSEL_ASSIGN_OR_RETURN(std::string_view q, r.read_long_string());
            s.query_or_id = std::string(q);
        } else if (kind == 1) {
            TESSEL_ASSIGN_OR_RETURN(std::string_view id, r.read_short_bytes());
            s.is_prepared = true;
            s.query_or_id = std::string(id);
        } else {
            return Status::protocol(
                "Invalid query kind in BATCH messages. Must be 0 or 1 but got " +
                std::to_string(kind));
        }
        TESSEL_RETURN_IF_ERROR(read_value_list(r, version, false, &s.values, nullptr));
        b.statements.push_back(std::move(s));
    }
    TESSEL_ASSIGN_OR_RETURN(b.consistency, read_consistency_level(r));
    TESSEL_ASSIGN_OR_RETURN(b.flags, r.read_byte());
    if (b.flags & kBatchFlagNamesForValues) {
        return Status::protocol("Names for values are not supported in BATCH messages");
    }
    if (b.flags & kBatchFlagSerialConsistency) {
        TESSEL_ASSIGN_OR_RETURN(uint16_t serial, read_consistency_level(r));
        b.serial_consistency = serial;
    }
    if (b.flags & kBatchFlagDefaultTimestamp) {
        TESSEL_ASSIGN_OR_RETURN(int64_t ts, read_timestamp(r));
        b.default_timestamp = ts;
    }
    return Request(std::move(b));
}

void encode_batch(WireWriter& w, const BatchRequest& b, uint8_t version) {
    w.write_byte(static_cast<uint8_t>(b.type));
    const size_t n = std::min<size_t>(b.statements.size(), 0xFFFF);
    w.write_short(static_cast<uint16_t>(n));
    for (size_t i = 0; i < n; ++i) {
        const BatchStatement& s = b.statements[i];
        w.write_byte(s.is_prepared ? 1 : 0);
        if (s.is_prepared) {
            w.write_short_bytes(s.query_or_id);
        } else {
            w.write_long_string(s.query_or_id);
        }
        write_value_list(w, s.values, nullptr, version);
    }
    w.write_consistency(b.consistency);
    uint8_t flags = 0;
    if (b.serial_consistency) flags |= kBatchFlagSerialConsistency;
    if (b.default_timestamp) flags |= kBatchFlagDefaultTimestamp;
    w.write_byte(flags);
    if (b.serial_consistency) w.write_consistency(*b.serial_consistency);
    if (b.default_timestamp) w.write_long(*b.default_timestamp);
}

}  // namespace

Result<QueryParameters> read_query_parameters(WireReader& r, uint8_t protocol_version) {
    QueryParameters p;
    TESSEL_ASSIGN_OR_RETURN(p.consistency, read_consistency_level(r));
    TESSEL_ASSIGN_OR_RETURN(p.flags, r.read_byte());
    if (p.flags & kQueryFlagValues) {
        TESSEL_RETURN_IF_ERROR(read_value_list(r, protocol_version,
                                               (p.flags & kQueryFlagNamesForValues) != 0, &p.values,
                                               &p.value_names));
    }
    p.skip_metadata = (p.flags & kQueryFlagSkipMetadata) != 0;
    if (p.flags & kQueryFlagPageSize) {
        TESSEL_ASSIGN_OR_RETURN(int32_t size, r.read_int());
        p.page_size = size;
    }
    if (p.flags & kQueryFlagPagingState) {
        TESSEL_ASSIGN_OR_RETURN(std::optional<std::string_view> state, r.read_bytes());
        if (state) p.paging_state = std::string(*state);
    }
    if (p.flags & kQueryFlagSerialConsistency) {
        TESSEL_ASSIGN_OR_RETURN(uint16_t serial, read_consistency_level(r));
        p.serial_consistency = serial;
    }
    if (p.flags & kQueryFlagDefaultTimestamp) {
        TESSEL_ASSIGN_OR_RETURN(int64_t ts, read_timestamp(r));
        p.default_timestamp = ts;
    }
    return p;
}

void write_query_parameters(WireWriter& w, const QueryParameters& p, uint8_t protocol_version) {
    uint8_t flags = 0;
    const bool named = !p.value_names.empty();
    if (!p.values.empty()) flags |= kQueryFlagValues;
    if (!p.values.empty() && named) flags |= kQueryFlagNamesForValues;
    if (p.skip_metadata) flags |= kQueryFlagSkipMetadata;
    if (p.page_size) flags |= kQueryFlagPageSize;
    if (p.paging_state) flags |= kQueryFlagPagingState;
    if (p.serial_consistency) flags |= kQueryFlagSerialConsistency;
    if (p.default_timestamp) flags |= kQueryFlagDefaultTimestamp;
    w.write_consistency(p.consistency);
    w.write_byte(flags);
    if (flags & kQueryFlagValues) {
        write_value_list(w, p.values, named ? &p.value_names : nullptr, protocol_version);
    }
    if (p.page_size) w.write_int(*p.page_size);
    if (p.paging_state) w.write_bytes(std::string_view(*p.paging_state));
    if (p.serial_consistency) w.write_consistency(*p.serial_consistency);
    if (p.default_timestamp) w.write_long(*p.default_timestamp);
}

Opcode request_opcode(const Request& request) {
    return std::visit(
        [](const auto& m) -> Opcode {
            using T = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<T, StartupRequest>) return Opcode::kStartup;
            if constexpr (std::is_same_v<T, OptionsRequest>) return Opcode::kOptions;
            if constexpr (std::is_same_v<T, QueryRequest>) return Opcode::kQuery;
            if constexpr (std::is_same_v<T, PrepareRequest>) return Opcode::kPrepare;
            if constexpr (std::is_same_v<T, ExecuteRequest>) return Opcode::kExecute;
            if constexpr (std::is_same_v<T, BatchRequest>) return Opcode::kBatch;
            if constexpr (std::is_same_v<T, RegisterRequest>) return Opcode::kRegister;
            if constexpr (std::is_same_v<T, AuthResponseRequest>) return Opcode::kAuthResponse;
        },
        request);
}

Result<Request> decode_request(uint8_t protocol_version, Opcode opcode, uint8_t frame_flags,
                               std::string_view body) {
    WireReader r(body);
    if (frame_flags & kFlagCustomPayload) {
        if (protocol_version < 4) {
            return Status::protocol(
                "Received frame with CUSTOM_PAYLOAD flag for native protocol version < 4");
        }
        TESSEL_RETURN_IF_ERROR(r.read_bytes_map());
    }
    switch (opcode) {
        case Opcode::kStartup: {
            TESSEL_ASSIGN_OR_RETURN(StringMap options, r.read_string_map());
            return Request(StartupRequest{std::move(options)});
        }
        case Opcode::kOptions:
            return Request(OptionsRequest{});
        case Opcode::kQuery: {
            QueryRequest q;
            TESSEL_ASSIGN_OR_RETURN(std::string_view text, r.read_long_string());
            q.query = std::string(text);
            TESSEL_ASSIGN_OR_RETURN(q.params, read_query_parameters(r, protocol_version));
            return Request(std::move(q));
        }
        case Opcode::kPrepare: {
            TESSEL_ASSIGN_OR_RETURN(std::string_view text, r.read_long_string());
            return Request(PrepareRequest{std::string(text)});
        }
        case Opcode::kExecute: {
            ExecuteRequest e;
            TESSEL_ASSIGN_OR_RETURN(std::string_view id, r.read_short_bytes());
            e.id = std::string(id);
            TESSEL_ASSIGN_OR_RETURN(e.params, read_query_parameters(r, protocol_version));
            return Request(std::move(e));
        }
        case Opcode::kBatch:
            return decode_batch(r, protocol_version);
        case Opcode::kRegister: {
            TESSEL_ASSIGN_OR_RETURN(std::vector<std::string> events, r.read_string_list());
            return Request(RegisterRequest{std::move(events)});
        }
        case Opcode::kAuthResponse: {
            TESSEL_ASSIGN_OR_RETURN(std::optional<std::string_view> token, r.read_bytes());
            AuthResponseRequest a;
            if (token) a.token = std::string(*token);
            return Request(std::move(a));
        }
        default:
            return Status::protocol("Unexpected message " + std::string(opcode_name(opcode)) +
                                    ": not a request");
    }
}

std::string encode_request_body(uint8_t protocol_version, const Request& request) {
    WireWriter w;
    std::visit(
        [&](const auto& m) {
            using T = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<T, StartupRequest>) {
                w.write_string_map(m.options);
            } else if constexpr (std::is_same_v<T, OptionsRequest>) {
                // empty body
            } else if constexpr (std::is_same_v<T, QueryRequest>) {
                w.write_long_string(m.query);
                write_query_parameters(w, m.params, protocol_version);
            } else if constexpr (std::is_same_v<T, PrepareRequest>) {
                w.write_long_string(m.query);
            } else if constexpr (std::is_same_v<T, ExecuteRequest>) {
                w.write_short_bytes(m.id);
                write_query_parameters(w, m.params, protocol_version);
            } else if constexpr (std::is_same_v<T, BatchRequest>) {
                encode_batch(w, m, protocol_version);
            } else if constexpr (std::is_same_v<T, RegisterRequest>) {
                w.write_string_list(m.event_types);
            } else if constexpr (std::is_same_v<T, AuthResponseRequest>) {
                w.write_bytes(m.token ? std::optional<std::string_view>(*m.token) : std::nullopt);
            }
        },
        request);
    return w.take();
}

std::string encode_request_frame(uint8_t protocol_version, int16_t stream, const Request& request,
                                 uint8_t extra_flags) {
    return encode_frame(protocol_version & kVersionMask, extra_flags & kFlagTracing, stream,
                        request_opcode(request), encode_request_body(protocol_version, request));
}

}  // namespace tessel::protocol
