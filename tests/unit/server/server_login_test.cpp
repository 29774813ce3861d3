// Logins against a running Server: the password check (a slow KDF in the
// real database) runs on the server's login pool, so a login in progress
// holds up neither the other connections of its event loop nor the order of
// its own connection's frames.
#include <gtest/gtest.h>

#include <poll.h>
#include <asio.hpp>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "client/client.h"
#include "fake_database.h"
#include "frame_helpers.h"
#include "protocol/handshake.h"
#include "server/server.h"

namespace tessel::server {
namespace {

using namespace std::chrono_literals;

// Password "secret" for everyone; the login of user "slow" waits until the
// test opens the gate (at most 10 s, so a stuck loop fails instead of hanging).
class GatedLoginDatabase : public testing::FakeDatabase {
  public:
    bool requires_login() const override { return true; }
    Result<std::unique_ptr<Session>> login(std::string_view user,
                                           std::string_view password) override {
        if (user == "slow") {
            std::unique_lock lock(mu);
            ++slow_logins_waiting;
            cv.notify_all();
            cv.wait_for(lock, 10s, [&] { return gate_open; });
        }
        if (password != "secret") {
            return Status(ErrorCode::kBadCredentials, "Provided username " + std::string(user) +
                                                          " and/or password are incorrect");
        }
        return std::unique_ptr<Session>(std::make_unique<testing::FakeSession>(*this));
    }

    bool wait_for_slow_login() {
        std::unique_lock lock(mu);
        return cv.wait_for(lock, 10s, [&] { return slow_logins_waiting > 0; });
    }
    void open_gate() {
        std::lock_guard lock(mu);
        gate_open = true;
        cv.notify_all();
    }
    bool is_gate_open() {
        std::lock_guard lock(mu);
        return gate_open;
    }

    std::mutex mu;
    std::condition_variable cv;
    int slow_logins_waiting = 0;
    bool gate_open = false;
};

class ServerLoginTest : public ::testing::Test {
  protected:
    void SetUp() override {
        ServerConfig config;
        config.port = 0;
        config.smp = 1;  // every connection on the same loop
        server = std::make_unique<Server>(config, db);
        ASSERT_TRUE(server->start().is_ok());
    }
    void TearDown() override {
        db.open_gate();
        server->stop();
    }

    Result<std::unique_ptr<client::Client>> connect(std::string user, std::string password) {
        client::ClientOptions o;
        o.port = server->port();
        o.username = std::move(user);
        o.password = std::move(password);
        o.request_timeout_ms = 20000;
        return client::Client::connect(o);
    }

    GatedLoginDatabase db;
    std::unique_ptr<Server> server;
};

TEST_F(ServerLoginTest, OtherConnectionsOfTheLoopAreServedDuringALogin) {
    auto fast = connect("fast", "secret");
    ASSERT_TRUE(fast.is_ok()) << fast.status().message();

    Result<std::unique_ptr<client::Client>> slow = Status::server("not connected");
    std::thread slow_client([&] { slow = connect("slow", "secret"); });
    ASSERT_TRUE(db.wait_for_slow_login());

    // The slow login still holds its check; the loop answers the other client.
    auto r = (*fast)->query("ROWS 3");
    const bool answered_during_login = !db.is_gate_open();
    ASSERT_TRUE(r.is_ok()) << r.status().message();
    EXPECT_EQ(r->rows.size(), 3u);
    EXPECT_TRUE(answered_during_login);
    auto wrong = connect("fast", "guess");
    ASSERT_FALSE(wrong.is_ok());
    EXPECT_EQ(wrong.status().code(), ErrorCode::kBadCredentials);

    db.open_gate();
    slow_client.join();
    ASSERT_TRUE(slow.is_ok()) << slow.status().message();
    auto s = (*slow)->query("ROWS 2");
    ASSERT_TRUE(s.is_ok());
    EXPECT_EQ(s->rows.size(), 2u);
}

TEST_F(ServerLoginTest, FramesSentBehindALoginAreAnsweredAfterItInOrder) {
    asio::io_context io;
    asio::ip::tcp::socket socket(io);
    socket.connect({asio::ip::make_address("127.0.0.1"), server->port()});
    // STARTUP, the login and two queries in one write, as a pipelining client
    // would send them: the queries must see the logged-in session.
    std::string bytes = protocol::encode_request_frame(4, 1, testing::startup_request());
    bytes += protocol::encode_request_frame(
        4, 2, protocol::AuthResponseRequest{protocol::encode_sasl_plain("slow", "secret")});
    bytes += protocol::encode_request_frame(4, 3, testing::query_request("ROWS 1"));
    bytes += protocol::encode_request_frame(4, 4, testing::query_request("ROWS 2"));
    asio::write(socket, asio::buffer(bytes));
    ASSERT_TRUE(db.wait_for_slow_login());
    std::this_thread::sleep_for(50ms);  // room for a wrong early answer to be written
    db.open_gate();

    std::vector<testing::DecodedFrame> frames;
    std::string received;
    std::array<char, 4096> chunk;
    while (frames.size() < 4) {
        // A reply that never comes fails the test instead of hanging it.
        pollfd readable{socket.native_handle(), POLLIN, 0};
        ASSERT_EQ(::poll(&readable, 1, 10000), 1) << "no reply within 10 s";
        asio::error_code ec;
        size_t n = socket.read_some(asio::buffer(chunk), ec);
        ASSERT_FALSE(ec) << ec.message();
        received.append(chunk.data(), n);
        frames.clear();
        protocol::FrameParser parser;
        parser.append(received);
        size_t complete = 0;
        for (auto next = parser.next(); next.is_ok() && next->has_value(); next = parser.next()) {
            ++complete;
        }
        if (complete == 4) frames = testing::decode_frames(received);
    }
    ASSERT_EQ(frames.size(), 4u);
    EXPECT_EQ(frames[0].header.stream, 1);
    EXPECT_TRUE(
        std::holds_alternative<protocol::AuthenticateResponse>(frames[0].response.response));
    EXPECT_EQ(frames[1].header.stream, 2);
    EXPECT_TRUE(std::holds_alternative<protocol::AuthSuccessResponse>(frames[1].response.response));
    for (int i = 2; i < 4; ++i) {
        EXPECT_EQ(frames[i].header.stream, i + 1);
        auto* rows = std::get_if<protocol::RowsResult>(&frames[i].response.response);
        ASSERT_NE(rows, nullptr) << "stream " << i + 1 << " was not answered with rows";
        EXPECT_EQ(rows->rows.size(), static_cast<size_t>(i - 1));
    }
}

}  // namespace
}  // namespace tessel::server
