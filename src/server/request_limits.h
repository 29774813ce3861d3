// Admission of requests on a connection: how many requests one connection,
// and how many request bytes the whole server, may hold unanswered.
//
// A request counts from the moment its frame is taken from the parser: its
// bytes against the server until its response has been written to the
// socket, and the request itself against its connection until the response
// is handed to the socket. (The client may read the response, and reuse its
// stream id, before the server's write completes: a client that keeps within
// the 32768 streams of the protocol must never be refused.) A client that
// pipelines faster than it reads, or many clients at once, cannot make the
// server hold unbounded work: a connection stops reading while its output
// waits (connection.h). A request over a limit is not executed: it is answered at
// once with Overloaded (0x1001), as Cassandra answers when its in-flight
// request bytes are exhausted, and the connection stays usable.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>

#include "common/status.h"

namespace tessel::server {

// Shared by every connection of one server.
struct RequestLimits {
    size_t max_requests_per_connection = 32768;
    size_t max_request_bytes = 256ull << 20;  // whole server
    size_t max_value_bytes = 256ull << 20;    // one bound value (checked by the handler)
    std::atomic<size_t> request_bytes{0};     // unanswered, whole server
};

// One connection's unanswered requests, in stages: admitted while the
// current batch of frames runs, deferred while waiting for other nodes,
// queued with output not yet written, and being written. Not thread-safe:
// used on the connection's loop.
class InFlightRequests {
  public:
    explicit InFlightRequests(std::shared_ptr<RequestLimits> limits);
    ~InFlightRequests();  // releases whatever is still counted

    InFlightRequests(const InFlightRequests&) = delete;
    InFlightRequests& operator=(const InFlightRequests&) = delete;

    // Counts a request of `bytes` (its frame), or returns Overloaded.
    Status admit(size_t bytes);
    // One admitted request of `bytes` waits for other nodes: it stays counted
    // past queued() until finished().
    void deferred(size_t bytes);
    // That request's response was queued for writing.
    void finished(size_t bytes);
    // The responses of the admitted requests were queued for writing.
    void queued();
    // The queued output was handed to the socket.
    void writing();
    // The write finished: those requests are answered.
    void written();
    // The connection closed: nothing is outstanding any more.
    void release_all();

    // Requests counted against the connection's limit: not yet handed to
    // the socket.
    size_t count() const { return admitted_.n + deferred_.n + queued_.n; }
    const RequestLimits& limits() const { return *limits_; }

  private:
    struct Stage {
        size_t n = 0;
        size_t bytes = 0;
    };
    void release(Stage* stage);
    static void move(Stage* from, Stage* to);

    std::shared_ptr<RequestLimits> limits_;
    Stage admitted_, deferred_, queued_, writing_;
};

}  // namespace tessel::server
