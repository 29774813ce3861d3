#include "server/request_handler.h"

#include <spdlog/spdlog.h>

#include <asio/ip/address.hpp>

#include <exception>

#include "protocol/handshake.h"

namespace tessel::server {
namespace {

constexpr const char* kCqlVersion = "3.4.4";

template <class... Ts>
struct Overloaded : Ts... {
    using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

protocol::ErrorResponse protocol_error(std::string message) {
    return error_response(Status::protocol(std::move(message)), 0);
}

std::string_view request_name(const protocol::Request& request) {
    return protocol::opcode_name(protocol::request_opcode(request));
}

std::vector<protocol::ColumnSpec> to_wire_columns(const std::vector<ColumnSpec>& columns) {
    std::vector<protocol::ColumnSpec> out;
    out.reserve(columns.size());
    for (const auto& c : columns)
        out.push_back({c.keyspace, c.table, c.name, c.type});
    return out;
}

std::vector<protocol::ColumnSpec> to_wire_columns(std::vector<ColumnSpec>&& columns) {
    std::vector<protocol::ColumnSpec> out;
    out.reserve(columns.size());
    for (auto& c : columns)
        out.push_back(
            {std::move(c.keyspace), std::move(c.table), std::move(c.name), std::move(c.type)});
    return out;
}

tessel::BoundValue to_bound_value(const protocol::BoundValue& v) {
    switch (v.kind) {
        case protocol::BoundValue::Kind::kBytes:
            return tessel::BoundValue::value(v.bytes);
        case protocol::BoundValue::Kind::kUnset:
            return tessel::BoundValue::unset();
        case protocol::BoundValue::Kind::kNull:
            break;
    }
    return tessel::BoundValue::null();
}

// Takes the values over: the request is not used for them afterwards.
QueryOptions to_query_options(protocol::QueryParameters& p) {
    QueryOptions o;
    o.values.reserve(p.values.size());
    for (size_t i = 0; i < p.values.size(); ++i) {
        protocol::BoundValue& in = p.values[i];
        tessel::BoundValue v = in.kind == protocol::BoundValue::Kind::kBytes
                                   ? tessel::BoundValue::value(std::move(in.bytes))
                                   : to_bound_value(in);
        if (i < p.value_names.size()) v.name = std::move(p.value_names[i]);
        o.values.push_back(std::move(v));
    }
    o.named_values = !p.value_names.empty();
    o.page_size = p.page_size.value_or(-1);
    if (p.paging_state) o.paging_state = *p.paging_state;
    o.default_timestamp = p.default_timestamp;
    o.consistency = p.consistency;
    o.serial_consistency = p.serial_consistency;
    return o;
}

// CQL_VERSION must be 3.x[.y]: the only CQL major version this server speaks.
bool acceptable_cql_version(const std::string& v) {
    if (v.size() < 3 || v[0] != '3' || v[1] != '.') return false;
    for (char c : v.substr(2)) {
        if (!(c == '.' || (c >= '0' && c <= '9'))) return false;
    }
    return true;
}

Status check_value_sizes(const std::vector<protocol::BoundValue>& values, size_t max_bytes) {
    for (const auto& v : values) {
        if (v.bytes.size() > max_bytes) {
            return Status::invalid("Value of " + std::to_string(v.bytes.size()) +
                                   " bytes exceeds the maximum value size of " +
                                   std::to_string(max_bytes) + " bytes (max_value_size_in_mb)");
        }
    }
    return Status::ok();
}

}  // namespace

protocol::ErrorResponse error_response(const Status& status, uint16_t consistency) {
    protocol::ErrorResponse e = protocol::ErrorResponse::from_status(status);
    e.consistency = consistency;
    // Replica counts come from the cluster; a single node's own timeouts
    // and failures are one replica of one.
    const Status::Replicas r = status.replicas.value_or(Status::Replicas{});
    if (status.replicas) e.consistency = r.consistency;
    switch (e.code) {
        case ErrorCode::kUnavailable:
            e.required = status.replicas ? r.block_for : 1;
            e.alive = r.received;
            break;
        case ErrorCode::kWriteTimeout:
        case ErrorCode::kWriteFailure:
        case ErrorCode::kReadTimeout:
        case ErrorCode::kReadFailure:
            e.received = r.received;
            e.block_for = status.replicas ? r.block_for : 1;
            e.data_present = r.data_present;
            e.num_failures = status.replicas ? r.failures
                                             : (e.code == ErrorCode::kWriteFailure ||
                                                e.code == ErrorCode::kReadFailure);
            if (!status.detail1.empty()) e.write_type = status.detail1;
            break;
        case ErrorCode::kFunctionFailure:
            e.keyspace = status.detail1;
            e.function = status.detail2;
            break;
        default:
            break;
    }
    return e;
}

RequestHandler::RequestHandler(Database& db, size_t max_frame_bytes)
    : db_(db), max_frame_bytes_(max_frame_bytes) {}

RequestHandler::~RequestHandler() = default;

RequestHandler::Outcome RequestHandler::handle_parse_error(
    const Status& error, const std::optional<protocol::FrameHeader>& header, std::string* out) {
    Outcome outcome;
    outcome.close = !header || !protocol::is_supported_version(header->protocol_version());
    protocol::FrameHeader h;
    if (header) {
        h = *header;
    } else {
        h.version = version_ ? version_ : protocol::kMaxSupportedVersion;
    }
    out->append(protocol::encode_early_error_frame(h, error));
    return outcome;
}

void RequestHandler::refuse(const protocol::FrameHeader& header, const Status& error,
                            std::string* out) const {
    append_response(header.stream, error_response(error, 0), {}, out);
}

RequestHandler::Outcome RequestHandler::handle_frame(const protocol::Frame& frame,
                                                     std::string* out) {
    Outcome outcome;
    const protocol::FrameHeader& h = frame.header;
    // The version is checked on every frame before anything else is read,
    // as drivers negotiate down from the answer (reference §1.4).
    if (Status st = protocol::check_request_version(h); !st.is_ok()) {
        out->append(protocol::encode_early_error_frame(h, st));
        outcome.close = true;
        return outcome;
    }
    if (version_ == 0) {
        version_ = h.protocol_version();
    } else if (h.protocol_version() != version_) {
        Status st = Status::protocol(
            "Invalid message version. Got " + std::to_string(h.protocol_version()) +
            " but previous messages on this connection had version " + std::to_string(version_));
        out->append(protocol::encode_early_error_frame(h, st));
        outcome.close = true;
        return outcome;
    }
    auto opcode = protocol::opcode_from_byte(h.opcode);
    if (!opcode.is_ok()) {
        append_response(h.stream, error_response(opcode.status(), 0), {}, out);
        return outcome;
    }
    std::string_view body = frame.body;
    std::string decompressed;
    if (h.flags & protocol::kFlagCompression) {
        if (compression_ == protocol::Compression::kNone) {
            append_response(h.stream,
                            protocol_error("Received a compressed frame but no compression "
                                           "was negotiated in STARTUP"),
                            {}, out);
            return outcome;
        }
        auto d = protocol::decompress_body(compression_, body, max_frame_bytes_);
        if (!d.is_ok()) {
            append_response(h.stream, error_response(d.status(), 0), {}, out);
            return outcome;
        }
        decompressed = std::move(d).value();
        body = decompressed;
    }
    auto request = protocol::decode_request(version_, *opcode, h.flags, body);
    if (!request.is_ok()) {
        append_response(h.stream, error_response(request.status(), 0), {}, out);
        return outcome;
    }
    if (started_ && !awaiting_auth_ && runs_statements(*request)) {
        std::unique_ptr<StatementCall> call =
            spare_call_ ? std::move(spare_call_) : std::make_unique<StatementCall>();
        call->request = std::move(*request);
        Task<Response> running = run_statements(call->request, &call->warnings);
        if (!running.ready()) {
            outcome.pending = finish_statements(h.stream, std::move(call), std::move(running));
            return outcome;
        }
        // Served at once (every replica was this node): the response goes
        // straight into the connection's buffer.
        append_response(h.stream, take_response(running, *call), call->warnings, out);
        call->warnings.clear();
        spare_call_ = std::move(call);
        return outcome;
    }
    Response response;
    try {
        response = dispatch(*request, &outcome);
    } catch (const std::exception& e) {
        // The engine reports failures as Status; this only guards the connection
        // (and the loop) against a defect below.
        spdlog::error("request {} failed: {}", request_name(*request), e.what());
        response = error_response(Status::server(std::string("Internal error: ") + e.what()), 0);
    }
    if (outcome.login_deferred) {
        deferred_login_.stream = h.stream;
        return outcome;
    }
    append_response(h.stream, response, {}, out);
    return outcome;
}

bool RequestHandler::runs_statements(const protocol::Request& request) {
    return std::holds_alternative<protocol::QueryRequest>(request) ||
           std::holds_alternative<protocol::ExecuteRequest>(request) ||
           std::holds_alternative<protocol::BatchRequest>(request);
}

RequestHandler::Response RequestHandler::take_response(Task<Response>& finished,
                                                       StatementCall& call) {
    try {
        return finished.take();
    } catch (const std::exception& e) {
        // The engine reports failures as Status; this only guards the connection
        // (and the loop) against a defect below.
        spdlog::error("request {} failed: {}", request_name(call.request), e.what());
        call.warnings.clear();
        return error_response(Status::server(std::string("Internal error: ") + e.what()), 0);
    }
}

Task<PendingResponse> RequestHandler::finish_statements(int16_t stream,
                                                        std::unique_ptr<StatementCall> call,
                                                        Task<Response> running) {
    try {
        // Awaiting the Task by reference leaves its result (or exception)
        // in it, for take_response.
        co_await running;
    } catch (const std::exception&) {
    }
    PendingResponse out;
    append_response(stream, take_response(running, *call), call->warnings, &out.frames);
    out.error = last_error_;
    co_return out;
}

// Not a coroutine: hands back the handler's own Task (`request` and
// `warnings` live in the caller's frame).
Task<RequestHandler::Response> RequestHandler::run_statements(protocol::Request& request,
                                                              std::vector<std::string>* warnings) {
    if (auto* q = std::get_if<protocol::QueryRequest>(&request)) return handle_query(*q, warnings);
    if (auto* e = std::get_if<protocol::ExecuteRequest>(&request)) {
        return handle_execute(*e, warnings);
    }
    return handle_batch(std::get<protocol::BatchRequest>(request), warnings);
}

RequestHandler::Response RequestHandler::dispatch(protocol::Request& request, Outcome* outcome) {
    if (std::holds_alternative<protocol::OptionsRequest>(request)) {
        protocol::SupportedResponse s;
        s.options["CQL_VERSION"] = {kCqlVersion};
        s.options["COMPRESSION"] = {"lz4", "snappy"};
        s.options["PROTOCOL_VERSIONS"] = {"3/v3", "4/v4"};
        return s;
    }
    if (auto* startup = std::get_if<protocol::StartupRequest>(&request)) {
        return handle_startup(*startup);
    }
    if (!started_) {
        return protocol_error("Unexpected message " + std::string(request_name(request)) +
                              ", expecting STARTUP or OPTIONS");
    }
    if (auto* auth = std::get_if<protocol::AuthResponseRequest>(&request)) {
        return handle_auth_response(*auth, outcome);
    }
    if (awaiting_auth_) {
        return error_response(Status(ErrorCode::kUnauthorized, "You have not logged in"), 0);
    }
    return std::visit(
        Overloaded{[&](const protocol::RegisterRequest& r) -> Response {
                       return handle_register(r, outcome);
                   },
                   [&](const protocol::PrepareRequest& p) -> Response { return handle_prepare(p); },
                   [&](const auto&) -> Response {
                       return protocol_error("Unexpected message " +
                                             std::string(request_name(request)));
                   }},
        request);
}

RequestHandler::Response RequestHandler::handle_startup(const protocol::StartupRequest& startup) {
    if (started_) {
        return protocol_error("Unexpected message STARTUP, the connection is already started");
    }
    auto cql = startup.options.find("CQL_VERSION");
    if (cql == startup.options.end()) {
        return protocol_error("Missing value CQL_VERSION in STARTUP message");
    }
    if (!acceptable_cql_version(cql->second)) {
        return protocol_error("Invalid or unsupported CQL version: " + cql->second +
                              " (this server supports " + kCqlVersion + ")");
    }
    protocol::Compression compression = protocol::Compression::kNone;
    if (auto c = startup.options.find("COMPRESSION"); c != startup.options.end()) {
        auto algo = protocol::compression_from_name(c->second);
        if (!algo) return protocol_error("Unknown compression algorithm: " + c->second);
        compression = *algo;
    }
    compression_ = compression;
    started_ = true;
    if (db_.requires_login()) {
        // SASL PLAIN follows: AUTH_RESPONSE -> AUTH_SUCCESS or Bad_credentials.
        awaiting_auth_ = true;
        return protocol::AuthenticateResponse{std::string(protocol::kPasswordAuthenticator)};
    }
    session_ = db_.new_session();
    if (!session_) return error_response(Status::server("Could not open a session"), 0);
    return protocol::ReadyResponse{};
}

RequestHandler::Response RequestHandler::handle_auth_response(
    const protocol::AuthResponseRequest& auth, Outcome* outcome) {
    if (!awaiting_auth_) {
        return protocol_error("Unexpected message AUTH_RESPONSE, no authentication in progress");
    }
    auto credentials = protocol::parse_sasl_plain(auth.token.value_or(""));
    if (!credentials.is_ok()) return error_response(credentials.status(), 0);
    if (defer_logins_) {
        deferred_login_.username = std::move(credentials->username);
        deferred_login_.password = std::move(credentials->password);
        outcome->login_deferred = true;
        return {};
    }
    return login_response(db_.login(credentials->username, credentials->password));
}

RequestHandler::Response RequestHandler::login_response(Result<std::unique_ptr<Session>> session) {
    if (!session.is_ok()) return error_response(session.status(), 0);
    session_ = std::move(session).value();
    awaiting_auth_ = false;
    return protocol::AuthSuccessResponse{};
}

void RequestHandler::finish_login(const DeferredLogin& login,
                                  Result<std::unique_ptr<Session>> session, std::string* out) {
    append_response(login.stream, login_response(std::move(session)), {}, out);
}

RequestHandler::Response RequestHandler::handle_register(const protocol::RegisterRequest& reg,
                                                         Outcome* outcome) {
    for (const auto& type : reg.event_types) {
        if (type != "SCHEMA_CHANGE" && type != "TOPOLOGY_CHANGE" && type != "STATUS_CHANGE") {
            return protocol_error("Invalid value '" + type + "' for Type");
        }
    }
    for (const auto& type : reg.event_types) {
        bool& flag = type == "SCHEMA_CHANGE"     ? schema_events_
                     : type == "TOPOLOGY_CHANGE" ? topology_events_
                                                 : status_events_;
        if (!flag) outcome->registered_events = true;
        flag = true;
    }
    return protocol::ReadyResponse{};
}

RequestHandler::Response RequestHandler::result_response(Result<ResultSet>&& result,
                                                         uint16_t consistency,
                                                         std::vector<std::string>* warnings) {
    if (!result.is_ok()) return error_response(result.status(), consistency);
    ResultSet& rs = result.value();
    *warnings = std::move(rs.warnings);
    switch (rs.kind) {
        case ResultSet::Kind::kVoid:
            return protocol::VoidResult{};
        case ResultSet::Kind::kSetKeyspace:
            return protocol::SetKeyspaceResult{rs.keyspace};
        case ResultSet::Kind::kSchemaChange: {
            const SchemaChange& c = rs.schema_change;
            return protocol::SchemaChangeResult{
                {c.change_type, c.target, c.keyspace, c.name, c.argument_types}};
        }
        case ResultSet::Kind::kRows:
            break;
    }
    // Rows always carry full metadata (even with Skip_metadata): both drivers
    // accept it, and NJ cannot read the No_metadata form.
    protocol::RowsResult rows;
    rows.metadata.columns = to_wire_columns(std::move(rs.columns));
    if (!rs.paging_state.empty()) rows.metadata.paging_state = std::move(rs.paging_state);
    rows.rows = std::move(rs.rows);
    return rows;
}

Task<RequestHandler::Response> RequestHandler::handle_query(protocol::QueryRequest& query,
                                                            std::vector<std::string>* warnings) {
    if (Status st = check_value_sizes(query.params.values, max_value_bytes_); !st.is_ok()) {
        co_return error_response(st, query.params.consistency);
    }
    QueryOptions options = to_query_options(query.params);
    options.received_at = received_at_;
    co_return result_response(co_await session_->execute_async(query.query, options),
                              query.params.consistency, warnings);
}

RequestHandler::Response RequestHandler::handle_prepare(const protocol::PrepareRequest& prepare) {
    auto prepared = session_->prepare(prepare.query);
    if (!prepared.is_ok()) return error_response(prepared.status(), 0);
    protocol::PreparedResult r;
    r.id = prepared->id;
    r.pk_indexes = prepared->partition_key_indexes;
    r.bind_columns = to_wire_columns(prepared->bind_columns);
    r.result_metadata.columns = to_wire_columns(prepared->result_columns);
    r.result_metadata.no_metadata = prepared->result_columns.empty();
    return r;
}

Task<RequestHandler::Response> RequestHandler::handle_execute(protocol::ExecuteRequest& execute,
                                                              std::vector<std::string>* warnings) {
    if (Status st = check_value_sizes(execute.params.values, max_value_bytes_); !st.is_ok()) {
        co_return error_response(st, execute.params.consistency);
    }
    QueryOptions options = to_query_options(execute.params);
    options.received_at = received_at_;
    auto running = session_->execute_prepared_async(execute.id, options);
    auto&& result = co_await running;  // lives in `running`: not moved
    if (!result.is_ok() && result.status().code() == ErrorCode::kUnprepared) {
        // Drivers match the echoed id against the one they sent.
        Status st = result.status();
        st.detail1 = execute.id;
        co_return error_response(st, execute.params.consistency);
    }
    co_return result_response(std::move(result), execute.params.consistency, warnings);
}

Task<RequestHandler::Response> RequestHandler::handle_batch(const protocol::BatchRequest& batch,
                                                            std::vector<std::string>* warnings) {
    std::vector<BatchEntry> entries;
    entries.reserve(batch.statements.size());
    for (const auto& s : batch.statements) {
        BatchEntry e;
        (s.is_prepared ? e.prepared_id : e.query) = s.query_or_id;
        e.values.reserve(s.values.size());
        for (const auto& v : s.values)
            e.values.push_back(to_bound_value(v));
        entries.push_back(std::move(e));
    }
    for (const auto& s : batch.statements) {
        if (Status st = check_value_sizes(s.values, max_value_bytes_); !st.is_ok()) {
            co_return error_response(st, batch.consistency);
        }
    }
    QueryOptions options;
    options.received_at = received_at_;
    options.consistency = batch.consistency;
    options.serial_consistency = batch.serial_consistency;
    options.default_timestamp = batch.default_timestamp;
    auto type = static_cast<tessel::BatchType>(static_cast<uint8_t>(batch.type));
    auto result = co_await session_->execute_batch_async(type, entries, options);
    if (!result.is_ok() && result.status().code() == ErrorCode::kUnprepared &&
        result.status().detail1.empty()) {
        co_return error_response(Status::invalid(result.status().message()), batch.consistency);
    }
    co_return result_response(std::move(result), batch.consistency, warnings);
}

void RequestHandler::append_response(int16_t stream, const Response& response,
                                     const std::vector<std::string>& warnings,
                                     std::string* out) const {
    const auto* error = std::get_if<protocol::ErrorResponse>(&response);
    last_error_ = error ? std::optional<ErrorCode>(error->code) : std::nullopt;
    uint8_t version = version_ ? version_ : protocol::kMaxSupportedVersion;
    // The warnings flag exists from v4 on.
    static const std::vector<std::string> kNone;
    const auto& w = version >= 4 ? warnings : kNone;
    if (compression_ == protocol::Compression::kNone) {
        protocol::append_response_frame(version, stream, response, w, out);
        return;
    }
    std::string frame = protocol::encode_response_frame(version, stream, response, w);
    auto compressed = protocol::compress_body(
        compression_, std::string_view(frame).substr(protocol::kHeaderSize));
    if (!compressed.is_ok()) {
        // Sending it uncompressed is legal: the flag tells the client.
        out->append(frame);
        return;
    }
    protocol::FrameHeader h = protocol::decode_header(frame);
    h.flags |= protocol::kFlagCompression;
    h.length = static_cast<uint32_t>(compressed->size());
    protocol::append_header(h, out);
    out->append(*compressed);
}

std::string RequestHandler::encode_cluster_event(const ClusterEvent& event) const {
    if (event.kind == ClusterEvent::Kind::kDecommissioned) return "";  // no driver event
    const bool topology = event.kind == ClusterEvent::Kind::kNewNode ||
                          event.kind == ClusterEvent::Kind::kRemovedNode;
    if (topology ? !topology_events_ : !status_events_) return "";
    asio::error_code ec;
    const auto address = asio::ip::make_address(event.rpc_address, ec);
    if (ec) return "";
    protocol::Inet node;
    if (address.is_v4()) {
        const auto bytes = address.to_v4().to_bytes();
        node.address.assign(bytes.begin(), bytes.end());
    } else {
        const auto bytes = address.to_v6().to_bytes();
        node.address.assign(bytes.begin(), bytes.end());
    }
    node.port = event.native_port;
    std::string out;
    switch (event.kind) {
        case ClusterEvent::Kind::kNewNode:
            append_response(protocol::kEventStreamId,
                            protocol::TopologyChangeEvent{"NEW_NODE", std::move(node)}, {}, &out);
            break;
        case ClusterEvent::Kind::kRemovedNode:
            append_response(protocol::kEventStreamId,
                            protocol::TopologyChangeEvent{"REMOVED_NODE", std::move(node)}, {},
                            &out);
            break;
        case ClusterEvent::Kind::kUp:
            append_response(protocol::kEventStreamId,
                            protocol::StatusChangeEvent{"UP", std::move(node)}, {}, &out);
            break;
        case ClusterEvent::Kind::kDown:
            append_response(protocol::kEventStreamId,
                            protocol::StatusChangeEvent{"DOWN", std::move(node)}, {}, &out);
            break;
        case ClusterEvent::Kind::kDecommissioned:
            break;
    }
    return out;
}

std::string RequestHandler::encode_schema_event(const SchemaChange& change) const {
    protocol::SchemaChangeEvent event{
        {change.change_type, change.target, change.keyspace, change.name, change.argument_types}};
    std::string out;
    append_response(protocol::kEventStreamId, event, {}, &out);
    return out;
}

}  // namespace tessel::server
