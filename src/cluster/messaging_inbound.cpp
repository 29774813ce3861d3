#include "cluster/messaging_inbound.h"

#include <spdlog/spdlog.h>

#include <exception>
#include <utility>

namespace tessel::cluster::detail {
namespace {

// Runs a handler with its own copy of the context (alive until the handler's
// Task finishes) and turns an exception into Server_error.
Task<Result<std::string>> guarded_call(const Handler& handler, InboundContext from,
                                       std::string payload) {
    try {
        co_return co_await handler(from, std::move(payload));
    } catch (const std::exception& e) {
        co_return Status::server(std::string("the handler failed: ") + e.what());
    } catch (...) {
        co_return Status::server("the handler failed with an unknown exception");
    }
}

// Error messages are cut to this in replies (a frame must stay under max_frame_bytes).
constexpr size_t kMaxErrorMessage = 64 * 1024;

}  // namespace

InboundConnection::InboundConnection(MessagingContext& ctx, asio::ip::tcp::socket socket)
    : ctx_(ctx),
      socket_(ctx.tls.server ? MessagingSocket(std::move(socket), *ctx.tls.server)
                             : MessagingSocket(std::move(socket))),
      handshake_timer_(socket_.tcp().get_executor()) {
    asio::error_code ec;
    const auto endpoint = socket_.tcp().remote_endpoint(ec);
    if (!ec) {
        remote_ip_ = ip_text(endpoint.address());
        remote_ = remote_ip_ + ":" + std::to_string(endpoint.port());
    } else {
        remote_ = "an unknown address";
    }
}

void InboundConnection::start() {
    asio::post(socket_.tcp().get_executor(), [self = shared_from_this()] {
        if (self->state_ != State::kHandshake) return;
        asio::error_code ignored;
        self->socket_.tcp().set_option(asio::ip::tcp::no_delay(true), ignored);
        self->handshake_timer_.expires_after(
            std::chrono::milliseconds(self->ctx_.options.connect_timeout_ms));
        self->handshake_timer_.async_wait([self](const asio::error_code& ec) {
            if (ec || (self->state_ != State::kHandshake && self->state_ != State::kRefusing))
                return;
            spdlog::warn("internode connection from {} closed: no handshake within {} ms",
                         self->remote_, self->ctx_.options.connect_timeout_ms);
            self->close();
        });
        self->socket_.async_handshake(asio::ssl::stream_base::server,
                                      [self](const asio::error_code& ec) {
                                          if (self->state_ != State::kHandshake) return;
                                          if (ec) {
                                              spdlog::warn(
                                                  "internode connection from {} closed: TLS "
                                                  "handshake failed: {}",
                                                  self->remote_, ec.message());
                                              self->close();
                                              return;
                                          }
                                          self->read_handshake();
                                      });
    });
}

void InboundConnection::close() {
    if (state_ == State::kClosed) return;
    state_ = State::kClosed;
    handshake_timer_.cancel();
    socket_.close();
    out_.clear();
    ctx_.remove_inbound(this);
}

void InboundConnection::fail(const std::string& why) {
    if (state_ == State::kClosed) return;
    spdlog::warn("internode connection from {} closed: {}", remote_, why);
    close();
}

void InboundConnection::read_handshake() {
    reading_ = true;
    socket_.async_read_some(in_.prepare(),
                            [self = shared_from_this()](const asio::error_code& ec, size_t n) {
                                self->on_handshake_bytes(ec, n);
                            });
}

void InboundConnection::on_handshake_bytes(const asio::error_code& ec, size_t n) {
    reading_ = false;
    in_.commit(n);
    if (state_ != State::kHandshake) return;
    if (ec) {
        spdlog::debug("internode connection from {} closed before its handshake: {}", remote_,
                      ec.message());
        close();
        return;
    }
    auto decoded = decode_handshake(in_.data());
    if (!decoded.is_ok()) return fail(decoded.status().message());
    if (!decoded->has_value()) return read_handshake();
    const Handshake& hello = (*decoded)->handshake;
    in_.consume((*decoded)->size);
    const std::string refusal = ctx_.check_hello(hello, remote_ip_);
    if (!refusal.empty()) return refuse(refusal);

    handshake_timer_.cancel();
    state_ = State::kOpen;
    peer_.host_id = hello.host_id;
    peer_.from = PeerAddress{remote_ip_, hello.port};
    clock_ = ctx_.clock(peer_.from);
    clock_->heard();
    const uint16_t version = *MessagingContext::negotiate(hello.min_version, hello.max_version);
    out_.push_raw(encode_handshake(ctx_.accept_reply(version)));
    write_more();
    spdlog::debug("internode connection from {} ({}) open, version {}", remote_,
                  peer_.from.to_string(), version);
    // Frames sent right behind the hello are already in the buffer.
    on_read(asio::error_code(), 0);
}

void InboundConnection::refuse(const std::string& reason) {
    spdlog::warn("internode connection from {} refused: {}", remote_, reason);
    Handshake reply = ctx_.accept_reply(kMessagingVersion);
    reply.min_version = kMinMessagingVersion;
    reply.refused = true;
    reply.reason = "node " + ctx_.options.listen_address + ":" + std::to_string(ctx_.local_port) +
                   " refused the connection: " + reason;
    state_ = State::kRefusing;
    out_.push_raw(encode_handshake(reply));
    write_more();
}

void InboundConnection::do_read() {
    if (state_ != State::kOpen || reading_ || decoding_) return;
    if (handlers_in_flight_ >= kMaxHandlersInFlight ||
        out_.queued_bytes() > ctx_.options.max_pending_bytes_per_peer) {
        return;  // resumed by reply() once the peer has taken its replies
    }
    reading_ = true;
    socket_.async_read_some(in_.prepare(),
                            [self = shared_from_this()](const asio::error_code& ec, size_t n) {
                                self->reading_ = false;
                                self->in_.commit(n);
                                self->on_read(ec, n);
                            });
}

void InboundConnection::on_read(const asio::error_code& ec, size_t) {
    if (state_ != State::kOpen) return;
    if (ec) {
        spdlog::debug("internode connection from {} closed: {}", remote_, ec.message());
        close();
        return;
    }
    // A handler that finishes at once replies inside this loop; its reply
    // must not start a read into the buffer being decoded.
    decoding_ = true;
    while (state_ == State::kOpen) {
        auto next = decode_frame(in_.data(), ctx_.options.max_frame_bytes);
        if (!next.is_ok()) {
            decoding_ = false;
            return fail(next.status().message());
        }
        if (!next->has_value()) break;
        const DecodedFrame& frame = **next;
        in_.consume(frame.size);
        clock_->heard();
        on_frame(frame);
    }
    decoding_ = false;
    do_read();
}

void InboundConnection::on_frame(const DecodedFrame& frame) {
    const FrameHeader& h = frame.header;
    switch (h.kind) {
        case FrameKind::kPing:
            queue_frame(FrameHeader{h.verb, FrameKind::kPong, h.id, 0}, {});
            return;
        case FrameKind::kRequest:
        case FrameKind::kOneWay: {
            auto it = ctx_.handlers.find(h.verb);
            if (it != ctx_.handlers.end()) {
                run_handler(it->second, h, std::string(frame.payload));
            } else if (h.kind == FrameKind::kRequest) {
                ++handlers_in_flight_;
                reply(h.id, h.verb,
                      Status::protocol("node " + ctx_.options.listen_address + ":" +
                                       std::to_string(ctx_.local_port) +
                                       " has no handler for verb " + std::to_string(h.verb)));
            } else {
                spdlog::debug("one-way message from {} with unknown verb {} dropped", remote_,
                              h.verb);
            }
            return;
        }
        default:
            // Replies and pongs travel on the connections this node opened.
            return fail("unexpected frame kind " + std::to_string(static_cast<int>(h.kind)) +
                        " on an inbound connection");
    }
}

void InboundConnection::run_handler(const Handler& handler, const FrameHeader& header,
                                    std::string payload) {
    ++handlers_in_flight_;
    const uint64_t id = header.kind == FrameKind::kRequest ? header.id : 0;
    auto task = guarded_call(handler, peer_, std::move(payload));
    if (task.ready()) {
        reply(id, header.verb, task.take());
        return;
    }
    then(std::move(task), [life = ctx_.life, weak = weak_from_this(), id,
                           verb = header.verb](Result<std::string> result) {
        std::lock_guard lock(life->mu);
        if (!life->alive) return;
        if (auto self = weak.lock()) self->post_reply(id, verb, std::move(result));
    });
}

void InboundConnection::post_reply(uint64_t id, Verb verb, Result<std::string> result) {
    asio::post(socket_.tcp().get_executor(),
               [self = shared_from_this(), id, verb, r = std::move(result)]() mutable {
                   self->reply(id, verb, std::move(r));
               });
}

void InboundConnection::reply(uint64_t id, Verb verb, Result<std::string> result) {
    --handlers_in_flight_;
    if (state_ != State::kOpen) return;
    if (id != 0) {  // 0: a one-way message, nothing to answer
        FrameHeader header{verb, FrameKind::kResponse, id, 0};
        std::string payload;
        if (result.is_ok() && result->size() <= ctx_.options.max_frame_bytes) {
            payload = std::move(*result);
        } else {
            Status status = result.is_ok()
                                ? Status::server("the reply of " + std::to_string(result->size()) +
                                                 " bytes exceeds max_frame_bytes (" +
                                                 std::to_string(ctx_.options.max_frame_bytes) + ")")
                                : std::move(result).status();
            Status cut(status.code(), status.message().substr(0, kMaxErrorMessage));
            cut.detail1 = status.detail1.substr(0, kMaxErrorMessage);
            cut.detail2 = status.detail2.substr(0, kMaxErrorMessage);
            header.kind = FrameKind::kError;
            payload = encode_error_payload(cut);
        }
        queue_frame(header, std::move(payload));
    }
    do_read();
}

void InboundConnection::queue_frame(const FrameHeader& header, std::string payload) {
    FrameHeader h = header;
    h.length = static_cast<uint32_t>(payload.size());
    out_.push(h, std::move(payload));
    write_more();
}

void InboundConnection::write_more() {
    if (out_.writing() || out_.empty() || state_ == State::kClosed) return;
    socket_.async_write(
        out_.take_batch(), [self = shared_from_this()](const asio::error_code& ec, size_t) {
            self->out_.finish_batch();
            if (self->state_ == State::kClosed) return;
            if (ec) {
                spdlog::debug("internode connection from {} closed: write failed: {}",
                              self->remote_, ec.message());
                self->close();
                return;
            }
            if (self->state_ == State::kRefusing && self->out_.empty()) {
                self->close();
                return;
            }
            self->write_more();
            self->do_read();
        });
}

}  // namespace tessel::cluster::detail
