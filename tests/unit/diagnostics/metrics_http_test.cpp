#include "diagnostics/metrics_http.h"

#include <gtest/gtest.h>

#include <asio.hpp>
#include <string>

namespace tessel::diagnostics {
namespace {

// Sends `request` to 127.0.0.1:port and returns everything until the server
// closes the connection.
std::string roundtrip(int port, const std::string& request) {
    asio::io_context io;
    asio::ip::tcp::socket socket(io);
    asio::error_code ec;
    socket.connect({asio::ip::make_address("127.0.0.1"), static_cast<uint16_t>(port)}, ec);
    if (ec) return "connect failed: " + ec.message();
    asio::write(socket, asio::buffer(request), ec);
    std::string response;
    char buf[4096];
    for (;;) {
        size_t n = socket.read_some(asio::buffer(buf), ec);
        response.append(buf, n);
        if (ec) break;
    }
    return response;
}

TEST(MetricsHttp, ServesMetricsAnd404) {
    MetricsRegistry reg;
    reg.counter("tessel_requests_total", "Requests.", {{"type", "query"}}).inc(7);
    MetricsHttpServer server(reg);
    ASSERT_TRUE(server.start({"127.0.0.1", 0}).is_ok());
    ASSERT_GT(server.port(), 0);

    std::string ok =
        roundtrip(server.port(), "GET /metrics HTTP/1.1\r\nHost: localhost\r\nAccept: */*\r\n\r\n");
    std::string body = reg.exposition();
    EXPECT_EQ(ok.substr(0, ok.find("\r\n")), "HTTP/1.1 200 OK");
    EXPECT_NE(ok.find("Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n"),
              std::string::npos);
    EXPECT_NE(ok.find("Content-Length: " + std::to_string(body.size()) + "\r\n"),
              std::string::npos);
    EXPECT_EQ(ok.substr(ok.find("\r\n\r\n") + 4), body);
    EXPECT_NE(body.find("tessel_requests_total{type=\"query\"} 7\n"), std::string::npos);

    std::string with_query = roundtrip(server.port(), "GET /metrics?x=1 HTTP/1.0\r\n\r\n");
    EXPECT_EQ(with_query.substr(0, with_query.find("\r\n")), "HTTP/1.1 200 OK");

    std::string missing = roundtrip(server.port(), "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(missing.substr(0, missing.find("\r\n")), "HTTP/1.1 404 Not Found");

    std::string post = roundtrip(server.port(), "POST /metrics HTTP/1.1\r\n\r\n");
    EXPECT_EQ(post.substr(0, post.find("\r\n")), "HTTP/1.1 405 Method Not Allowed");

    std::string head = roundtrip(server.port(), "HEAD /metrics HTTP/1.1\r\n\r\n");
    EXPECT_EQ(head.substr(head.find("\r\n\r\n") + 4), "");

    // Values change between scrapes.
    reg.counter("tessel_requests_total", "Requests.", {{"type", "query"}}).inc();
    std::string again = roundtrip(server.port(), "GET /metrics HTTP/1.1\r\n\r\n");
    EXPECT_NE(again.find("tessel_requests_total{type=\"query\"} 8\n"), std::string::npos);

    server.stop();
    server.stop();  // idempotent
}

TEST(MetricsHttp, OversizedRequestIsDropped) {
    MetricsRegistry reg;
    MetricsHttpServer server(reg);
    ASSERT_TRUE(server.start({"127.0.0.1", 0}).is_ok());
    std::string huge = "GET /metrics HTTP/1.1\r\nX: " + std::string(20000, 'a') + "\r\n\r\n";
    std::string r = roundtrip(server.port(), huge);
    EXPECT_EQ(r.find("HTTP/1.1 200"), std::string::npos);
    // The server still answers others.
    std::string ok = roundtrip(server.port(), "GET /metrics HTTP/1.1\r\n\r\n");
    EXPECT_EQ(ok.substr(0, ok.find("\r\n")), "HTTP/1.1 200 OK");
}

TEST(MetricsHttp, StartErrors) {
    MetricsRegistry reg;
    MetricsHttpServer bad(reg);
    Status s = bad.start({"not-an-address", 0});
    ASSERT_FALSE(s.is_ok());
    EXPECT_EQ(s.code(), ErrorCode::kConfigError);

    MetricsHttpServer first(reg);
    ASSERT_TRUE(first.start({"127.0.0.1", 0}).is_ok());
    MetricsHttpServer second(reg);
    Status busy = second.start({"127.0.0.1", first.port()});
    ASSERT_FALSE(busy.is_ok());
    EXPECT_EQ(busy.code(), ErrorCode::kServerError);
    EXPECT_NE(busy.message().find("127.0.0.1:" + std::to_string(first.port())), std::string::npos);
    EXPECT_EQ(first.start({"127.0.0.1", 0}).code(), ErrorCode::kInvalid);
}

}  // namespace
}  // namespace tessel::diagnostics
