// InboundConnection: a connection a peer opened to send us its requests.
// It answers the peer's handshake (refusing a version we do not speak, a
// wrong cluster name, an address that is not the source address, or what
// the peer filter refuses), then reads frames, runs the verb's handler for
// each request and writes the replies in the order they are ready.
// Internal to src/cluster.
//
// Threads: everything runs on the connection's strand; a handler that
// finishes elsewhere posts its reply onto the strand (under the Lifeline).
#pragma once

#include <asio.hpp>

#include <cstddef>
#include <memory>
#include <string>

#include "cluster/messaging_context.h"
#include "cluster/messaging_queue.h"
#include "cluster/messaging_socket.h"

namespace tessel::cluster::detail {

class InboundConnection : public std::enable_shared_from_this<InboundConnection> {
  public:
    // `socket` was accepted with a strand as its executor.
    InboundConnection(MessagingContext& ctx, asio::ip::tcp::socket socket);

    // Starts the TLS and messaging handshakes (posted onto the strand).
    void start();
    // Closes the socket; replies still to come are dropped. On the strand,
    // or from any thread once the io threads have stopped.
    void close();

    // A handler's result for request `id` (any thread).
    void post_reply(uint64_t id, Verb verb, Result<std::string> result);

    // Requests whose handlers have not finished; beyond it reading pauses.
    static constexpr size_t kMaxHandlersInFlight = 65536;

  private:
    enum class State { kHandshake, kOpen, kRefusing, kClosed };

    void read_handshake();
    void on_handshake_bytes(const asio::error_code& ec, size_t n);
    void refuse(const std::string& reason);
    void do_read();
    void on_read(const asio::error_code& ec, size_t n);
    void on_frame(const DecodedFrame& frame);
    void run_handler(const Handler& handler, const FrameHeader& header, std::string payload);
    void reply(uint64_t id, Verb verb, Result<std::string> result);
    void queue_frame(const FrameHeader& header, std::string payload);
    void write_more();
    void fail(const std::string& why);

    MessagingContext& ctx_;
    MessagingSocket socket_;
    asio::steady_timer handshake_timer_;
    std::string remote_;  // "ip:port" of the TCP peer, for logs
    std::string remote_ip_;
    InboundContext peer_;
    std::shared_ptr<PeerClock> clock_;
    State state_ = State::kHandshake;

    InBuffer in_;
    bool reading_ = false;
    bool decoding_ = false;
    size_t handlers_in_flight_ = 0;
    OutQueue out_;
};

}  // namespace tessel::cluster::detail
