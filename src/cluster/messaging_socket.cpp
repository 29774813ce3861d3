#include "cluster/messaging_socket.h"

#include <string>

namespace tessel::cluster {
namespace {

Status unusable(const std::string& what, const std::string& path, const asio::error_code& ec) {
    return Status::config("server_encryption_options: cannot use " + what + " '" + path +
                          "': " + ec.message());
}

// TLS 1.2 and later only, with the node's certificate and key (presented by
// both roles: the acceptor as server, the connector for client auth) and the
// CA that verifies the other side.
Result<std::shared_ptr<asio::ssl::context>> make_context(asio::ssl::context::method method,
                                                         const MessagingTlsOptions& options) {
    auto ctx = std::make_shared<asio::ssl::context>(method);
    asio::error_code ec;
    ctx->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                         asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                         asio::ssl::context::no_tlsv1_1 | asio::ssl::context::single_dh_use,
                     ec);
    if (ec) return Status::config("server_encryption_options: " + ec.message());
    ctx->use_certificate_chain_file(options.certificate, ec);
    if (ec) return unusable("the certificate", options.certificate, ec);
    const std::string& key =
        options.private_key.empty() ? options.certificate : options.private_key;
    ctx->use_private_key_file(key, asio::ssl::context::pem, ec);
    if (ec) return unusable("the private key", key, ec);
    ctx->load_verify_file(options.ca, ec);
    if (ec) return unusable("the CA file", options.ca, ec);
    return ctx;
}

}  // namespace

Result<MessagingTlsContexts> make_messaging_tls_contexts(const MessagingTlsOptions& options) {
    if (options.certificate.empty()) {
        return Status::config(
            "server_encryption_options: enabled without a certificate (PEM chain)");
    }
    if (options.ca.empty()) {
        // The connector always verifies the acceptor, so a CA is needed even
        // without require_client_auth.
        return Status::config(
            "server_encryption_options: enabled without a CA file (PEM truststore) to verify "
            "peers against");
    }
    MessagingTlsContexts out;
    TESSEL_ASSIGN_OR_RETURN(out.server, make_context(asio::ssl::context::tls_server, options));
    TESSEL_ASSIGN_OR_RETURN(out.client, make_context(asio::ssl::context::tls_client, options));
    asio::error_code ec;
    out.client->set_verify_mode(asio::ssl::verify_peer, ec);
    if (ec) return Status::config("server_encryption_options: " + ec.message());
    if (options.require_client_auth) {
        out.server->set_verify_mode(asio::ssl::verify_peer | asio::ssl::verify_fail_if_no_peer_cert,
                                    ec);
        if (ec) return Status::config("server_encryption_options: " + ec.message());
    }
    return out;
}

}  // namespace tessel::cluster
