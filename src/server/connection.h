// Connection: one client socket on one event loop.
//
// Reads whatever the socket delivers into a FrameParser, runs every complete
// frame through the RequestHandler to completion, and queues the responses.
// Responses produced while a write is in flight are coalesced into the next
// write, so a pipelining client gets few large writes. Reading pauses while
// more than kMaxPendingOutput bytes wait to be written (a client that sends
// but does not read cannot grow server memory without bound).
//
// Logins are the exception to running on the loop: the password check (a
// slow KDF) runs on the server's login pool, and the connection neither reads
// nor handles further frames until its answer is queued.
#pragma once

#include <asio.hpp>

#include <array>
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "diagnostics/server_metrics.h"
#include "protocol/frame.h"
#include "server/client_socket.h"
#include "server/request_handler.h"
#include "server/request_limits.h"

namespace tessel::server {

class Connection : public std::enable_shared_from_this<Connection> {
  public:
    // Called on the connection's loop when the client registers for events,
    // and when the connection closes (so the server can forget it).
    struct Hooks {
        std::function<void(const std::shared_ptr<Connection>&)> on_register;
        std::function<void(const Connection*)> on_close;
        // Request, byte and connection metrics (null: not recorded).
        diagnostics::ServerMetrics* metrics = nullptr;
        // Where password checks run (null: on the loop, inside the request).
        asio::thread_pool* login_pool = nullptr;
    };

    Connection(ClientSocket socket, Database& db, size_t max_frame_bytes,
               std::shared_ptr<RequestLimits> limits, Hooks hooks);
    ~Connection();

    // Starts reading (after the TLS handshake on a TLS socket). Call once,
    // right after construction (any thread).
    void start();
    // Thread-safe: queues a SCHEMA_CHANGE event on the connection's loop.
    void post_schema_event(const SchemaChange& change);
    // Thread-safe: queues a TOPOLOGY_CHANGE or STATUS_CHANGE event, if the
    // client registered for its type.
    void post_cluster_event(const ClusterEvent& event);
    // Thread-safe: closes the socket on the connection's loop.
    void post_close();

    uint64_t id() const { return id_; }

  private:
    static constexpr size_t kReadChunk = 64 * 1024;
    static constexpr size_t kMaxPendingOutput = 16 * 1024 * 1024;

    void do_read();
    void on_read(const asio::error_code& ec, size_t n);
    // Answers a first frame of an unsupported version as soon as its header is
    // here, without waiting for a body a foreign protocol may never send.
    bool reject_bad_first_header(std::string_view bytes);
    void process_frames();
    void queue_output(std::string&& bytes);
    void do_write();
    void on_write(const asio::error_code& ec);
    void close_now();
    // handle_frame, timed and counted in the metrics.
    RequestHandler::Outcome handle_counted(const protocol::Frame& frame, std::string* out);
    // Queues the response of a request that is waiting for other nodes once
    // it is ready; the request stays counted against the limits until then.
    void await_response(Task<PendingResponse> pending, const protocol::Frame& frame);
    // Runs the handler's deferred login on the login pool; its answer comes
    // back to the loop in on_login_checked.
    void start_login();
    void on_login_checked(const RequestHandler::DeferredLogin& login,
                          Result<std::unique_ptr<Session>> session,
                          std::chrono::steady_clock::time_point started);

    ClientSocket socket_;
    Database& db_;
    RequestHandler handler_;
    protocol::FrameParser parser_;
    InFlightRequests in_flight_requests_;  // unanswered requests (request_limits.h)
    Hooks hooks_;
    uint64_t id_;
    std::array<char, kReadChunk> read_buf_;
    std::string first_header_;  // the first frame's header bytes, until complete
    bool first_checked_ = false;
    std::string pending_;    // queued, not yet handed to the socket
    std::string in_flight_;  // being written
    bool writing_ = false;
    bool reading_ = false;
    bool read_paused_ = false;
    bool login_pending_ = false;  // a password check is running on the login pool
    bool closing_ = false;        // close once the queued output is written
    bool closed_ = false;
};

}  // namespace tessel::server
