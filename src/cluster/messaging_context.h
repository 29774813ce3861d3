// What the messaging service's connections share: the options, this node's
// handshake, the handlers, the peer filter and listener, the TLS contexts,
// when each peer was last heard from, and the guard that keeps threads the
// service does not own from posting into it after it stopped.
// Internal to src/cluster (messaging_*.cpp).
#pragma once

#include <asio.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "cluster/messaging_options.h"
#include "cluster/messaging_socket.h"
#include "cluster/messaging_types.h"

namespace tessel::cluster::detail {

class InboundConnection;

// Posts from other threads (a handler that finishes on a thread of its
// own) happen under `mu` and only while `alive`; stop() clears `alive`
// before it stops the io threads, so nothing is posted into a stopped or
// destroyed io_context.
struct Lifeline {
    std::mutex mu;
    bool alive = true;
};

// When anything last arrived from one peer, on any connection.
class PeerClock {
  public:
    void heard() {
        last_.store(std::chrono::steady_clock::now().time_since_epoch().count(),
                    std::memory_order_relaxed);
    }
    std::optional<std::chrono::steady_clock::time_point> last_heard() const {
        const auto v = last_.load(std::memory_order_relaxed);
        if (v == kNever) return std::nullopt;
        return std::chrono::steady_clock::time_point(std::chrono::steady_clock::duration(v));
    }

  private:
    static constexpr int64_t kNever = INT64_MIN;
    std::atomic<int64_t> last_{kNever};
};

using HandlerMap = std::unordered_map<Verb, Handler>;

class MessagingContext {
  public:
    explicit MessagingContext(MessagingOptions o) : options(std::move(o)) {}

    const MessagingOptions options;
    const std::shared_ptr<Lifeline> life = std::make_shared<Lifeline>();

    // Set before the service starts, then read-only.
    HandlerMap handlers;
    PeerFilter filter;
    PeerStateListener listener;
    MessagingTlsContexts tls;  // null contexts: plain TCP
    uint16_t local_port = 0;   // the bound storage port

    // This node's hello (or a reply accepting with `version`), sent from
    // `address` (the connection's local address).
    Handshake hello(const std::string& address) const;
    Handshake accept_reply(uint16_t version) const;
    // The version both sides speak, or nullopt.
    static std::optional<uint16_t> negotiate(uint16_t their_min, uint16_t their_max);
    // Why a hello that arrived from `remote_ip` is refused; empty when it is accepted.
    std::string check_hello(const Handshake& hello, const std::string& remote_ip) const;
    // Why an acceptor's reply is not acceptable; empty when it is.
    std::string check_reply(const Handshake& reply) const;

    // The clock of a peer, created on first use (thread-safe).
    std::shared_ptr<PeerClock> clock(const PeerAddress& peer);
    std::shared_ptr<PeerClock> find_clock(const PeerAddress& peer) const;

    // The open inbound connections (thread-safe), closed by stop().
    void add_inbound(const std::shared_ptr<InboundConnection>& c);
    void remove_inbound(const InboundConnection* c);
    std::vector<std::shared_ptr<InboundConnection>> take_inbound();

  private:
    mutable std::mutex mu_;
    std::unordered_map<PeerAddress, std::shared_ptr<PeerClock>, PeerAddressHash> clocks_;
    std::unordered_map<const InboundConnection*, std::weak_ptr<InboundConnection>> inbound_;
};

// "127.0.0.2" for an IPv4 address or an IPv4-mapped IPv6 one, else the IPv6 text.
std::string ip_text(const asio::ip::address& address);

}  // namespace tessel::cluster::detail
