// The SASL PLAIN exchange of PasswordAuthenticator as the request handler
// speaks it: STARTUP -> AUTHENTICATE, AUTH_RESPONSE -> AUTH_SUCCESS (null
// token) or Bad_credentials, nothing else before it succeeds.
#include <gtest/gtest.h>

#include "fake_database.h"
#include "frame_helpers.h"
#include "protocol/handshake.h"
#include "server/request_handler.h"

namespace tessel::server {
namespace {

class LoginDatabase : public testing::FakeDatabase {
  public:
    bool requires_login() const override { return true; }
    Result<std::unique_ptr<Session>> login(std::string_view user,
                                           std::string_view password) override {
        if (user == "alice" && password == "s3cret") {
            return std::unique_ptr<Session>(std::make_unique<testing::FakeSession>(*this));
        }
        return Status(ErrorCode::kBadCredentials,
                      "Provided username " + std::string(user) + " and/or password are incorrect");
    }
};

class RequestHandlerAuthTest : public ::testing::Test {
  protected:
    protocol::Response send(const protocol::Request& r) {
        std::string bytes = protocol::encode_request_frame(4, 1, r);
        protocol::Frame f;
        f.header = protocol::decode_header(bytes);
        f.body = bytes.substr(protocol::kHeaderSize);
        std::string out;
        handler.handle_frame(f, &out);
        auto frames = testing::decode_frames(out);
        EXPECT_EQ(frames.size(), 1u);
        return frames.empty() ? protocol::Response{} : frames[0].response.response;
    }
    static protocol::AuthResponseRequest credentials(std::string_view user,
                                                     std::string_view password) {
        return protocol::AuthResponseRequest{protocol::encode_sasl_plain(user, password)};
    }
    static ErrorCode code_of(const protocol::Response& r) {
        auto* e = std::get_if<protocol::ErrorResponse>(&r);
        EXPECT_NE(e, nullptr) << "not an ERROR";
        return e ? e->code : ErrorCode::kServerError;
    }

    LoginDatabase db;
    RequestHandler handler{db, 1 << 20};
};

TEST_F(RequestHandlerAuthTest, PlainSaslLogin) {
    auto r = send(testing::startup_request());
    auto* a = std::get_if<protocol::AuthenticateResponse>(&r);
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->authenticator, "org.apache.cassandra.auth.PasswordAuthenticator");

    // Nothing but OPTIONS and AUTH_RESPONSE before the login.
    EXPECT_EQ(code_of(send(testing::query_request("ROWS 1"))), ErrorCode::kUnauthorized);
    EXPECT_TRUE(
        std::holds_alternative<protocol::SupportedResponse>(send(protocol::OptionsRequest{})));

    r = send(credentials("alice", "wrong"));
    ASSERT_EQ(code_of(r), ErrorCode::kBadCredentials);
    EXPECT_EQ(std::get<protocol::ErrorResponse>(r).message,
              "Provided username alice and/or password are incorrect");
    EXPECT_EQ(code_of(send(protocol::AuthResponseRequest{std::string("no-nul")})),
              ErrorCode::kBadCredentials);

    // A failed attempt may be followed by a good one on the same connection.
    r = send(credentials("alice", "s3cret"));
    auto* ok = std::get_if<protocol::AuthSuccessResponse>(&r);
    ASSERT_NE(ok, nullptr);
    EXPECT_FALSE(ok->token.has_value());  // null, as Cassandra sends
    EXPECT_TRUE(
        std::holds_alternative<protocol::RowsResult>(send(testing::query_request("ROWS 1"))));
    EXPECT_EQ(code_of(send(credentials("alice", "s3cret"))), ErrorCode::kProtocolError);
}

TEST_F(RequestHandlerAuthTest, AuthResponseBeforeStartupIsRefused) {
    EXPECT_EQ(code_of(send(credentials("alice", "s3cret"))), ErrorCode::kProtocolError);
}

}  // namespace
}  // namespace tessel::server
