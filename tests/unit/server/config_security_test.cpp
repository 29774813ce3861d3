// Config keys for who gets in: authenticator, authorizer and
// client_encryption_options.
#include <gtest/gtest.h>

#include "server/client_socket.h"
#include "server/config.h"

namespace tessel::server {
namespace {

TEST(ConfigSecurityTest, AuthAndClientEncryption) {
    ServerConfig c;
    std::vector<std::string> ignored;
    std::string yaml = R"(authenticator: org.apache.cassandra.auth.PasswordAuthenticator
authorizer: CassandraAuthorizer
client_encryption_options:
  enabled: true
  optional: true
  keystore: /etc/tessel/server.pem
  private_key: "/etc/tessel/server.key"
  require_client_auth: true
  truststore: /etc/tessel/ca.pem
  cipher_suites: [TLS_AES_256_GCM_SHA384]
num_tokens: 16
)";
    ASSERT_TRUE(apply_config_text(yaml, &c, &ignored).is_ok());
    EXPECT_EQ(c.db.authenticator, "org.apache.cassandra.auth.PasswordAuthenticator");
    EXPECT_EQ(c.db.authorizer, "CassandraAuthorizer");
    EXPECT_TRUE(c.client_tls.enabled);
    EXPECT_EQ(c.client_tls.certificate, "/etc/tessel/server.pem");
    EXPECT_EQ(c.client_tls.private_key, "/etc/tessel/server.key");
    EXPECT_TRUE(c.client_tls.require_client_auth);
    EXPECT_TRUE(c.client_tls.optional);
    EXPECT_EQ(c.client_tls.truststore, "/etc/tessel/ca.pem");
    EXPECT_TRUE(ignored.empty());
}

TEST(ConfigSecurityTest, BadValuesAreRefused) {
    ServerConfig c;
    EXPECT_FALSE(apply_config_text("authenticator: LdapAuthenticator\n", &c, nullptr).is_ok());
    EXPECT_FALSE(apply_config_text("authorizer: Nope\n", &c, nullptr).is_ok());
    Status st = apply_config_text("client_encryption_options:\n  enabled: perhaps\n", &c, nullptr);
    ASSERT_FALSE(st.is_ok());
    EXPECT_NE(st.message().find("line 2"), std::string::npos);
}

TEST(ConfigSecurityTest, TlsContextNamesTheUnusableFile) {
    ClientTlsOptions tls;
    tls.enabled = true;
    EXPECT_FALSE(make_tls_context(tls).is_ok());  // no certificate
    tls.certificate = "/nonexistent/server.pem";
    auto ctx = make_tls_context(tls);
    ASSERT_FALSE(ctx.is_ok());
    EXPECT_EQ(ctx.status().code(), ErrorCode::kConfigError);
    EXPECT_NE(ctx.status().message().find("/nonexistent/server.pem"), std::string::npos);
}

}  // namespace
}  // namespace tessel::server
