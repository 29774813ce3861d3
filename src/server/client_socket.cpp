#include "server/client_socket.h"

namespace tessel::server {
namespace {

Status unusable(const std::string& what, const std::string& path, const asio::error_code& ec) {
    return Status::config("client_encryption_options: cannot use " + what + " '" + path +
                          "': " + ec.message());
}

}  // namespace

Result<std::shared_ptr<asio::ssl::context>> make_tls_context(const ClientTlsOptions& options) {
    if (options.certificate.empty()) {
        return Status::config(
            "client_encryption_options: enabled without a keystore "
            "(PEM certificate)");
    }
    auto ctx = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_server);
    asio::error_code ec;
    ctx->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                         asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                         asio::ssl::context::no_tlsv1_1 | asio::ssl::context::single_dh_use,
                     ec);
    if (ec) return Status::config("client_encryption_options: " + ec.message());
    ctx->use_certificate_chain_file(options.certificate, ec);
    if (ec) return unusable("the certificate", options.certificate, ec);
    const std::string& key =
        options.private_key.empty() ? options.certificate : options.private_key;
    ctx->use_private_key_file(key, asio::ssl::context::pem, ec);
    if (ec) return unusable("the private key", key, ec);
    if (options.require_client_auth) {
        if (options.truststore.empty()) {
            return Status::config(
                "client_encryption_options: require_client_auth needs a truststore (PEM CA "
                "certificates)");
        }
        ctx->load_verify_file(options.truststore, ec);
        if (ec) return unusable("the truststore", options.truststore, ec);
        ctx->set_verify_mode(asio::ssl::verify_peer | asio::ssl::verify_fail_if_no_peer_cert, ec);
        if (ec) return Status::config("client_encryption_options: " + ec.message());
    }
    return ctx;
}

}  // namespace tessel::server
