#include "cluster/messaging_outbound.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>
#include <vector>

namespace tessel::cluster::detail {

OutboundConnection::OutboundConnection(MessagingContext& ctx, asio::io_context& io,
                                       PeerAddress peer)
    : ctx_(ctx),
      peer_(std::move(peer)),
      name_(peer_.to_string()),
      strand_(asio::make_strand(io)),
      connect_timer_(strand_),
      backoff_timer_(strand_),
      heartbeat_timer_(strand_),
      clock_(ctx.clock(peer_)),
      backoff_ms_(std::max(1, ctx.options.reconnect_backoff_min_ms)),
      watch_since_(Clock::now()) {}

void OutboundConnection::start() {
    asio::post(strand_, [self = shared_from_this()] { self->arm_heartbeat(); });
}

MessagingError OutboundConnection::error(MessagingError::Kind kind, Verb verb,
                                         const std::string& why) const {
    const std::string what = "verb " + std::to_string(verb) + " to " + name_ + ": " + why;
    switch (kind) {
        case MessagingError::Kind::kTimeout:
            return {kind, Status::server(what)};
        case MessagingError::Kind::kOverloaded:
            return {kind, Status(ErrorCode::kOverloaded, what)};
        default:
            return {kind, Status(ErrorCode::kUnavailable, what)};
    }
}

bool OutboundConnection::reserve(size_t bytes) {
    const size_t bound = ctx_.options.max_pending_bytes_per_peer;
    size_t current = reserved_bytes_.load(std::memory_order_relaxed);
    do {
        if (current + bytes > bound) return false;
    } while (!reserved_bytes_.compare_exchange_weak(current, current + bytes,
                                                    std::memory_order_relaxed));
    return true;
}

void OutboundConnection::release(size_t bytes) {
    reserved_bytes_.fetch_sub(bytes, std::memory_order_relaxed);
}

bool OutboundConnection::post_guarded(std::function<void()> fn) {
    std::lock_guard lock(ctx_.life->mu);
    if (!ctx_.life->alive) return false;
    asio::post(strand_, std::move(fn));
    return true;
}

void OutboundConnection::submit_request(Verb verb, std::string payload, Clock::time_point deadline,
                                        Completion<MessagingResult> done) {
    const size_t bytes = kFrameHeaderSize + payload.size();
    if (payload.size() > ctx_.options.max_frame_bytes) {
        done.set(error(MessagingError::Kind::kOverloaded, verb,
                       "a request of " + std::to_string(payload.size()) +
                           " bytes exceeds max_frame_bytes (" +
                           std::to_string(ctx_.options.max_frame_bytes) + ")"));
        return;
    }
    if (!reserve(bytes)) {
        done.set(error(MessagingError::Kind::kOverloaded, verb,
                       std::to_string(reserved_bytes_.load()) +
                           " bytes are queued, and this request's " + std::to_string(bytes) +
                           " would pass max_pending_bytes_per_peer (" +
                           std::to_string(ctx_.options.max_pending_bytes_per_peer) + ")"));
        return;
    }
    // The completion is set outside the Lifeline's lock: it may resume the
    // caller here, and the caller may send again.
    const bool posted = post_guarded(
        [self = shared_from_this(), verb, p = std::move(payload), deadline, done]() mutable {
            self->enqueue_request(verb, std::move(p), deadline, std::move(done));
        });
    if (!posted) {
        release(bytes);
        done.set(
            error(MessagingError::Kind::kUnreachable, verb, "the messaging service is stopped"));
    }
}

void OutboundConnection::submit_one_way(Verb verb, std::string payload) {
    const size_t bytes = kFrameHeaderSize + payload.size();
    if (payload.size() > ctx_.options.max_frame_bytes || !reserve(bytes)) {
        dropped_one_way_.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    const bool posted =
        post_guarded([self = shared_from_this(), verb, p = std::move(payload)]() mutable {
            self->enqueue_one_way(verb, std::move(p));
        });
    if (!posted) release(bytes);
}

void OutboundConnection::enqueue_request(Verb verb, std::string payload, Clock::time_point deadline,
                                         Completion<MessagingResult> done) {
    const size_t bytes = kFrameHeaderSize + payload.size();
    std::optional<MessagingError> failure;
    if (state_ == State::kClosed) {
        failure = error(MessagingError::Kind::kUnreachable, verb, last_error_);
    } else if (state_ == State::kBackoff) {
        failure = error(MessagingError::Kind::kUnreachable, verb,
                        "unreachable (" + last_error_ + "; retrying)");
    } else if (Clock::now() >= deadline) {
        failure = error(MessagingError::Kind::kTimeout, verb, "the deadline passed before sending");
    }
    if (failure) {
        release(bytes);
        done.set(std::move(*failure));
        return;
    }
    const uint64_t id = next_id_++;
    Pending& p = pending_[id];
    p.done = std::move(done);
    p.verb = verb;
    p.timer = std::make_unique<asio::steady_timer>(strand_, deadline);
    p.timer->async_wait([self = shared_from_this(), id](const asio::error_code& ec) {
        if (!ec) self->on_timeout(id);
    });
    FrameHeader header{verb, FrameKind::kRequest, id, static_cast<uint32_t>(payload.size())};
    p.queued = out_.push(header, std::move(payload));
    pending_count_.store(pending_.size(), std::memory_order_relaxed);
    if (state_ == State::kIdle) {
        connect();
    } else {
        write_more();
    }
}

void OutboundConnection::enqueue_one_way(Verb verb, std::string payload) {
    if (state_ == State::kClosed || state_ == State::kBackoff) {
        release(kFrameHeaderSize + payload.size());
        dropped_one_way_.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    FrameHeader header{verb, FrameKind::kOneWay, 0, static_cast<uint32_t>(payload.size())};
    out_.push(header, std::move(payload));
    if (state_ == State::kIdle) {
        connect();
    } else {
        write_more();
    }
}

// Frames of this connection's own (pings, pongs) bypass the bound but are
// still counted, so release() balances.
void OutboundConnection::push_frame(const FrameHeader& header, std::string payload) {
    reserved_bytes_.fetch_add(kFrameHeaderSize + payload.size(), std::memory_order_relaxed);
    out_.push(header, std::move(payload));
    write_more();
}

void OutboundConnection::connect() {
    state_ = State::kConnecting;
    asio::error_code ec;
    const auto address = asio::ip::make_address(peer_.address, ec);
    if (ec || peer_.port <= 0 || peer_.port > 65535) {
        return connection_failed("'" + name_ + "' is not an IP address and port", true);
    }
    const asio::ip::tcp::endpoint endpoint(address, static_cast<uint16_t>(peer_.port));
    asio::ip::tcp::socket socket(strand_);
    socket.open(endpoint.protocol(), ec);
    if (ec) return connection_failed("cannot open a socket: " + ec.message(), true);
    // Connect from the listen address: the acceptor checks that the address
    // a node claims in its handshake is the one it connects from.
    const auto local = asio::ip::make_address(ctx_.options.listen_address, ec);
    if (!ec && !local.is_unspecified() && local.is_v4() == address.is_v4()) {
        socket.bind(asio::ip::tcp::endpoint(local, 0), ec);
        if (ec)
            return connection_failed("cannot bind to " + local.to_string() + ": " + ec.message(),
                                     true);
    }
    auto link = std::make_shared<Link>(ctx_.tls.client
                                           ? MessagingSocket(std::move(socket), *ctx_.tls.client)
                                           : MessagingSocket(std::move(socket)));
    link_ = link;
    connect_timer_.expires_after(std::chrono::milliseconds(ctx_.options.connect_timeout_ms));
    connect_timer_.async_wait([self = shared_from_this(), link](const asio::error_code& ec) {
        if (ec || link != self->link_ || self->state_ != State::kConnecting) return;
        self->connection_failed("no connection and handshake within " +
                                    std::to_string(self->ctx_.options.connect_timeout_ms) + " ms",
                                false);
    });
    link->socket.tcp().async_connect(endpoint,
                                     [self = shared_from_this(), link](const asio::error_code& ec) {
                                         self->on_connected(link, ec);
                                     });
}

void OutboundConnection::on_connected(const LinkPtr& link, const asio::error_code& ec) {
    if (link != link_ || state_ != State::kConnecting) return;
    if (ec) return connection_failed("cannot connect: " + ec.message(), false);
    asio::error_code ignored;
    link->socket.tcp().set_option(asio::ip::tcp::no_delay(true), ignored);
    link->socket.async_handshake(asio::ssl::stream_base::client, [self = shared_from_this(), link](
                                                                     const asio::error_code& ec) {
        if (link != self->link_ || self->state_ != State::kConnecting) return;
        if (ec) {
            return self->connection_failed("TLS handshake failed: " + ec.message(), true);
        }
        self->send_hello(link);
    });
}

void OutboundConnection::send_hello(const LinkPtr& link) {
    asio::error_code ec;
    const auto local = link->socket.tcp().local_endpoint(ec);
    if (ec) return connection_failed("no local address: " + ec.message(), false);
    auto hello =
        std::make_shared<std::string>(encode_handshake(ctx_.hello(ip_text(local.address()))));
    link->socket.async_write(asio::buffer(*hello), [self = shared_from_this(), link, hello](
                                                       const asio::error_code& ec, size_t) {
        if (link != self->link_ || self->state_ != State::kConnecting) return;
        if (ec) return self->connection_failed("cannot send the handshake: " + ec.message(), false);
        self->read_reply(link);
    });
}

void OutboundConnection::read_reply(const LinkPtr& link) {
    link->socket.async_read_some(link->in.prepare(), [self = shared_from_this(), link](
                                                         const asio::error_code& ec, size_t n) {
        link->in.commit(n);
        if (link != self->link_ || self->state_ != State::kConnecting) return;
        if (ec) {
            // A TLS acceptor drops a plain hello without a word.
            const std::string hint =
                link->socket.is_tls() ? ""
                                      : "; does the peer require TLS (server_encryption_options)?";
            return self->connection_failed(
                "the connection closed during the handshake (" + ec.message() + ")" + hint, true);
        }
        auto decoded = decode_handshake(link->in.data());
        if (!decoded.is_ok()) {
            return self->connection_failed("bad handshake reply: " + decoded.status().message(),
                                           true);
        }
        if (!decoded->has_value()) return self->read_reply(link);
        const std::string problem = self->ctx_.check_reply((*decoded)->handshake);
        if (!problem.empty()) return self->connection_failed(problem, true);
        link->in.consume((*decoded)->size);
        self->on_ready(link);
    });
}

void OutboundConnection::on_ready(const LinkPtr& link) {
    state_ = State::kReady;
    connect_timer_.cancel();
    backoff_ms_ = std::max(1, ctx_.options.reconnect_backoff_min_ms);
    connected_.store(true, std::memory_order_relaxed);
    ping_outstanding_ = false;
    if (!last_error_.empty()) spdlog::info("internode connection to {} open again", name_);
    last_error_.clear();
    heard();
    write_more();
    process_frames(link);
}

void OutboundConnection::connection_failed(const std::string& why, bool warn) {
    const bool was_ready = state_ == State::kReady;
    if (link_) {
        link_->socket.close();
        link_.reset();
    }
    connect_timer_.cancel();
    connected_.store(false, std::memory_order_relaxed);
    ping_outstanding_ = false;
    // Repeated failures of the same kind are logged once.
    if (why != last_error_) {
        if (was_ready || warn) {
            spdlog::warn("internode connection to {}: {}", name_, why);
        } else {
            spdlog::info("internode connection to {}: {}", name_, why);
        }
    }
    last_error_ = why;
    fail_all(MessagingError::Kind::kUnreachable, why);
    if (state_ == State::kClosed) return;
    if (was_ready) {
        connect();  // at once: a broken connection is usually a restart
        return;
    }
    state_ = State::kBackoff;
    backoff_timer_.expires_after(std::chrono::milliseconds(backoff_ms_));
    backoff_ms_ =
        std::min(backoff_ms_ * 2, std::max(backoff_ms_, ctx_.options.reconnect_backoff_max_ms));
    backoff_timer_.async_wait([self = shared_from_this()](const asio::error_code& ec) {
        if (!ec && self->state_ == State::kBackoff) self->connect();
    });
}

void OutboundConnection::fail_all(MessagingError::Kind kind, const std::string& why) {
    release(out_.clear());  // the batch being written is released by its handler
    auto pending = std::move(pending_);
    pending_.clear();
    pending_count_.store(0, std::memory_order_relaxed);
    for (auto& [id, p] : pending) {
        p.timer->cancel();
        p.done.set(error(kind, p.verb, why));
    }
}

void OutboundConnection::close(const std::string& why) {
    if (state_ == State::kClosed) return;
    state_ = State::kClosed;
    if (link_) {
        link_->socket.close();
        link_.reset();
    }
    connected_.store(false, std::memory_order_relaxed);
    connect_timer_.cancel();
    backoff_timer_.cancel();
    heartbeat_timer_.cancel();
    last_error_ = why;
    fail_all(MessagingError::Kind::kUnreachable, why);
}

void OutboundConnection::post_close(const std::string& why) {
    post_guarded([self = shared_from_this(), why] { self->close(why); });
}

void OutboundConnection::do_read(const LinkPtr& link) {
    link->socket.async_read_some(link->in.prepare(), [self = shared_from_this(), link](
                                                         const asio::error_code& ec, size_t n) {
        link->in.commit(n);
        if (link != self->link_ || self->state_ != State::kReady) return;
        if (ec) return self->connection_failed("connection lost (" + ec.message() + ")", false);
        self->process_frames(link);
    });
}

void OutboundConnection::process_frames(const LinkPtr& link) {
    while (link == link_ && state_ == State::kReady) {
        auto next = decode_frame(link->in.data(), ctx_.options.max_frame_bytes);
        if (!next.is_ok()) return connection_failed(next.status().message(), true);
        if (!next->has_value()) return do_read(link);
        const DecodedFrame frame = **next;
        link->in.consume(frame.size);
        heard();
        switch (frame.header.kind) {
            case FrameKind::kResponse:
                complete(frame.header.id, std::string(frame.payload));
                break;
            case FrameKind::kError: {
                auto status = decode_error_payload(frame.payload);
                if (!status) return connection_failed("malformed internode error reply", true);
                complete(frame.header.id,
                         MessagingError{MessagingError::Kind::kRemote, std::move(*status)});
                break;
            }
            case FrameKind::kPong:
                ping_outstanding_ = false;
                break;
            case FrameKind::kPing:
                push_frame(FrameHeader{frame.header.verb, FrameKind::kPong, frame.header.id, 0},
                           {});
                break;
            default:
                return connection_failed("the peer sent a request on a connection this node opened",
                                         true);
        }
    }
}

void OutboundConnection::complete(uint64_t id, MessagingResult result) {
    auto it = pending_.find(id);
    if (it == pending_.end()) return;  // timed out already
    Pending p = std::move(it->second);
    pending_.erase(it);
    pending_count_.store(pending_.size(), std::memory_order_relaxed);
    p.timer->cancel();
    if (p.queued) {  // a reply to a request not sent yet: a confused peer
        release((*p.queued)->size());
        out_.erase(*p.queued);
    }
    p.done.set(std::move(result));
}

void OutboundConnection::on_timeout(uint64_t id) {
    auto it = pending_.find(id);
    if (it == pending_.end()) return;
    Pending p = std::move(it->second);
    pending_.erase(it);
    pending_count_.store(pending_.size(), std::memory_order_relaxed);
    // A request that never left the queue does not go at all.
    if (p.queued) {
        release((*p.queued)->size());
        out_.erase(*p.queued);
    }
    p.done.set(
        error(MessagingError::Kind::kTimeout, p.verb,
              p.queued ? "timed out before it could be sent" : "timed out awaiting the reply"));
}

void OutboundConnection::write_more() {
    if (state_ != State::kReady || out_.writing() || out_.empty()) return;
    const auto& buffers = out_.take_batch();
    for (const OutFrame& f : out_.batch()) {
        if (f.request_id == 0) continue;
        auto it = pending_.find(f.request_id);
        if (it != pending_.end()) it->second.queued.reset();
    }
    LinkPtr link = link_;
    link->socket.async_write(
        buffers, [self = shared_from_this(), link](const asio::error_code& ec, size_t) {
            self->release(self->out_.finish_batch());
            if (link != self->link_ || self->state_ != State::kReady) {
                self->write_more();  // a newer connection may be waiting for this batch to end
                return;
            }
            if (ec) return self->connection_failed("write failed (" + ec.message() + ")", false);
            self->write_more();
        });
}

void OutboundConnection::arm_heartbeat() {
    if (state_ == State::kClosed) return;
    heartbeat_timer_.expires_after(std::chrono::milliseconds(ctx_.options.heartbeat_interval_ms));
    heartbeat_timer_.async_wait([self = shared_from_this()](const asio::error_code& ec) {
        if (ec || self->state_ == State::kClosed) return;
        self->tick();
        self->arm_heartbeat();
    });
}

void OutboundConnection::tick() {
    if (state_ == State::kReady && !ping_outstanding_) {
        ping_outstanding_ = true;
        push_frame(FrameHeader{0, FrameKind::kPing, next_id_++, 0}, {});
    }
    // Anything from the peer counts, on either connection. A peer never
    // heard from is given up on failure_timeout after this connection began.
    const auto now = Clock::now();
    const auto timeout = std::chrono::milliseconds(ctx_.options.failure_timeout_ms);
    const auto last = clock_->last_heard();
    if (last && now - *last < timeout) {
        set_reachable(true);
    } else if (now - std::max(last.value_or(watch_since_), watch_since_) >= timeout) {
        set_reachable(false);
    }
}

void OutboundConnection::heard() {
    clock_->heard();
    set_reachable(true);
}

void OutboundConnection::set_reachable(bool up) {
    const Reach now = up ? Reach::kUp : Reach::kDown;
    if (now == reach_) return;
    reach_ = now;
    if (up) {
        spdlog::info("peer {} is reachable", name_);
    } else {
        spdlog::warn("peer {} is not answering: nothing heard for {} ms", name_,
                     ctx_.options.failure_timeout_ms);
    }
    if (ctx_.listener) ctx_.listener(peer_, up);
}

PeerStats OutboundConnection::stats() const {
    PeerStats s;
    s.connected = connected_.load(std::memory_order_relaxed);
    s.queued_bytes = reserved_bytes_.load(std::memory_order_relaxed);
    s.pending_requests = pending_count_.load(std::memory_order_relaxed);
    s.dropped_one_way = dropped_one_way_.load(std::memory_order_relaxed);
    return s;
}

}  // namespace tessel::cluster::detail
