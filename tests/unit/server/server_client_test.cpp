// The server and the C++ client end to end over TCP on an ephemeral port.
#include <gtest/gtest.h>

#include <asio.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "client/client.h"
#include "fake_database.h"
#include "server/server.h"

namespace tessel::server {
namespace {

class ServerClientTest : public ::testing::Test {
  protected:
    void SetUp() override {
        ServerConfig config;
        config.port = 0;
        config.smp = 2;
        config.max_frame_bytes = 1 << 20;
        server = std::make_unique<Server>(config, db);
        ASSERT_TRUE(server->start().is_ok());
        ASSERT_NE(server->port(), 0);
    }
    void TearDown() override { server->stop(); }

    std::unique_ptr<client::Client> connect(
        protocol::Compression c = protocol::Compression::kNone) {
        client::ClientOptions o;
        o.port = server->port();
        o.compression = c;
        auto r = client::Client::connect(o);
        EXPECT_TRUE(r.is_ok()) << (r.is_ok() ? "" : r.status().message());
        return r.is_ok() ? std::move(r).value() : nullptr;
    }

    testing::FakeDatabase db;
    std::unique_ptr<Server> server;
};

TEST_F(ServerClientTest, QueryPagingAndErrors) {
    auto c = connect();
    ASSERT_TRUE(c);
    auto r = c->query("ROWS 3");
    ASSERT_TRUE(r.is_ok());
    EXPECT_EQ(r->rows.size(), 3u);
    EXPECT_FALSE(r->has_more_pages());
    client::QueryParameters p;
    p.page_size = 7;
    int pages = 0;
    size_t rows = 0;
    ASSERT_TRUE(c->for_each_page("ROWS 20", p, [&](const client::QueryResult& page) {
                     ++pages;
                     rows += page.rows.size();
                     return true;
                 }).is_ok());
    EXPECT_EQ(pages, 3);
    EXPECT_EQ(rows, 20u);
    auto err = c->query("EXISTS");
    ASSERT_FALSE(err.is_ok());
    EXPECT_EQ(err.status().code(), ErrorCode::kAlreadyExists);
    EXPECT_EQ(err.status().detail2, "tbl");
    EXPECT_TRUE(c->query("VOID").is_ok());
}

// A statement waiting for other nodes does not hold its connection or its
// loop: later requests are answered first, and its own answer comes when it
// finishes, on the connection's loop.
TEST_F(ServerClientTest, WaitingStatementsAreAnsweredWhenTheyFinish) {
    auto c = connect();
    ASSERT_TRUE(c);
    std::mutex mu;
    std::condition_variable cv;
    std::vector<std::string> order;
    auto record = [&](const std::string& what) {
        return [&, what](Result<client::QueryResult> r) {
            std::lock_guard lock(mu);
            order.push_back(what + (r.is_ok() ? ":" + std::to_string(r->rows.size()) : ":error"));
            cv.notify_all();
        };
    };
    c->query_async("DEFER a", {}, record("a"));
    c->query_async("DEFER b", {}, record("b"));
    c->query_async("ROWS 1", {}, record("plain"));
    auto wait_for = [&](size_t n) {
        std::unique_lock lock(mu);
        return cv.wait_for(lock, std::chrono::seconds(5), [&] { return order.size() >= n; });
    };
    ASSERT_TRUE(wait_for(1));
    EXPECT_EQ(order[0], "plain:1");
    // Another connection (maybe on the other loop) is served meanwhile.
    auto other = connect();
    ASSERT_TRUE(other);
    EXPECT_TRUE(other->query("VOID").is_ok());
    db.finish_deferred("b", 2);
    ASSERT_TRUE(wait_for(2));
    db.finish_deferred("a", 3);
    ASSERT_TRUE(wait_for(3));
    EXPECT_EQ(order, (std::vector<std::string>{"plain:1", "b:2", "a:3"}));
    EXPECT_EQ(c->in_flight(), 0u);
}

TEST_F(ServerClientTest, AConnectionClosedWhileAStatementWaitsIsForgotten) {
    {
        auto c = connect();
        ASSERT_TRUE(c);
        c->query_async("DEFER gone", {}, [](Result<client::QueryResult>) {});
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        c->close();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    db.finish_deferred("gone", 1);  // completes on a closed connection: dropped
    auto c = connect();
    ASSERT_TRUE(c);
    EXPECT_TRUE(c->query("ROWS 2").is_ok());
}

TEST_F(ServerClientTest, PrepareExecuteAndRepreparation) {
    auto c = connect();
    ASSERT_TRUE(c);
    auto p = c->prepare("ROWS 4");
    ASSERT_TRUE(p.is_ok());
    EXPECT_EQ(p->pk_indexes, std::vector<uint16_t>{0});
    auto r = c->execute(*p);
    ASSERT_TRUE(r.is_ok());
    EXPECT_EQ(r->rows.size(), 4u);
    // The server forgot the id: execute() re-prepares and retries.
    db.prepared.clear();
    r = c->execute(*p);
    ASSERT_TRUE(r.is_ok()) << r.status().message();
    client::Prepared unknown{"no-such-id", "", {}, {}, {}};
    auto un = c->execute(unknown);
    ASSERT_FALSE(un.is_ok());
    EXPECT_EQ(un.status().code(), ErrorCode::kUnprepared);
    EXPECT_EQ(un.status().detail1, "no-such-id");
}

TEST_F(ServerClientTest, ThousandsOfPipelinedRequests) {
    auto c = connect();
    ASSERT_TRUE(c);
    constexpr int kRequests = 40000;  // more than the 32768 streams
    std::atomic<int> ok{0}, done{0};
    std::mutex mu;
    std::condition_variable cv;
    std::string first_error;  // guarded by mu
    for (int i = 0; i < kRequests; ++i) {
        c->query_async("ROWS " + std::to_string(i % 5), {}, [&, i](Result<client::QueryResult> r) {
            if (r.is_ok() && r->rows.size() == static_cast<size_t>(i % 5)) {
                ++ok;
            } else if (!r.is_ok()) {
                std::lock_guard lock(mu);
                if (first_error.empty()) first_error = r.status().to_string();
            }
            if (++done == kRequests) cv.notify_one();
        });
    }
    std::unique_lock lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(60), [&] { return done == kRequests; }));
    // A client within the protocol's 32768 streams is never Overloaded, even
    // when it reuses a stream before the server's write of its answer completes.
    EXPECT_EQ(ok.load(), kRequests) << first_error;
    EXPECT_EQ(c->in_flight(), 0u);
}

TEST_F(ServerClientTest, CompressedConnections) {
    for (auto algo : {protocol::Compression::kLz4, protocol::Compression::kSnappy}) {
        auto c = connect(algo);
        ASSERT_TRUE(c);
        auto r = c->query("ROWS 1000");
        ASSERT_TRUE(r.is_ok()) << r.status().message();
        EXPECT_EQ(r->rows.size(), 1000u);
    }
}

TEST_F(ServerClientTest, SchemaEventsReachRegisteredConnections) {
    auto listener = connect();
    auto ddl = connect();
    ASSERT_TRUE(listener && ddl);
    std::mutex mu;
    std::condition_variable cv;
    std::vector<protocol::SchemaChange> seen;
    ASSERT_TRUE(listener
                    ->register_schema_events([&](const protocol::SchemaChange& c) {
                        std::lock_guard lock(mu);
                        seen.push_back(c);
                        cv.notify_one();
                    })
                    .is_ok());
    ASSERT_TRUE(ddl->query("CREATE evt").is_ok());
    std::unique_lock lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(10), [&] { return !seen.empty(); }));
    EXPECT_EQ(seen[0].name, "evt");
    EXPECT_EQ(seen[0].keyspace, "ks");
}

TEST_F(ServerClientTest, StopClosesClients) {
    auto c = connect();
    ASSERT_TRUE(c);
    ASSERT_TRUE(c->query("VOID").is_ok());
    EXPECT_EQ(server->connection_count(), 1u);
    server->stop();
    for (int i = 0; i < 200 && c->is_connected(); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    EXPECT_FALSE(c->is_connected());
    EXPECT_FALSE(c->query("VOID").is_ok());
    c->close();
    auto start = std::chrono::steady_clock::now();
    EXPECT_FALSE(c->query("VOID").is_ok());
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

TEST_F(ServerClientTest, BadFirstFrameIsAnsweredAtOnceAndOthersKeepWorking) {
    auto healthy = connect();
    ASSERT_TRUE(healthy);
    asio::io_context io;
    asio::ip::tcp::socket s(io);
    s.connect({asio::ip::make_address("127.0.0.1"), server->port()});
    // A v5-style header claiming a large body that never comes.
    std::string frame("\x05\x00\x00\x01\x05\x00\x10\x00\x00", 9);
    asio::write(s, asio::buffer(frame));
    std::string reply(9, '\0');
    asio::read(s, asio::buffer(reply));
    EXPECT_EQ(static_cast<uint8_t>(reply[0]), 0x84);
    EXPECT_EQ(reply[4], 0x00);  // ERROR
    EXPECT_TRUE(healthy->query("VOID").is_ok());
}

TEST(ServerStartTest, BadListenAddressIsAConfigError) {
    testing::FakeDatabase db;
    ServerConfig config;
    config.listen_address = "not-an-address";
    Server server(config, db);
    Status st = server.start();
    ASSERT_FALSE(st.is_ok());
    EXPECT_EQ(st.code(), ErrorCode::kConfigError);
}

}  // namespace
}  // namespace tessel::server
