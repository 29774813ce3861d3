// OutboundConnection: this node's one connection to a peer, carrying its
// requests (many in flight, matched to replies by id), one-way messages and
// heartbeats. It connects on first use, reconnects at once when an open
// connection breaks and with backoff after a failed attempt, bounds the
// bytes queued for the peer, and watches whether the peer answers.
// Internal to src/cluster.
//
// Threads: submit_*() and stats() from any thread; everything else runs on
// the connection's strand (close() also from the thread that stopped the io
// threads).
#pragma once

#include <asio.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "cluster/messaging_context.h"
#include "cluster/messaging_queue.h"
#include "cluster/messaging_socket.h"

namespace tessel::cluster::detail {

class OutboundConnection : public std::enable_shared_from_this<OutboundConnection> {
  public:
    using Clock = std::chrono::steady_clock;

    OutboundConnection(MessagingContext& ctx, asio::io_context& io, PeerAddress peer);

    // Arms the heartbeat (posted); connecting waits for the first message.
    void start();

    // Queues a request; `done` gets the reply or the failure (at once when
    // the request is over a bound). Any thread, only while the Lifeline is alive.
    void submit_request(Verb verb, std::string payload, Clock::time_point deadline,
                        Completion<MessagingResult> done);
    // Queues a one-way message, or drops it (overloaded). Any thread.
    void submit_one_way(Verb verb, std::string payload);

    // Closes for good: pending requests fail as unreachable with `why`.
    void close(const std::string& why);
    // close() posted onto the strand (any thread).
    void post_close(const std::string& why);

    PeerStats stats() const;

  private:
    enum class State { kIdle, kConnecting, kReady, kBackoff, kClosed };
    enum class Reach { kUnknown, kUp, kDown };

    // One TCP connection (attempt): handlers hold it, so a socket and the
    // buffer a read fills outlive the operations on them.
    struct Link {
        explicit Link(MessagingSocket s) : socket(std::move(s)) {}
        MessagingSocket socket;
        InBuffer in;
    };
    using LinkPtr = std::shared_ptr<Link>;

    struct Pending {
        Completion<MessagingResult> done;
        Verb verb = 0;
        std::unique_ptr<asio::steady_timer> timer;
        std::optional<OutQueue::Handle> queued;  // set until the frame is taken to be written
    };

    bool reserve(size_t bytes);
    void release(size_t bytes);
    bool post_guarded(std::function<void()> fn);

    void enqueue_request(Verb verb, std::string payload, Clock::time_point deadline,
                         Completion<MessagingResult> done);
    void enqueue_one_way(Verb verb, std::string payload);
    void push_frame(const FrameHeader& header, std::string payload);

    void connect();
    void on_connected(const LinkPtr& link, const asio::error_code& ec);
    void send_hello(const LinkPtr& link);
    void read_reply(const LinkPtr& link);
    void on_ready(const LinkPtr& link);
    void connection_failed(const std::string& why, bool warn);
    void fail_all(MessagingError::Kind kind, const std::string& why);

    void do_read(const LinkPtr& link);
    void process_frames(const LinkPtr& link);
    void complete(uint64_t id, MessagingResult result);
    void on_timeout(uint64_t id);
    void write_more();

    void arm_heartbeat();
    void tick();
    void heard();
    void set_reachable(bool up);

    MessagingError error(MessagingError::Kind kind, Verb verb, const std::string& why) const;

    MessagingContext& ctx_;
    const PeerAddress peer_;
    const std::string name_;  // "127.0.0.2:7000"
    asio::strand<asio::io_context::executor_type> strand_;
    asio::steady_timer connect_timer_;
    asio::steady_timer backoff_timer_;
    asio::steady_timer heartbeat_timer_;
    std::shared_ptr<PeerClock> clock_;

    State state_ = State::kIdle;
    LinkPtr link_;
    std::string last_error_;
    int backoff_ms_;
    uint64_t next_id_ = 1;
    std::unordered_map<uint64_t, Pending> pending_;
    OutQueue out_;
    bool ping_outstanding_ = false;
    Reach reach_ = Reach::kUnknown;
    Clock::time_point watch_since_;  // silence before this does not count

    std::atomic<size_t> reserved_bytes_{0};
    std::atomic<size_t> pending_count_{0};
    std::atomic<bool> connected_{false};
    std::atomic<uint64_t> dropped_one_way_{0};
};

}  // namespace tessel::cluster::detail
