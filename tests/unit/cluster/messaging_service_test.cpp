// MessagingService over real loopback sockets: replies, handlers that
// suspend or fail, many requests on one connection, deadlines, executors.
#include <gtest/gtest.h>

#include <deque>
#include <set>

#include "messaging_test_util.h"

namespace tessel::cluster::testing {
namespace {

TEST(MessagingService, RequestGetsTheHandlersReplyAndTheSenderIsKnown) {
    TestNode a(1), b(2);
    auto r = call(*a.service, b.address(), kEcho, "hello");
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    EXPECT_EQ(*r, "hello");
    std::lock_guard lock(*b.mu);
    ASSERT_EQ(b.senders->size(), 1u);
    EXPECT_EQ(b.senders->at(0).host_id, host_id(1));
    EXPECT_EQ(b.senders->at(0).from, a.address());
    // Replies came back, so B was heard from.
    EXPECT_TRUE(a.service->last_heard(b.address()).has_value());
    EXPECT_TRUE(a.service->peer_stats(b.address()).connected);
}

TEST(MessagingService, EmptyAndMultiMegabytePayloads) {
    TestNode a(1), b(2);
    auto empty = call(*a.service, b.address(), kEcho, "");
    ASSERT_TRUE(empty.is_ok()) << empty.status().to_string();
    EXPECT_EQ(*empty, "");
    std::string big(6 << 20, '\0');
    for (size_t i = 0; i < big.size(); ++i)
        big[i] = static_cast<char>(i * 7 + (i >> 12));
    auto r = call(*a.service, b.address(), kEcho, big);
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    EXPECT_TRUE(*r == big);
}

TEST(MessagingService, TenThousandConcurrentRequestsOnOneConnectionRepliedOutOfOrder) {
    constexpr int kRequests = 10000;
    // Declared before the nodes: a failure path still completes into them.
    std::mutex mu;
    std::vector<int> order;
    std::atomic<int> wrong{0};
    std::atomic<int> done{0};
    std::condition_variable cv;
    TestNode a(1), b(2);
    const auto deadline = in(20s);
    for (int i = 0; i < kRequests; ++i) {
        // Every third request waits 1..20 ms on a timer before its reply.
        const bool delayed = i % 3 == 0;
        std::string payload = delayed ? std::to_string(1 + i % 20) : std::to_string(i);
        const std::string expect = payload;
        then(
            a.service->request(b.address(), delayed ? kSleep : kEcho, std::move(payload), deadline),
            [&, i, expect](MessagingResult r) {
                if (!r.is_ok() || *r != expect) ++wrong;
                std::lock_guard lock(mu);
                order.push_back(i);
                if (++done == kRequests) cv.notify_all();
            });
    }
    std::unique_lock lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, 20s, [&] { return done.load() == kRequests; }));
    EXPECT_EQ(wrong.load(), 0);
    EXPECT_FALSE(std::is_sorted(order.begin(), order.end()));
    EXPECT_EQ(std::set<int>(order.begin(), order.end()).size(), size_t{kRequests});
    EXPECT_EQ(a.service->peer_stats(b.address()).pending_requests, 0u);
    EXPECT_EQ(a.service->peer_stats(b.address()).queued_bytes, 0u);
}

TEST(MessagingService, HandlerThatSuspendsRepliesWhenItResumes) {
    TestNode a(1), b(2);
    const auto start = Clock::now();
    auto r = call(*a.service, b.address(), kSleep, "120");
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    EXPECT_EQ(*r, "120");
    EXPECT_GE(ms_since(start), 120);
}

TEST(MessagingService, HandlerErrorReachesTheCallerWithCodeMessageAndDetails) {
    TestNode a(1), b(2);
    auto r = call(*a.service, b.address(), kFail, "no such table");
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.kind(), MessagingError::Kind::kRemote);
    EXPECT_EQ(r.status().code(), ErrorCode::kInvalid);
    EXPECT_EQ(r.status().message(), "refused: no such table");
    EXPECT_EQ(r.status().detail1, "d1");
}

TEST(MessagingService, HandlerExceptionIsAServerErrorReply) {
    MessagingOptions o = test_options(2);
    TestNode b(o, false);
    ASSERT_TRUE(
        b.service
            ->register_handler(7,
                               [](const InboundContext&, std::string) -> Task<Result<std::string>> {
                                   throw std::runtime_error("disk on fire");
                                   co_return std::string();
                               })
            .is_ok());
    b.start();
    TestNode a(1);
    auto r = call(*a.service, b.address(), 7, "x");
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.kind(), MessagingError::Kind::kRemote);
    EXPECT_EQ(r.status().code(), ErrorCode::kServerError);
    EXPECT_NE(r.status().message().find("disk on fire"), std::string::npos);
}

TEST(MessagingService, UnknownVerbIsAnErrorReplyAndTheConnectionStays) {
    TestNode a(1), b(2);
    ASSERT_TRUE(call(*a.service, b.address(), kEcho, "x").is_ok());
    auto r = call(*a.service, b.address(), kUnknown, "x");
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.kind(), MessagingError::Kind::kRemote);
    EXPECT_EQ(r.status().code(), ErrorCode::kProtocolError);
    EXPECT_NE(r.status().message().find("no handler for verb 99"), std::string::npos);
    auto again = call(*a.service, b.address(), kEcho, "still here");
    ASSERT_TRUE(again.is_ok());
    EXPECT_EQ(*again, "still here");
}

TEST(MessagingService, RegisteringTwiceOrAfterStartIsRefused) {
    MessagingService s(test_options(1));
    auto h = [](const InboundContext&, std::string p) -> Task<Result<std::string>> { co_return p; };
    EXPECT_TRUE(s.register_handler(5, h).is_ok());
    EXPECT_FALSE(s.register_handler(5, h).is_ok());
    ASSERT_TRUE(s.start().is_ok());
    EXPECT_FALSE(s.register_handler(6, h).is_ok());
    EXPECT_FALSE(s.start().is_ok());
}

TEST(MessagingService, BadOptionsAreConfigErrors) {
    MessagingOptions o = test_options(1);
    o.host_id = "short";
    auto st = MessagingService(o).start();
    EXPECT_EQ(st.code(), ErrorCode::kConfigError);
    EXPECT_NE(st.message().find("host_id"), std::string::npos);
    o = test_options(1);
    o.listen_address = "not-an-ip";
    EXPECT_EQ(MessagingService(o).start().code(), ErrorCode::kConfigError);
    // The port is taken.
    TestNode a(1);
    o = test_options(1, a.service->port());
    EXPECT_EQ(MessagingService(o).start().code(), ErrorCode::kServerError);
}

TEST(MessagingService, OneWayMessagesRunTheHandler) {
    TestNode a(1), b(2);
    for (int i = 0; i < 3; ++i)
        a.service->send(b.address(), kEcho, "one-way " + std::to_string(i));
    a.service->send(b.address(), kUnknown, "dropped there, not an error here");
    ASSERT_TRUE(eventually([&] {
        std::lock_guard lock(*b.mu);
        return b.senders->size() == 3;
    }));
    // The connection is healthy after the unknown one-way verb.
    EXPECT_TRUE(call(*a.service, b.address(), kEcho, "x").is_ok());
}

TEST(MessagingService, RequestFailsAtItsDeadlineWhenTheHandlerNeverReplies) {
    TestNode a(1), b(2);
    ASSERT_TRUE(call(*a.service, b.address(), kEcho, "warm up").is_ok());
    const auto start = Clock::now();
    auto r = call(*a.service, b.address(), kHang, "x", 200ms);
    const long took = ms_since(start);
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.kind(), MessagingError::Kind::kTimeout);
    EXPECT_GE(took, 195);
    EXPECT_LT(took, 2000);
    EXPECT_EQ(b.hung_count(), 1u);
    // The late reply is dropped and the connection goes on.
    b.release_hung();
    EXPECT_TRUE(call(*a.service, b.address(), kEcho, "after").is_ok());
}

TEST(MessagingService, RequestFailsAtItsDeadlineWhenThePeerSaysNothing) {
    FakePeer silent(2, FakePeer::Mode::kSilent);
    TestNode a(1);
    const auto start = Clock::now();
    auto r = call(*a.service, silent.address(), kEcho, "x", 300ms);
    const long took = ms_since(start);
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.kind(), MessagingError::Kind::kTimeout) << r.status().to_string();
    EXPECT_GE(took, 295);
    EXPECT_LT(took, 2000);
    EXPECT_EQ(silent.accepted(), 1);
}

TEST(MessagingService, RequestFailsAtItsDeadlineWhenAnOpenConnectionGoesSilent) {
    FakePeer fake(2, FakePeer::Mode::kAcceptThenSilent);
    TestNode a(1);
    const auto start = Clock::now();
    auto r = call(*a.service, fake.address(), kEcho, "x", 250ms);
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.kind(), MessagingError::Kind::kTimeout) << r.status().to_string();
    EXPECT_LT(ms_since(start), 2000);
    EXPECT_TRUE(a.service->peer_stats(fake.address()).connected);
}

TEST(MessagingService, DeadlineAlreadyPassedFailsAtOnce) {
    TestNode a(1), b(2);
    auto r =
        sync_wait([&] { return a.service->request(b.address(), kEcho, "x", Clock::now() - 1ms); });
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.kind(), MessagingError::Kind::kTimeout);
}

// An executor whose posted functions run when the test pumps it, with
// itself as the current executor (as an event loop does).
class QueueExecutor final : public Executor {
  public:
    void post(std::function<void()> fn) override {
        std::lock_guard lock(mu_);
        queue_.push_back(std::move(fn));
        cv_.notify_all();
    }
    // Runs posted functions until `done` holds or `timeout` passes.
    bool pump_until(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
        const auto until = Clock::now() + timeout;
        while (!done()) {
            std::function<void()> fn;
            {
                std::unique_lock lock(mu_);
                if (!cv_.wait_until(lock, until, [&] { return !queue_.empty(); })) return done();
                fn = std::move(queue_.front());
                queue_.pop_front();
            }
            ExecutorScope scope(this);
            fn();
        }
        return true;
    }

  private:
    std::mutex mu_;
    std::condition_variable cv_;
    std::deque<std::function<void()>> queue_;
};

TEST(MessagingService, AwaitingCoroutineContinuesOnItsExecutor) {
    TestNode a(1), b(2);
    QueueExecutor executor;
    std::thread::id resumed_on;
    std::string reply;
    std::atomic<bool> finished{false};
    auto coro = [&]() -> Task<void> {
        auto r = co_await a.service->request(b.address(), kSleep, "30", in(5s));
        resumed_on = std::this_thread::get_id();
        reply = r.is_ok() ? *r : r.status().to_string();
        auto r2 = co_await a.service->request(b.address(), kEcho, "second", in(5s));
        if (std::this_thread::get_id() != resumed_on) reply = "second resumed elsewhere";
        finished = true;
    };
    {
        ExecutorScope scope(&executor);
        then(coro(), [] {});
    }
    EXPECT_FALSE(finished.load());
    ASSERT_TRUE(executor.pump_until([&] { return finished.load(); }, 5s));
    EXPECT_EQ(resumed_on, std::this_thread::get_id());
    EXPECT_EQ(reply, "30");
}

TEST(MessagingService, ConcurrentCallersOnSeveralThreads) {
    constexpr int kThreads = 4, kEach = 500;
    std::vector<Results> results(kThreads);
    MessagingOptions oa = test_options(1), ob = test_options(2);
    oa.threads = 2;
    ob.threads = 2;
    TestNode a(oa), b(ob);
    std::vector<std::thread> callers;
    for (int t = 0; t < kThreads; ++t) {
        callers.emplace_back([&, t] {
            for (int i = 0; i < kEach; ++i) {
                then(a.service->request(b.address(), kEcho, std::to_string(t * 1000 + i), in(10s)),
                     [&, t](MessagingResult r) { results[t].add(std::move(r)); });
                if (i % 50 == 0) a.service->send(b.address(), kEcho, "one-way");
            }
        });
    }
    for (auto& t : callers)
        t.join();
    for (auto& r : results) {
        ASSERT_TRUE(r.wait_for(kEach, 10s));
        EXPECT_EQ(r.count(std::nullopt), size_t{kEach});
    }
}

}  // namespace
}  // namespace tessel::cluster::testing
