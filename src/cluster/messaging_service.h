// MessagingService: the transport between Tessel nodes. Requests and
// one-way messages go to peers as (verb, opaque payload); the peer runs the
// handler registered for the verb and its result comes back as the reply.
// The users of the service (replication, reads, Paxos, hints) choose the
// verbs and encode the payloads; this layer only moves bytes.
//
// Connections: one outbound connection per peer (address + storage port),
// opened on first use and kept, multiplexing any number of requests
// (replies come in any order, matched by request id); a peer opens its own
// connection to us for its requests. Every connection starts with a
// versioned handshake (messaging_frame.h) carrying the cluster name, the
// host id and the address; a refused handshake fails the sender's requests
// as kUnreachable with the acceptor's reason. Optional TLS (MessagingTlsOptions).
//
// Failures (MessagingError::Kind, messaging_types.h): kTimeout at the
// deadline, whatever the peer does; kUnreachable when there is no
// connection (a failed attempt makes requests fail at once until the next
// attempt, with growing backoff) or it broke before the reply; kOverloaded
// when the peer's queue is over its bound (nothing is queued); kRemote for
// the handler's own error.
//
// Threads: `threads` io threads run one io_context, shared by every
// connection (each on its own strand), the deadlines, the heartbeats and
// whatever other cluster parts arm on io(). request(), send(),
// last_heard(), peer_stats() and disconnect() may be called from any thread,
// concurrently, while the service exists. A request's awaiting coroutine
// resumes on the Executor that was current where it suspended, or inline on
// the io thread that completed it when there was none. Handlers, the peer
// filter and the peer-state listener run on io threads: they must not
// block for long, and must never call stop() or destroy the service.
#pragma once

#include <asio.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "cluster/messaging_context.h"
#include "cluster/messaging_options.h"
#include "cluster/messaging_types.h"
#include "common/status.h"
#include "common/task.h"

namespace tessel::cluster {

namespace detail {
class OutboundConnection;
}

class MessagingService {
  public:
    using Clock = std::chrono::steady_clock;

    explicit MessagingService(MessagingOptions options);
    // stop(), then frees everything: safe with requests in flight (they fail
    // as kUnreachable) and with handlers still running (their replies are
    // dropped). Work armed on io() that has not run is dropped with it.
    ~MessagingService();

    MessagingService(const MessagingService&) = delete;
    MessagingService& operator=(const MessagingService&) = delete;

    // Before start(): the handler of `verb` (one per verb). Server_error when
    // the service has started or the verb already has a handler. A request
    // for a verb without a handler gets a kRemote Protocol_error.
    Status register_handler(Verb verb, Handler handler);
    // Before start(): decides on every inbound handshake (default: accept all).
    void set_peer_filter(PeerFilter filter);
    // Before start(): told when a peer this node sends to stops or starts answering.
    void set_peer_state_listener(PeerStateListener listener);

    // Listens on listen_address:storage_port and starts the io threads.
    // Config_error for bad options or unusable TLS files, Server_error when
    // the address cannot be bound. Called once.
    Status start();
    // Closes the listener and every connection, fails every pending request
    // (kUnreachable), joins the io threads. Idempotent; the service cannot
    // start again (make a new one). Not from an io thread.
    void stop();

    // The bound storage port (after start(); the chosen one when 0 was asked).
    int port() const { return ctx_.local_port; }
    // This node as its peers address it: listen_address and port().
    PeerAddress address() const { return {ctx_.options.listen_address, port()}; }

    // Sends `payload` to `to`'s handler of `verb`; its reply, or why there is
    // none (see MessagingError). Never waits past `deadline`. `to` need not
    // outlive the call.
    Task<MessagingResult> request(const PeerAddress& to, Verb verb, std::string payload,
                                  Clock::time_point deadline);
    // One-way: queued for `to` unless the queue is over its bound, or the
    // peer is unreachable (then dropped, counted in PeerStats). No reply.
    void send(const PeerAddress& to, Verb verb, std::string payload);

    // When anything last arrived from `peer` (on either connection); nullopt
    // before the first message.
    std::optional<Clock::time_point> last_heard(const PeerAddress& peer) const;
    PeerStats peer_stats(const PeerAddress& peer) const;
    // Closes the connection to `peer` (pending requests fail as kUnreachable)
    // and forgets it: no more reconnects or heartbeats until the next request.
    void disconnect(const PeerAddress& peer);

    // The io_context the io threads run: other cluster parts arm timers on it.
    asio::io_context& io() { return io_; }

  private:
    enum class State { kNew, kRunning, kStopped };

    // The connection to `peer`, made on first use; null when not running.
    std::shared_ptr<detail::OutboundConnection> outbound(const PeerAddress& peer);
    std::shared_ptr<detail::OutboundConnection> find_outbound(const PeerAddress& peer) const;
    void do_accept();

    detail::MessagingContext ctx_;  // outlives io_: connections refer to it
    asio::io_context io_;
    std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work_;
    std::optional<asio::ip::tcp::acceptor> acceptor_;
    std::optional<asio::steady_timer> accept_retry_;
    std::vector<std::thread> threads_;
    std::atomic<State> state_{State::kNew};
    std::mutex stop_mu_;

    mutable std::mutex peers_mu_;
    std::unordered_map<PeerAddress, std::shared_ptr<detail::OutboundConnection>, PeerAddressHash>
        peers_;
};

}  // namespace tessel::cluster
