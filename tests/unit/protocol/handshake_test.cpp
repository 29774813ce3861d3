#include "protocol/handshake.h"

#include <gtest/gtest.h>

#include <string>

namespace tessel::protocol {
namespace {

using namespace std::string_literals;

TEST(HandshakeTest, SupportedOptionsAlwaysHaveTheKeysDriversRead) {
    const StringMultimap none = supported_options({});
    ASSERT_EQ(none.count("CQL_VERSION"), 1u);
    ASSERT_EQ(none.count("COMPRESSION"), 1u);
    EXPECT_EQ(none.at("CQL_VERSION"), std::vector<std::string>{"3.4.4"});
    EXPECT_TRUE(none.at("COMPRESSION").empty());
    EXPECT_EQ(none.at("PROTOCOL_VERSIONS"), (std::vector<std::string>{"3/v3", "4/v4"}));
    const StringMultimap both = supported_options({Compression::kLz4, Compression::kSnappy});
    EXPECT_EQ(both.at("COMPRESSION"), (std::vector<std::string>{"lz4", "snappy"}));
}

TEST(HandshakeTest, StartupAcceptsCql3AndIgnoresUnknownKeys) {
    for (const char* v : {"3.0.0", "3.4.4", "3.4.5", "3.4"}) {
        StartupRequest s{{{"CQL_VERSION", v}, {"DRIVER_NAME", "x"}, {"NO_COMPACT", "true"}}};
        auto c = check_startup(s, {});
        ASSERT_TRUE(c.is_ok()) << v;
        EXPECT_EQ(*c, Compression::kNone);
    }
}

TEST(HandshakeTest, StartupErrors) {
    auto missing = check_startup(StartupRequest{{{"DRIVER_NAME", "x"}}}, {});
    ASSERT_FALSE(missing.is_ok());
    EXPECT_EQ(missing.status().code(), ErrorCode::kProtocolError);
    EXPECT_EQ(missing.status().message(), "Missing value CQL_VERSION in STARTUP message");
    auto old = check_startup(StartupRequest{{{"CQL_VERSION", "2.0.0"}}}, {});
    ASSERT_FALSE(old.is_ok());
    EXPECT_EQ(old.status().message(),
              "CQL version 2.0.0 is not supported by the binary protocol (supported version are "
              ">= 3.0.0)");
    auto junk = check_startup(StartupRequest{{{"CQL_VERSION", "three"}}}, {});
    ASSERT_FALSE(junk.is_ok());
    EXPECT_EQ(junk.status().message(), "Invalid version value: three");
}

TEST(HandshakeTest, StartupCompressionMustBeAdvertised) {
    StartupRequest s{{{"CQL_VERSION", "3.4.4"}, {"COMPRESSION", "LZ4"}}};
    auto off = check_startup(s, {});
    ASSERT_FALSE(off.is_ok());
    EXPECT_EQ(off.status().message(), "Unknown compression algorithm: lz4");
    auto on = check_startup(s, {Compression::kLz4});
    ASSERT_TRUE(on.is_ok());
    EXPECT_EQ(*on, Compression::kLz4);
    s.options["COMPRESSION"] = "zstd";
    EXPECT_FALSE(check_startup(s, {Compression::kLz4, Compression::kSnappy}).is_ok());
}

TEST(HandshakeTest, SaslPlain) {
    const std::string token = encode_sasl_plain("cassandra", "secret");
    EXPECT_EQ(token, "\0cassandra\0secret"s);
    auto creds = parse_sasl_plain(token);
    ASSERT_TRUE(creds.is_ok());
    EXPECT_EQ(creds->username, "cassandra");
    EXPECT_EQ(creds->password, "secret");
    auto with_authzid = parse_sasl_plain("admin\0bob\0pw"s);
    ASSERT_TRUE(with_authzid.is_ok());
    EXPECT_EQ(with_authzid->username, "bob");

    auto no_pass = parse_sasl_plain("\0bob\0"s);
    ASSERT_FALSE(no_pass.is_ok());
    EXPECT_EQ(no_pass.status().code(), ErrorCode::kBadCredentials);
    EXPECT_EQ(no_pass.status().message(), "Password must not be null");
    auto no_user = parse_sasl_plain("\0\0pw"s);
    ASSERT_FALSE(no_user.is_ok());
    EXPECT_EQ(no_user.status().message(), "Authentication ID must not be null");
    EXPECT_FALSE(parse_sasl_plain("").is_ok());
    EXPECT_FALSE(parse_sasl_plain("nonul").is_ok());
    EXPECT_FALSE(parse_sasl_plain("a\0b\0c\0d"s).is_ok());
}

}  // namespace
}  // namespace tessel::protocol
