// Helpers of the messaging tests: services on loopback addresses with fast
// timers, timers to suspend handlers on, and raw sockets that play a
// broken or hostile peer.
#pragma once

#include <gtest/gtest.h>

#include <asio.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cluster/messaging_service.h"

namespace tessel::cluster::testing {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

inline constexpr Verb kEcho = 1;
inline constexpr Verb kFail = 2;
inline constexpr Verb kHang = 3;
inline constexpr Verb kSleep = 4;
inline constexpr Verb kUnknown = 99;

// A distinct 16-byte host id per node number.
inline std::string host_id(int n) {
    std::string id(16, '\0');
    id[0] = static_cast<char>(0xa0);
    id[15] = static_cast<char>(n);
    return id;
}

// Options for node `n` on 127.0.0.n with timers short enough for tests.
inline MessagingOptions test_options(int n, int port = 0) {
    MessagingOptions o;
    o.listen_address = "127.0.0." + std::to_string(n);
    o.storage_port = port;
    o.cluster_name = "messaging-test";
    o.host_id = host_id(n);
    o.heartbeat_interval_ms = 50;
    o.failure_timeout_ms = 300;
    o.connect_timeout_ms = 1000;
    o.reconnect_backoff_min_ms = 20;
    o.reconnect_backoff_max_ms = 100;
    return o;
}

inline Clock::time_point in(std::chrono::milliseconds ms) {
    return Clock::now() + ms;
}

inline long ms_since(Clock::time_point t) {
    return static_cast<long>(
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count());
}

// Suspends the calling coroutine for `ms` on a timer of `io`.
inline Task<void> sleep_on(asio::io_context& io, std::chrono::milliseconds ms) {
    auto timer = std::make_shared<asio::steady_timer>(io, ms);
    Completion<int> done;
    timer->async_wait([done, timer](const asio::error_code&) mutable { done.set(0); });
    co_await done.wait();
}

inline MessagingResult call(MessagingService& from, const PeerAddress& to, Verb verb,
                            std::string payload,
                            std::chrono::milliseconds timeout = std::chrono::milliseconds(5000)) {
    return sync_wait([&] { return from.request(to, verb, std::move(payload), in(timeout)); });
}

// Polls `cond` every 5 ms until it holds or `timeout` passes.
inline bool eventually(const std::function<bool()>& cond,
                       std::chrono::milliseconds timeout = std::chrono::milliseconds(5000)) {
    const auto until = Clock::now() + timeout;
    while (Clock::now() < until) {
        if (cond()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return cond();
}

// Results of requests collected asynchronously (then()), by kind.
class Results {
  public:
    void add(MessagingResult r) {
        std::lock_guard lock(mu_);
        results_.push_back(std::move(r));
        cv_.notify_all();
    }
    bool wait_for(size_t n, std::chrono::milliseconds timeout) {
        std::unique_lock lock(mu_);
        return cv_.wait_for(lock, timeout, [&] { return results_.size() >= n; });
    }
    size_t count(std::optional<MessagingError::Kind> kind) {
        std::lock_guard lock(mu_);
        size_t n = 0;
        for (const auto& r : results_) {
            if (kind ? (!r.is_ok() && r.kind() == *kind) : r.is_ok()) ++n;
        }
        return n;
    }
    size_t size() {
        std::lock_guard lock(mu_);
        return results_.size();
    }
    std::vector<MessagingResult> take() {
        std::lock_guard lock(mu_);
        return std::move(results_);
    }

  private:
    std::mutex mu_;
    std::condition_variable cv_;
    std::vector<MessagingResult> results_;
};

// A service on 127.0.0.n with the test handlers: kEcho answers its payload,
// kFail answers Invalid "refused: <payload>", kSleep waits the payload's
// number of ms then echoes it, kHang waits for release_hung().
class TestNode {
  public:
    explicit TestNode(int n, int port = 0) : TestNode(test_options(n, port)) {}
    explicit TestNode(MessagingOptions options, bool start_now = true)
        : service(std::make_unique<MessagingService>(std::move(options))) {
        register_handlers();
        if (start_now) start();
    }
    ~TestNode() {
        release_hung();
        service.reset();
    }

    void start() { ASSERT_TRUE(service->start().is_ok()); }
    PeerAddress address() const { return service->address(); }

    // Completes every kHang handler waiting (with its payload as the reply).
    void release_hung() {
        std::vector<Completion<int>> hung;
        {
            std::lock_guard lock(*mu);
            hung.swap(*waiting);
        }
        for (auto& c : hung)
            c.set(0);
    }
    size_t hung_count() {
        std::lock_guard lock(*mu);
        return waiting->size();
    }

    std::unique_ptr<MessagingService> service;
    std::shared_ptr<std::mutex> mu = std::make_shared<std::mutex>();
    std::shared_ptr<std::vector<Completion<int>>> waiting =
        std::make_shared<std::vector<Completion<int>>>();
    std::shared_ptr<std::vector<InboundContext>> senders =
        std::make_shared<std::vector<InboundContext>>();

  private:
    void register_handlers() {
        auto senders_ = senders;
        auto mu_ = mu;
        (void)service->register_handler(
            kEcho,
            [senders_, mu_](const InboundContext& from,
                            std::string p) -> Task<Result<std::string>> {
                {
                    std::lock_guard lock(*mu_);
                    senders_->push_back(from);
                }
                co_return p;
            });
        (void)service->register_handler(
            kFail, [](const InboundContext&, std::string p) -> Task<Result<std::string>> {
                Status st = Status::invalid("refused: " + p);
                st.detail1 = "d1";
                co_return st;
            });
        asio::io_context* io = &service->io();
        (void)service->register_handler(
            kSleep, [io](const InboundContext&, std::string p) -> Task<Result<std::string>> {
                co_await sleep_on(*io, std::chrono::milliseconds(std::stoi(p)));
                co_return p;
            });
        auto waiting_ = waiting;
        (void)service->register_handler(
            kHang,
            [waiting_, mu_](const InboundContext&, std::string p) -> Task<Result<std::string>> {
                Completion<int> c;
                {
                    std::lock_guard lock(*mu_);
                    waiting_->push_back(c);
                }
                co_await c.wait();
                co_return p;
            });
    }
};

// A raw TCP listener on 127.0.0.n that plays a peer: kSilent accepts and
// never reads or writes; kAcceptThenSilent answers the hello as a good
// peer would, then neither reads nor writes again. Its receive buffer is
// small so that a connector's writes back up quickly.
class FakePeer {
  public:
    enum class Mode { kSilent, kAcceptThenSilent };

    FakePeer(int n, Mode mode, std::string cluster = "messaging-test")
        : mode_(mode), cluster_(std::move(cluster)), acceptor_(io_) {
        asio::ip::tcp::endpoint ep(asio::ip::make_address("127.0.0." + std::to_string(n)), 0);
        acceptor_.open(ep.protocol());
        acceptor_.set_option(asio::socket_base::receive_buffer_size(4096));
        acceptor_.bind(ep);
        acceptor_.listen();
        accept();
        thread_ = std::thread([this] { io_.run(); });
    }
    ~FakePeer() {
        io_.stop();
        thread_.join();
    }

    PeerAddress address() const {
        return {acceptor_.local_endpoint().address().to_string(),
                acceptor_.local_endpoint().port()};
    }
    int accepted() const { return accepted_.load(); }

  private:
    struct Conn {
        explicit Conn(asio::io_context& io) : socket(io) {}
        asio::ip::tcp::socket socket;
        std::string in;
        std::array<char, 4096> buf{};
        std::string reply;
    };

    void accept() {
        auto c = std::make_shared<Conn>(io_);
        acceptor_.async_accept(c->socket, [this, c](const asio::error_code& ec) {
            if (ec) return;
            ++accepted_;
            conns_.push_back(c);
            if (mode_ == Mode::kAcceptThenSilent) read_hello(c);
            accept();
        });
    }
    void read_hello(const std::shared_ptr<Conn>& c) {
        c->socket.async_read_some(asio::buffer(c->buf),
                                  [this, c](const asio::error_code& ec, size_t n) {
                                      if (ec) return;
                                      c->in.append(c->buf.data(), n);
                                      auto d = decode_handshake(c->in);
                                      if (!d.is_ok()) return;
                                      if (!d->has_value()) return read_hello(c);
                                      Handshake h;
                                      h.min_version = h.max_version = kMessagingVersion;
                                      h.cluster_name = cluster_;
                                      h.host_id = host_id(200);
                                      h.address = address().address;
                                      h.port = static_cast<uint16_t>(address().port);
                                      c->reply = encode_handshake(h);
                                      asio::async_write(c->socket, asio::buffer(c->reply),
                                                        [](const asio::error_code&, size_t) {});
                                  });
    }

    Mode mode_;
    std::string cluster_;
    asio::io_context io_;
    asio::ip::tcp::acceptor acceptor_;
    std::vector<std::shared_ptr<Conn>> conns_;
    std::atomic<int> accepted_{0};
    std::thread thread_;
};

}  // namespace tessel::cluster::testing
