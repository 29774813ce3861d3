// RequestHandler: the protocol state of one client connection and the
// mapping of its requests onto the embedded API (one Session per connection).
//
// It is transport-free: it takes complete frames and appends complete
// response frames to a buffer, so the whole protocol behaviour (handshake,
// version checks, compression, error frames, result encoding) can be tested
// without sockets. Not thread-safe: a connection drives it from its loop.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "protocol/compression.h"
#include "protocol/frame.h"
#include "protocol/requests.h"
#include "protocol/responses.h"
#include "tessel/database.h"

namespace tessel::server {

// A response that was not ready when its frame was handled: its encoded
// frame(s), and its error code for the request metrics.
struct PendingResponse {
    std::string frames;
    std::optional<ErrorCode> error;
};

class RequestHandler {
  public:
    // `db` must outlive the handler.
    RequestHandler(Database& db, size_t max_frame_bytes);
    ~RequestHandler();

    struct Outcome {
        // The connection must be closed once the appended frames are written
        // (version errors, oversized frames: the stream cannot be trusted).
        bool close = false;
        // The request registered this connection for an event type it was
        // not registered for yet (SCHEMA_CHANGE, TOPOLOGY_CHANGE, STATUS_CHANGE).
        bool registered_events = false;
        // The frame was a login left to the caller (take_deferred_login()):
        // nothing was appended for it.
        bool login_deferred = false;
        // The request waits for replicas on other nodes: nothing was appended
        // for it; its response comes when `pending` finishes (on the thread
        // that handled the frame, when that thread's loop is the current
        // executor). The handler must outlive it.
        std::optional<Task<PendingResponse>> pending;
    };

    // A login whose password check runs off the event loop: the check is a
    // deliberately slow KDF, and it would stall every connection of the loop.
    struct DeferredLogin {
        int16_t stream = 0;
        std::string username;
        std::string password;
    };

    // From now on, an AUTH_RESPONSE with well-formed credentials is not
    // checked by handle_frame: it returns Outcome::login_deferred, the caller
    // takes the login, runs Database::login on any thread, and hands the
    // result to finish_login on the handler's thread. The caller must not
    // hand further frames to the handler until then (their order matters).
    void defer_logins() { defer_logins_ = true; }
    DeferredLogin take_deferred_login() { return std::move(deferred_login_); }
    // Appends AUTH_SUCCESS (and keeps the session) or the login's error.
    void finish_login(const DeferredLogin& login, Result<std::unique_ptr<Session>> session,
                      std::string* out);

    // Handles one frame from the parser, appending the response frame(s).
    Outcome handle_frame(const protocol::Frame& frame, std::string* out);

    // The parser refused a frame (oversized, or a version it cannot frame):
    // appends the ERROR for it. An oversized frame of a supported version is
    // skipped and the connection stays open, as Cassandra does; a version
    // error closes it.
    Outcome handle_parse_error(const Status& error,
                               const std::optional<protocol::FrameHeader>& header,
                               std::string* out);

    // Answers `header`'s request with `error` without executing it (a limit
    // refused it); the connection stays open.
    void refuse(const protocol::FrameHeader& header, const Status& error, std::string* out) const;

    // When the frames handled next arrived (the start of their timeouts).
    void set_received_at(std::chrono::steady_clock::time_point t) { received_at_ = t; }
    // Bound values longer than this are Invalid (max_value_size_in_mb).
    void set_max_value_bytes(size_t n) { max_value_bytes_ = n; }

    // An EVENT frame (stream -1) for a schema change, in this connection's
    // version and compression.
    std::string encode_schema_event(const SchemaChange& change) const;
    // The EVENT frame of a cluster event, or "" when this connection did not
    // register for its type (or the address does not parse).
    std::string encode_cluster_event(const ClusterEvent& event) const;

    bool registered_for_schema_events() const { return schema_events_; }

    // The error code of the last response appended (nullopt: not an ERROR),
    // for the request metrics.
    std::optional<ErrorCode> last_error() const { return last_error_; }

  private:
    using Response = protocol::Response;

    // Every request but QUERY, EXECUTE and BATCH: answered at once.
    Response dispatch(protocol::Request& request, Outcome* outcome);
    // QUERY, EXECUTE and BATCH: run by the session, possibly asynchronously.
    static bool runs_statements(const protocol::Request& request);
    // A QUERY, EXECUTE or BATCH and the warnings its statements raise, kept at
    // one address while the session runs it (the session's Task refers to them).
    struct StatementCall {
        protocol::Request request;
        std::vector<std::string> warnings;
    };
    Task<Response> run_statements(protocol::Request& request, std::vector<std::string>* warnings);
    // The response of a finished run_statements Task (an exception it threw
    // becomes a Server_error).
    Response take_response(Task<Response>& finished, StatementCall& call);
    // Waits for a run_statements Task that did not finish at once, then
    // encodes its response as take_response does.
    Task<PendingResponse> finish_statements(int16_t stream, std::unique_ptr<StatementCall> call,
                                            Task<Response> running);
    Response handle_startup(const protocol::StartupRequest& startup);
    Response handle_auth_response(const protocol::AuthResponseRequest& auth, Outcome* outcome);
    Response login_response(Result<std::unique_ptr<Session>> session);
    Response handle_register(const protocol::RegisterRequest& reg, Outcome* outcome);
    Task<Response> handle_query(protocol::QueryRequest& query, std::vector<std::string>* warnings);
    Response handle_prepare(const protocol::PrepareRequest& prepare);
    Task<Response> handle_execute(protocol::ExecuteRequest& execute,
                                  std::vector<std::string>* warnings);
    Task<Response> handle_batch(const protocol::BatchRequest& batch,
                                std::vector<std::string>* warnings);
    Response result_response(Result<ResultSet>&& result, uint16_t consistency,
                             std::vector<std::string>* warnings);

    // Encodes (and compresses when negotiated) one response frame.
    void append_response(int16_t stream, const Response& response,
                         const std::vector<std::string>& warnings, std::string* out) const;

    Database& db_;
    size_t max_frame_bytes_;
    size_t max_value_bytes_ = 256ull << 20;
    std::chrono::steady_clock::time_point received_at_{};
    std::unique_ptr<Session> session_;  // created by STARTUP
    uint8_t version_ = 0;               // fixed by the first valid frame
    bool started_ = false;
    bool awaiting_auth_ = false;  // STARTUP answered AUTHENTICATE; no session yet
    bool defer_logins_ = false;
    DeferredLogin deferred_login_;
    // A StatementCall kept for the next request once its last one finished.
    std::unique_ptr<StatementCall> spare_call_;
    bool schema_events_ = false;
    bool topology_events_ = false;
    bool status_events_ = false;
    protocol::Compression compression_ = protocol::Compression::kNone;
    mutable std::optional<ErrorCode> last_error_;
};

// A Status as an ERROR response, with the extra fields its code needs
// (consistency of the request for Unavailable and the timeouts).
protocol::ErrorResponse error_response(const Status& status, uint16_t consistency);

}  // namespace tessel::server
