#include "cluster/messaging_service.h"

#include <spdlog/spdlog.h>

#include <cstdlib>
#include <exception>

#include "cluster/messaging_inbound.h"
#include "cluster/messaging_outbound.h"

namespace tessel::cluster {
namespace {

Task<MessagingResult> await_reply(Completion<MessagingResult> done) {
    co_return co_await done.wait();
}

MessagingError not_running(const PeerAddress& to, Verb verb) {
    return {
        MessagingError::Kind::kUnreachable,
        Status(ErrorCode::kUnavailable, "verb " + std::to_string(verb) + " to " + to.to_string() +
                                            ": the messaging service is not running")};
}

Status check_options(const MessagingOptions& o) {
    auto bad = [](const std::string& what) { return Status::config("messaging: " + what); };
    if (o.threads < 1) return bad("threads must be at least 1");
    if (o.host_id.size() != kHostIdSize) {
        return bad("host_id must be 16 bytes (a raw UUID), not " +
                   std::to_string(o.host_id.size()));
    }
    if (o.cluster_name.size() > kMaxClusterName) {
        return bad("cluster_name is longer than " + std::to_string(kMaxClusterName) + " bytes");
    }
    if (o.storage_port < 0 || o.storage_port > 65535) {
        return bad("storage_port " + std::to_string(o.storage_port) + " is not a port");
    }
    if (o.max_frame_bytes == 0 || o.max_pending_bytes_per_peer == 0) {
        return bad("max_frame_bytes and max_pending_bytes_per_peer must be positive");
    }
    if (o.heartbeat_interval_ms <= 0 || o.failure_timeout_ms <= 0 || o.connect_timeout_ms <= 0 ||
        o.reconnect_backoff_min_ms <= 0 || o.reconnect_backoff_max_ms <= 0) {
        return bad(
            "heartbeat_interval_ms, failure_timeout_ms, connect_timeout_ms and the "
            "reconnect backoffs must be positive");
    }
    return Status::ok();
}

}  // namespace

std::string_view messaging_error_kind_name(MessagingError::Kind kind) {
    switch (kind) {
        case MessagingError::Kind::kTimeout:
            return "timeout";
        case MessagingError::Kind::kUnreachable:
            return "unreachable";
        case MessagingError::Kind::kOverloaded:
            return "overloaded";
        case MessagingError::Kind::kRemote:
            return "remote";
    }
    return "unknown";
}

MessagingService::MessagingService(MessagingOptions options) : ctx_(std::move(options)) {}

MessagingService::~MessagingService() {
    stop();
}

Status MessagingService::register_handler(Verb verb, Handler handler) {
    if (state_.load() != State::kNew) {
        return Status::server("messaging: handlers are registered before start()");
    }
    if (!ctx_.handlers.emplace(verb, std::move(handler)).second) {
        return Status::server("messaging: verb " + std::to_string(verb) + " already has a handler");
    }
    return Status::ok();
}

void MessagingService::set_peer_filter(PeerFilter filter) {
    if (state_.load() == State::kNew) ctx_.filter = std::move(filter);
}

void MessagingService::set_peer_state_listener(PeerStateListener listener) {
    if (state_.load() == State::kNew) ctx_.listener = std::move(listener);
}

Status MessagingService::start() {
    if (state_.load() != State::kNew) return Status::server("messaging: start() called twice");
    const MessagingOptions& o = ctx_.options;
    TESSEL_RETURN_IF_ERROR(check_options(o));
    if (o.tls.enabled) {
        TESSEL_ASSIGN_OR_RETURN(ctx_.tls, make_messaging_tls_contexts(o.tls));
    }
    asio::error_code ec;
    const auto address = asio::ip::make_address(o.listen_address, ec);
    if (ec)
        return Status::config("messaging: listen_address '" + o.listen_address +
                              "' is not an IP address");
    const asio::ip::tcp::endpoint endpoint(address, static_cast<uint16_t>(o.storage_port));
    acceptor_.emplace(io_);
    const std::string where = o.listen_address + ":" + std::to_string(o.storage_port);
    acceptor_->open(endpoint.protocol(), ec);
    if (!ec) acceptor_->set_option(asio::ip::tcp::acceptor::reuse_address(true), ec);
    if (!ec) acceptor_->bind(endpoint, ec);
    if (!ec) acceptor_->listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
        acceptor_.reset();
        return Status::server("messaging: cannot listen on " + where + ": " + ec.message());
    }
    ctx_.local_port = acceptor_->local_endpoint().port();
    accept_retry_.emplace(io_);
    {
        std::lock_guard lock(peers_mu_);
        state_.store(State::kRunning);
    }
    work_.emplace(io_.get_executor());
    do_accept();
    for (int i = 0; i < o.threads; ++i) {
        threads_.emplace_back([this] {
            for (;;) {
                try {
                    io_.run();
                    return;
                } catch (const std::exception& e) {
                    // A handler must never take the io threads down with it.
                    spdlog::error("messaging io handler failed: {}", e.what());
                }
            }
        });
    }
    spdlog::info("internode messaging on {}:{}{}", o.listen_address, ctx_.local_port,
                 o.tls.enabled ? " (TLS)" : "");
    return Status::ok();
}

void MessagingService::do_accept() {
    auto socket = std::make_shared<asio::ip::tcp::socket>(asio::make_strand(io_));
    acceptor_->async_accept(*socket, [this, socket](const asio::error_code& ec) {
        if (state_.load() != State::kRunning || ec == asio::error::operation_aborted) return;
        if (ec) {
            // Out of descriptors, usually: try again shortly rather than spin.
            spdlog::warn("internode accept failed: {}", ec.message());
            accept_retry_->expires_after(std::chrono::milliseconds(100));
            accept_retry_->async_wait([this](const asio::error_code& e) {
                if (!e && state_.load() == State::kRunning) do_accept();
            });
            return;
        }
        auto connection = std::make_shared<detail::InboundConnection>(ctx_, std::move(*socket));
        ctx_.add_inbound(connection);
        connection->start();
        do_accept();
    });
}

void MessagingService::stop() {
    std::lock_guard stop_lock(stop_mu_);
    State expected = State::kRunning;
    if (!state_.compare_exchange_strong(expected, State::kStopped)) {
        state_.store(State::kStopped);
        return;
    }
    for (const auto& t : threads_) {
        if (t.get_id() == std::this_thread::get_id()) {
            spdlog::critical("MessagingService::stop() called on one of its io threads");
            std::abort();
        }
    }
    {
        // From here on no other thread posts into io_.
        std::lock_guard lock(ctx_.life->mu);
        ctx_.life->alive = false;
    }
    work_.reset();
    io_.stop();
    for (auto& t : threads_)
        t.join();
    threads_.clear();

    // The io threads are gone: everything below runs on this thread alone.
    asio::error_code ignored;
    acceptor_->close(ignored);
    accept_retry_->cancel();
    std::vector<std::shared_ptr<detail::OutboundConnection>> outbound;
    {
        std::lock_guard lock(peers_mu_);
        for (auto& [peer, c] : peers_)
            outbound.push_back(std::move(c));
        peers_.clear();
    }
    for (auto& c : outbound)
        c->close("the messaging service stopped");
    for (auto& c : ctx_.take_inbound())
        c->close();
    // Run what is ready (aborted operations, posted replies) so connections
    // and the coroutines waiting on them are released; timers still armed
    // are dropped with io_.
    io_.restart();
    constexpr int kDrainLimit = 1000000;
    for (int i = 0; i < kDrainLimit; ++i) {
        try {
            if (io_.poll_one() == 0) break;
        } catch (const std::exception& e) {
            spdlog::error("messaging io handler failed while stopping: {}", e.what());
        }
    }
    spdlog::info("internode messaging on {}:{} stopped", ctx_.options.listen_address,
                 ctx_.local_port);
}

std::shared_ptr<detail::OutboundConnection> MessagingService::outbound(const PeerAddress& peer) {
    std::lock_guard lock(peers_mu_);
    if (state_.load() != State::kRunning) return nullptr;
    auto& c = peers_[peer];
    if (!c) {
        c = std::make_shared<detail::OutboundConnection>(ctx_, io_, peer);
        c->start();
    }
    return c;
}

std::shared_ptr<detail::OutboundConnection> MessagingService::find_outbound(
    const PeerAddress& peer) const {
    std::lock_guard lock(peers_mu_);
    auto it = peers_.find(peer);
    return it == peers_.end() ? nullptr : it->second;
}

Task<MessagingResult> MessagingService::request(const PeerAddress& to, Verb verb,
                                                std::string payload, Clock::time_point deadline) {
    Completion<MessagingResult> done;
    if (auto c = outbound(to)) {
        c->submit_request(verb, std::move(payload), deadline, done);
    } else {
        done.set(not_running(to, verb));
    }
    return await_reply(std::move(done));
}

void MessagingService::send(const PeerAddress& to, Verb verb, std::string payload) {
    if (auto c = outbound(to)) c->submit_one_way(verb, std::move(payload));
}

std::optional<MessagingService::Clock::time_point> MessagingService::last_heard(
    const PeerAddress& peer) const {
    auto clock = ctx_.find_clock(peer);
    if (!clock) return std::nullopt;
    return clock->last_heard();
}

PeerStats MessagingService::peer_stats(const PeerAddress& peer) const {
    auto c = find_outbound(peer);
    return c ? c->stats() : PeerStats{};
}

void MessagingService::disconnect(const PeerAddress& peer) {
    std::shared_ptr<detail::OutboundConnection> c;
    {
        std::lock_guard lock(peers_mu_);
        auto it = peers_.find(peer);
        if (it == peers_.end()) return;
        c = std::move(it->second);
        peers_.erase(it);
    }
    c->post_close("disconnected by this node");
}

}  // namespace tessel::cluster
