// MessagingService when things go wrong: peers that are gone, stop, pause
// or misbehave, handshakes that must be refused, bounded queues, and the
// heartbeat failure detector.
#include <gtest/gtest.h>

#include "messaging_test_util.h"

namespace tessel::cluster::testing {
namespace {

// A plain TCP client from 127.0.0.`from`, for writing raw bytes at a service.
class RawClient {
  public:
    RawClient(const PeerAddress& to, int from = 9) : socket_(io_) {
        socket_.open(asio::ip::tcp::v4());
        socket_.bind({asio::ip::make_address("127.0.0." + std::to_string(from)), 0});
        socket_.connect({asio::ip::make_address(to.address), static_cast<uint16_t>(to.port)});
    }
    void write(const std::string& bytes) {
        asio::error_code ec;
        asio::write(socket_, asio::buffer(bytes), ec);
    }
    // Reads for up to `timeout`, or until the service closes the connection.
    std::string read_for(std::chrono::milliseconds timeout) {
        std::string out;
        std::array<char, 4096> buf;
        std::function<void()> next = [&] {
            socket_.async_read_some(asio::buffer(buf), [&](const asio::error_code& ec, size_t n) {
                out.append(buf.data(), n);
                if (ec) {
                    closed_ = true;
                    return;
                }
                next();
            });
        };
        next();
        io_.restart();
        io_.run_for(timeout);
        if (!io_.stopped()) {
            socket_.cancel();
            io_.run();
        }
        return out;
    }
    bool closed() const { return closed_; }

  private:
    asio::io_context io_;
    asio::ip::tcp::socket socket_;
    bool closed_ = false;
};

Handshake hello_from(int n, const std::string& cluster = "messaging-test") {
    Handshake h;
    h.cluster_name = cluster;
    h.host_id = host_id(n);
    h.address = "127.0.0." + std::to_string(n);
    h.port = 7000;
    return h;
}

int free_port(int n) {
    asio::io_context io;
    asio::ip::tcp::acceptor a(io, {asio::ip::make_address("127.0.0." + std::to_string(n)), 0});
    return a.local_endpoint().port();
}

TEST(MessagingFailure, NothingListeningIsUnreachableAtOnce) {
    TestNode a(1);
    const PeerAddress nobody{"127.0.0.2", free_port(2)};
    auto start = Clock::now();
    auto r = call(*a.service, nobody, kEcho, "x");
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.kind(), MessagingError::Kind::kUnreachable);
    EXPECT_EQ(r.status().code(), ErrorCode::kUnavailable);
    EXPECT_NE(r.status().message().find("cannot connect"), std::string::npos)
        << r.status().message();
    EXPECT_LT(ms_since(start), 2500);  // not the 5 s deadline
    // While the connection backs off, requests fail without waiting.
    start = Clock::now();
    r = call(*a.service, nobody, kEcho, "x");
    EXPECT_EQ(r.kind(), MessagingError::Kind::kUnreachable);
    EXPECT_LT(ms_since(start), 2500);
    EXPECT_FALSE(a.service->last_heard(nobody).has_value());
}

TEST(MessagingFailure, PeerStoppedMidFlightFailsPendingRequestsAndComesBackOnRestart) {
    Results results;
    TestNode a(1);
    auto b = std::make_unique<TestNode>(2);
    const PeerAddress b_address = b->address();
    for (int i = 0; i < 5; ++i) {
        then(a.service->request(b_address, kHang, "x", in(10s)),
             [&](MessagingResult r) { results.add(std::move(r)); });
    }
    ASSERT_TRUE(eventually([&] { return b->hung_count() == 5; }));
    const auto stopped = Clock::now();
    b->service->stop();  // the handlers are still suspended
    ASSERT_TRUE(results.wait_for(5, 5s));
    EXPECT_LT(ms_since(stopped), 1500);  // not their 10 s deadlines
    EXPECT_EQ(results.count(MessagingError::Kind::kUnreachable), 5u);
    b->release_hung();  // replies of a stopped service go nowhere
    b.reset();

    b = std::make_unique<TestNode>(2, b_address.port);
    EXPECT_TRUE(
        eventually([&] { return call(*a.service, b_address, kEcho, "back").is_ok(); }, 10s));
}

TEST(MessagingFailure, StoppingTheRequesterFailsItsRequestsAndDestroyingTheResponderIsSafe) {
    Results results;
    auto a = std::make_unique<TestNode>(1);
    TestNode b(2);
    for (int i = 0; i < 100; ++i) {
        then(a->service->request(b.address(), kHang, "x", in(10s)),
             [&](MessagingResult r) { results.add(std::move(r)); });
    }
    ASSERT_TRUE(eventually([&] { return b.hung_count() == 100; }));
    a->service.reset();
    ASSERT_EQ(results.size(), 100u);
    EXPECT_EQ(results.count(MessagingError::Kind::kUnreachable), 100u);
    for (auto& r : results.take())
        EXPECT_NE(r.status().message().find("stopped"), std::string::npos);
    // The responder goes away with its handlers suspended, which finish later.
    b.service.reset();
    b.release_hung();
}

TEST(MessagingFailure, QueueForAPeerThatStopsReadingIsBounded) {
    Results results;
    FakePeer fake(2, FakePeer::Mode::kAcceptThenSilent);
    MessagingOptions o = test_options(1);
    o.max_pending_bytes_per_peer = 2 << 20;
    TestNode a(o);
    const std::string payload(256 << 10, 'p');
    size_t queued = 0;
    // Sends until a request is refused at once, and returns that one.
    auto fill = [&]() -> std::optional<MessagingResult> {
        for (int i = 0; i < 400; ++i) {
            auto t = a.service->request(fake.address(), kEcho, payload, in(2s));
            if (t.ready()) return t.take();
            ++queued;
            then(std::move(t), [&](MessagingResult r) { results.add(std::move(r)); });
        }
        return std::nullopt;
    };
    ASSERT_TRUE(fill().has_value()) << "never overloaded after " << queued << " requests";
    // Writes in progress end in the kernel's buffers, which the peer never
    // empties; fill what they freed, and from then on next to nothing drains.
    std::this_thread::sleep_for(200ms);
    auto refused = fill();
    ASSERT_TRUE(refused.has_value());
    EXPECT_EQ(refused->kind(), MessagingError::Kind::kOverloaded);
    EXPECT_EQ(refused->status().code(), ErrorCode::kOverloaded);
    EXPECT_NE(refused->status().message().find("max_pending_bytes_per_peer"), std::string::npos);
    EXPECT_LE(a.service->peer_stats(fake.address()).queued_bytes, o.max_pending_bytes_per_peer);
    int overloaded = 0;
    for (int i = 0; i < 10; ++i) {
        auto t = a.service->request(fake.address(), kEcho, payload, in(2s));
        if (t.ready()) {
            overloaded += t.take().kind() == MessagingError::Kind::kOverloaded;
        } else {
            ++queued;
            then(std::move(t), [&](MessagingResult r) { results.add(std::move(r)); });
        }
    }
    // (The kernel may still take a little as TCP grows the socket's buffer.)
    EXPECT_GE(overloaded, 8);
    a.service->send(fake.address(), kEcho, payload);
    EXPECT_GE(a.service->peer_stats(fake.address()).dropped_one_way, 1u);
    EXPECT_LE(a.service->peer_stats(fake.address()).queued_bytes, o.max_pending_bytes_per_peer);

    // Requests that expire while queued leave the queue: room again.
    ASSERT_TRUE(results.wait_for(queued, 5s));
    EXPECT_EQ(results.count(MessagingError::Kind::kTimeout), queued);
    EXPECT_LT(a.service->peer_stats(fake.address()).queued_bytes, o.max_pending_bytes_per_peer);
    auto t = a.service->request(fake.address(), kEcho, "small", in(100ms));
    EXPECT_FALSE(t.ready());
    then(std::move(t), [&](MessagingResult r) { results.add(std::move(r)); });
    EXPECT_TRUE(results.wait_for(queued + 1, 2s));
}

TEST(MessagingFailure, RequestOverTheFrameBoundIsRefusedLocally) {
    MessagingOptions o = test_options(1);
    o.max_frame_bytes = 1 << 20;
    TestNode a(o), b(2);
    auto r = call(*a.service, b.address(), kEcho, std::string((1 << 20) + 1, 'x'));
    EXPECT_EQ(r.kind(), MessagingError::Kind::kOverloaded);
    EXPECT_NE(r.status().message().find("max_frame_bytes"), std::string::npos);
}

TEST(MessagingFailure, PeerFilterRefusesASender) {
    struct Seen {
        std::mutex mu;
        std::vector<std::pair<std::string, std::string>> calls;
    };
    auto seen = std::make_shared<Seen>();
    TestNode b(test_options(2), false);
    b.service->set_peer_filter([seen](const std::string& address, const std::string& id) {
        std::lock_guard lock(seen->mu);
        seen->calls.emplace_back(address, id);
        return address != "127.0.0.1";
    });
    b.start();
    TestNode a(1), c(3);
    auto r = call(*a.service, b.address(), kEcho, "x");
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.kind(), MessagingError::Kind::kUnreachable);
    EXPECT_NE(r.status().message().find("peer filter"), std::string::npos) << r.status().message();
    EXPECT_TRUE(call(*c.service, b.address(), kEcho, "x").is_ok());
    std::lock_guard lock(seen->mu);
    ASSERT_GE(seen->calls.size(), 2u);
    EXPECT_EQ(seen->calls[0], std::make_pair(std::string("127.0.0.1"), host_id(1)));
}

TEST(MessagingFailure, WrongClusterNameIsRefused) {
    MessagingOptions o = test_options(1);
    o.cluster_name = "another cluster";
    TestNode a(o), b(2);
    auto r = call(*a.service, b.address(), kEcho, "x");
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.kind(), MessagingError::Kind::kUnreachable);
    EXPECT_NE(r.status().message().find("cluster name"), std::string::npos) << r.status().message();
}

TEST(MessagingFailure, UnknownVersionIsRefusedWithTheVersionsSpoken) {
    TestNode b(2);
    RawClient raw(b.address(), 9);
    Handshake h = hello_from(9);
    h.min_version = h.max_version = 99;
    raw.write(encode_handshake(h));
    const std::string answer = raw.read_for(2s);
    EXPECT_TRUE(raw.closed());
    auto reply = decode_handshake(answer);
    ASSERT_TRUE(reply.is_ok() && reply->has_value()) << answer.size();
    EXPECT_TRUE((*reply)->handshake.refused);
    EXPECT_NE((*reply)->handshake.reason.find("versions 99..99"), std::string::npos)
        << (*reply)->handshake.reason;
}

TEST(MessagingFailure, ClaimedAddressMustBeTheSourceAddress) {
    TestNode b(2);
    RawClient raw(b.address(), 9);
    raw.write(encode_handshake(hello_from(4)));  // claims 127.0.0.4, connects from .9
    auto reply = decode_handshake(raw.read_for(2s));
    ASSERT_TRUE(reply.is_ok() && reply->has_value());
    EXPECT_TRUE((*reply)->handshake.refused);
    EXPECT_TRUE(raw.closed());
}

TEST(MessagingFailure, GarbageAndMalformedFramesCloseThatConnectionOnly) {
    MessagingOptions ob = test_options(2);
    ob.max_frame_bytes = 1 << 20;
    TestNode a(1), b(ob);
    ASSERT_TRUE(call(*a.service, b.address(), kEcho, "x").is_ok());
    {
        RawClient raw(b.address(), 9);
        raw.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        EXPECT_EQ(raw.read_for(2s), "");
        EXPECT_TRUE(raw.closed());
    }
    auto open_raw = [&] {
        auto raw = std::make_unique<RawClient>(b.address(), 9);
        raw->write(encode_handshake(hello_from(9)));
        auto reply = decode_handshake(raw->read_for(1s));
        EXPECT_TRUE(reply.is_ok() && reply->has_value() && !(*reply)->handshake.refused);
        return raw;
    };
    {
        auto raw = open_raw();
        std::string frame = encode_frame(FrameHeader{kEcho, FrameKind::kRequest, 1, 0}, "");
        frame[2] = 9;  // no such kind
        raw->write(frame);
        raw->read_for(2s);
        EXPECT_TRUE(raw->closed());
    }
    {
        // A frame header over the bound: refused from the header, before any body.
        auto raw = open_raw();
        raw->write(encode_frame(FrameHeader{kEcho, FrameKind::kRequest, 1, 200u << 20}, ""));
        raw->read_for(2s);
        EXPECT_TRUE(raw->closed());
    }
    {
        // A well-formed request on a raw connection is served.
        auto raw = open_raw();
        raw->write(encode_frame(FrameHeader{kEcho, FrameKind::kRequest, 42, 2}, "hi"));
        const std::string bytes = raw->read_for(1s);
        auto reply = decode_frame(bytes, 1 << 20);
        ASSERT_TRUE(reply.is_ok() && reply->has_value());
        EXPECT_EQ((*reply)->header.kind, FrameKind::kResponse);
        EXPECT_EQ((*reply)->header.id, 42u);
        EXPECT_EQ((*reply)->payload, "hi");
    }
    auto r = call(*a.service, b.address(), kEcho, "still serving");
    ASSERT_TRUE(r.is_ok());
    EXPECT_EQ(*r, "still serving");
}

// Records on_peer_state calls.
struct StateLog {
    std::mutex mu;
    std::vector<std::pair<PeerAddress, bool>> events;
    PeerStateListener listener() {
        return [this](const PeerAddress& p, bool up) {
            std::lock_guard lock(mu);
            events.emplace_back(p, up);
        };
    }
    size_t count(const PeerAddress& p, bool up) {
        std::lock_guard lock(mu);
        size_t n = 0;
        for (auto& [peer, u] : events)
            n += peer == p && u == up;
        return n;
    }
};

TEST(MessagingFailure, HeartbeatsReportAStoppedPeerAndItsReturn) {
    StateLog log;
    // A failure timeout long enough that a loaded machine delaying a few
    // heartbeats does not report the live peer down.
    auto options = test_options(1);
    options.failure_timeout_ms = 1000;
    TestNode a(options, false);
    a.service->set_peer_state_listener(log.listener());
    a.start();
    auto b = std::make_unique<TestNode>(2);
    const PeerAddress b_address = b->address();
    ASSERT_TRUE(call(*a.service, b_address, kEcho, "x").is_ok());
    EXPECT_EQ(log.count(b_address, true), 1u);
    const auto heard = a.service->last_heard(b_address);
    ASSERT_TRUE(heard.has_value());
    std::this_thread::sleep_for(150ms);
    EXPECT_GT(*a.service->last_heard(b_address), *heard);  // pongs keep arriving
    EXPECT_EQ(log.count(b_address, false), 0u);

    const auto stopped = Clock::now();
    b.reset();
    ASSERT_TRUE(eventually([&] { return log.count(b_address, false) == 1; }, 10s));
    const long took = ms_since(stopped);
    EXPECT_GE(took, 1000 - 60);  // failure_timeout, less the last heartbeat before the stop
    EXPECT_LT(took, 5000);

    b = std::make_unique<TestNode>(2, b_address.port);
    ASSERT_TRUE(eventually([&] { return log.count(b_address, true) == 2; }, 10s));
    EXPECT_EQ(log.count(b_address, false), 1u);
}

TEST(MessagingFailure, HeartbeatsReportAnOpenConnectionThatStopsAnswering) {
    StateLog log;
    FakePeer fake(2, FakePeer::Mode::kAcceptThenSilent);
    TestNode a(test_options(1), false);
    a.service->set_peer_state_listener(log.listener());
    a.start();
    auto r = call(*a.service, fake.address(), kEcho, "x", 100ms);
    EXPECT_EQ(r.kind(), MessagingError::Kind::kTimeout);
    EXPECT_EQ(log.count(fake.address(), true), 1u);  // the handshake was answered
    ASSERT_TRUE(eventually([&] { return log.count(fake.address(), false) == 1; }, 10s));
    EXPECT_TRUE(a.service->peer_stats(fake.address()).connected);
}

TEST(MessagingFailure, APeerNeverReachedIsReportedAfterTheFailureTimeout) {
    StateLog log;
    auto options = test_options(1);
    options.failure_timeout_ms = 1000;
    TestNode a(options, false);
    a.service->set_peer_state_listener(log.listener());
    a.start();
    const PeerAddress nobody{"127.0.0.2", free_port(2)};
    EXPECT_FALSE(call(*a.service, nobody, kEcho, "x").is_ok());
    EXPECT_EQ(log.count(nobody, false), 0u);
    ASSERT_TRUE(eventually([&] { return log.count(nobody, false) == 1; }, 10s));
    EXPECT_EQ(log.count(nobody, true), 0u);
}

TEST(MessagingFailure, DisconnectClosesAndTheNextRequestReconnects) {
    TestNode a(1), b(2);
    ASSERT_TRUE(call(*a.service, b.address(), kEcho, "x").is_ok());
    a.service->disconnect(b.address());
    EXPECT_FALSE(a.service->peer_stats(b.address()).connected);
    EXPECT_TRUE(call(*a.service, b.address(), kEcho, "y").is_ok());
}

}  // namespace
}  // namespace tessel::cluster::testing
