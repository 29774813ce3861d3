// The vocabulary of internode messaging: who a message goes to, who it came
// from, how a request fails, and what a handler is.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <variant>

#include "cluster/messaging_frame.h"
#include "common/status.h"
#include "common/task.h"

namespace tessel::cluster {

// A node's messaging endpoint: its address (an IP address as text, e.g.
// "127.0.0.2") and its storage port.
struct PeerAddress {
    std::string address;
    int port = 0;

    friend bool operator==(const PeerAddress&, const PeerAddress&) = default;
    friend auto operator<=>(const PeerAddress&, const PeerAddress&) = default;
    std::string to_string() const { return address + ":" + std::to_string(port); }
};

struct PeerAddressHash {
    size_t operator()(const PeerAddress& p) const {
        return std::hash<std::string>()(p.address) * 31 + std::hash<int>()(p.port);
    }
};

// Who sent an inbound message, as its handshake stated: the host id (16 raw
// bytes) and its messaging endpoint (the address is the connection's source
// address, which the acceptor checked against what the sender claimed).
struct InboundContext {
    std::string host_id;
    PeerAddress from;
};

// Why a request failed. The caller decides on `kind`; `status` carries a
// message for people (naming the peer and the verb) and, for kRemote, the
// handler's own Status unchanged (code, message and details).
struct MessagingError {
    enum class Kind {
        // The deadline passed before the reply came (the peer may still
        // apply the request): a replica that did not answer in time.
        // status: Server_error.
        kTimeout,
        // No connection could be made, the handshake was refused, the
        // connection was lost before the reply, or the service is stopped.
        // The peer may have applied a request that was already sent.
        // status: Unavailable.
        kUnreachable,
        // Not queued: the peer's outbound queue is over
        // max_pending_bytes_per_peer, or the request alone is larger than
        // that bound or than max_frame_bytes. Nothing was sent.
        // status: Overloaded.
        kOverloaded,
        // The peer answered with an error: its handler's Status, or
        // Protocol_error when it has no handler for the verb.
        kRemote,
    };
    Kind kind;
    Status status;
};

std::string_view messaging_error_kind_name(MessagingError::Kind kind);

// A reply payload or a MessagingError.
class [[nodiscard]] MessagingResult {
  public:
    MessagingResult(std::string payload) : v_(std::move(payload)) {}  // NOLINT: implicit
    MessagingResult(MessagingError error) : v_(std::move(error)) {}   // NOLINT: implicit

    bool is_ok() const { return v_.index() == 0; }
    explicit operator bool() const { return is_ok(); }

    // Preconditions: is_ok() for value(), !is_ok() for error() and status().
    std::string& value() & { return std::get<0>(v_); }
    const std::string& value() const& { return std::get<0>(v_); }
    std::string&& value() && { return std::get<0>(std::move(v_)); }
    std::string& operator*() & { return value(); }
    const std::string& operator*() const& { return value(); }
    const MessagingError& error() const { return std::get<1>(v_); }
    MessagingError::Kind kind() const { return error().kind; }
    const Status& status() const { return error().status; }

  private:
    std::variant<std::string, MessagingError> v_;
};

// The state of this node's connection to one peer.
struct PeerStats {
    bool connected = false;        // the handshake is done and the connection open
    size_t queued_bytes = 0;       // queued or being written, not yet sent (<= the bound)
    size_t pending_requests = 0;   // sent or queued, awaiting their reply
    uint64_t dropped_one_way = 0;  // one-way messages dropped (overloaded, unreachable)
};

// Serves one verb. Runs on a messaging io thread and may suspend; the
// context stays valid until the returned Task finishes. Its value is the
// reply payload; an error Status travels to the requester as kRemote with
// its code, message and details. An exception thrown by a handler is
// answered as Server_error with its what(). For a one-way message the
// result is dropped.
using Handler =
    std::function<Task<Result<std::string>>(const InboundContext& from, std::string payload)>;

// Decides whether an inbound handshake is accepted: the sender's address
// (its connection's source address) and host id (16 raw bytes). Runs on a
// messaging io thread for every inbound handshake; must be thread-safe.
using PeerFilter = std::function<bool(const std::string& address, const std::string& host_id)>;

// Told when a peer this node sends to stops answering (reachable = false:
// nothing arrived from it for failure_timeout_ms) or answers again (or for
// the first time). Runs on a messaging io thread; must not block.
using PeerStateListener = std::function<void(const PeerAddress& peer, bool reachable)>;

}  // namespace tessel::cluster
