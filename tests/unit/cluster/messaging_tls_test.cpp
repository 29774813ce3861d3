// Internode TLS with certificates made here by the openssl command line: a
// CA and a node certificate (for 127.0.0.1-3, server and client use), and a
// second CA with a certificate of its own that nobody should trust.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "messaging_test_util.h"

namespace tessel::cluster::testing {
namespace {

namespace fs = std::filesystem;

class MessagingTls : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = fs::temp_directory_path() / ("tessel-messaging-tls-" + std::to_string(::getpid()));
        fs::create_directories(dir_);
        const std::string d = dir_.string();
        const std::string script =
            "set -e; cd '" + d +
            "'; "
            "for ca in ca rogue_ca; do "
            "  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj \"/CN=$ca\" "
            "    -keyout $ca.key -out $ca.pem; "
            "done; "
            "printf 'subjectAltName=IP:127.0.0.1,IP:127.0.0.2,IP:127.0.0.3\\n"
            "extendedKeyUsage=serverAuth,clientAuth\\n' > node.ext; "
            "for who in node:ca rogue:rogue_ca; do "
            "  name=${who%%:*}; ca=${who##*:}; "
            "  openssl req -newkey rsa:2048 -nodes -subj \"/CN=$name\" -keyout $name.key "
            "    -out $name.csr; "
            "  openssl x509 -req -in $name.csr -CA $ca.pem -CAkey $ca.key -CAcreateserial "
            "    -days 2 -extfile node.ext -out $name.pem; "
            "done";
        const std::string command =
            "bash -c \"" + escape(script) + "\" > '" + d + "/openssl.log' 2>&1";
        ok_ = std::system(command.c_str()) == 0;
    }
    static void TearDownTestSuite() {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    void SetUp() override { ASSERT_TRUE(ok_) << "openssl failed, see " << dir_ / "openssl.log"; }

    static std::string escape(const std::string& s) {
        std::string out;
        for (char c : s) {
            if (c == '"' || c == '\\' || c == '$') out += '\\';
            out += c;
        }
        return out;
    }
    static std::string file(const std::string& name) { return (dir_ / name).string(); }

    // Node n with TLS: its certificate `cert` (node or rogue), trusting `ca`.
    static MessagingOptions tls_options(int n, const std::string& cert = "node",
                                        const std::string& ca = "ca", bool client_auth = true) {
        MessagingOptions o = test_options(n);
        o.tls.enabled = true;
        o.tls.certificate = file(cert + ".pem");
        o.tls.private_key = file(cert + ".key");
        o.tls.ca = file(ca + ".pem");
        o.tls.require_client_auth = client_auth;
        return o;
    }

    static inline fs::path dir_;
    static inline bool ok_ = false;
};

TEST_F(MessagingTls, BothEndsOverTlsWithClientCertificates) {
    TestNode a(tls_options(1)), b(tls_options(2));
    auto r = call(*a.service, b.address(), kEcho, "secret");
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    EXPECT_EQ(*r, "secret");
    // Many frames and a big one through the TLS stream.
    Results results;
    const std::string big(3 << 20, 'b');
    for (int i = 0; i < 200; ++i) {
        then(a.service->request(b.address(), kEcho, i == 100 ? big : std::to_string(i), in(10s)),
             [&](MessagingResult m) { results.add(std::move(m)); });
    }
    ASSERT_TRUE(results.wait_for(200, 10s));
    EXPECT_EQ(results.count(std::nullopt), 200u);
    // And back: B's own connection to A.
    EXPECT_TRUE(call(*b.service, a.address(), kEcho, "back").is_ok());
}

TEST_F(MessagingTls, PlainPeerAgainstATlsAcceptorIsRefused) {
    TestNode b(tls_options(2)), c(tls_options(3));
    TestNode plain(1);
    auto r = call(*plain.service, b.address(), kEcho, "x");
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.kind(), MessagingError::Kind::kUnreachable);
    EXPECT_TRUE(call(*c.service, b.address(), kEcho, "x").is_ok());
}

TEST_F(MessagingTls, TlsPeerAgainstAPlainAcceptorFails) {
    TestNode a(tls_options(1)), plain(2);
    auto r = call(*a.service, plain.address(), kEcho, "x");
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.kind(), MessagingError::Kind::kUnreachable);
    EXPECT_NE(r.status().message().find("TLS handshake failed"), std::string::npos)
        << r.status().message();
}

TEST_F(MessagingTls, ClientCertificateFromAnotherCaIsRefused) {
    TestNode b(tls_options(2));
    // Presents a certificate of the rogue CA, trusts the real one.
    TestNode rogue(tls_options(1, "rogue", "ca"));
    auto r = call(*rogue.service, b.address(), kEcho, "x");
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.kind(), MessagingError::Kind::kUnreachable);
    // Without require_client_auth the same node is let in.
    TestNode open(tls_options(3, "node", "ca", false));
    EXPECT_TRUE(call(*rogue.service, open.address(), kEcho, "x").is_ok());
}

TEST_F(MessagingTls, ServerCertificateFromAnotherCaIsNotTrusted) {
    TestNode rogue(tls_options(2, "rogue", "ca", false));
    TestNode a(tls_options(1));
    auto r = call(*a.service, rogue.address(), kEcho, "x");
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.kind(), MessagingError::Kind::kUnreachable);
    EXPECT_NE(r.status().message().find("certificate verify failed"), std::string::npos)
        << r.status().message();
}

TEST_F(MessagingTls, UnusableFilesAreConfigErrors) {
    MessagingOptions o = tls_options(1);
    o.tls.certificate = file("missing.pem");
    Status st = MessagingService(o).start();
    EXPECT_EQ(st.code(), ErrorCode::kConfigError);
    EXPECT_NE(st.message().find("missing.pem"), std::string::npos) << st.message();
    o = tls_options(1);
    o.tls.ca.clear();
    st = MessagingService(o).start();
    EXPECT_EQ(st.code(), ErrorCode::kConfigError);
    EXPECT_NE(st.message().find("CA"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace tessel::cluster::testing
