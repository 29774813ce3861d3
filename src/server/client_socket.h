// ClientSocket: a client connection's byte stream, plain TCP or TLS over it
// (client_encryption_options), with the few operations a Connection needs.
#pragma once

#include <asio.hpp>
#include <asio/ssl.hpp>

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "common/status.h"
#include "server/config.h"

namespace tessel::server {

// A server TLS context (TLS 1.2 or later) from the options. Config_error
// naming the file that cannot be used.
Result<std::shared_ptr<asio::ssl::context>> make_tls_context(const ClientTlsOptions& options);

class ClientSocket {
  public:
    explicit ClientSocket(asio::ip::tcp::socket socket) : plain_(std::move(socket)) {}
    // `optional`: a client whose first byte does not start a TLS record is
    // served in plain text; otherwise it fails the handshake.
    ClientSocket(asio::ip::tcp::socket socket, asio::ssl::context& tls, bool optional)
        : tls_(std::make_unique<asio::ssl::stream<asio::ip::tcp::socket>>(std::move(socket), tls)),
          optional_(optional) {}

    asio::ip::tcp::socket& tcp() { return tls_ ? tls_->next_layer() : *plain_; }
    asio::any_io_executor get_executor() { return tcp().get_executor(); }

    // TLS: waits for the client's first byte (kept in the socket), then runs
    // the server side of the handshake; plain: completes at once.
    template <class Handler>
    void async_handshake(Handler&& handler) {
        if (tls_) {
            tcp().async_receive(asio::buffer(&first_byte_, 1), asio::socket_base::message_peek,
                                [this, h = std::forward<Handler>(handler)](
                                    const asio::error_code& ec, size_t n) mutable {
                                    if (ec || n == 0) return h(ec ? ec : asio::error::eof);
                                    if (first_byte_ == kTlsHandshakeRecord) {
                                        return tls_->async_handshake(asio::ssl::stream_base::server,
                                                                     std::move(h));
                                    }
                                    if (!optional_) return h(asio::error::no_protocol_option);
                                    plain_.emplace(std::move(tls_->next_layer()));
                                    tls_.reset();
                                    h(asio::error_code());
                                });
        } else {
            asio::post(get_executor(),
                       [h = std::forward<Handler>(handler)]() mutable { h(asio::error_code()); });
        }
    }

    template <class Buffer, class Handler>
    void async_read_some(const Buffer& buffer, Handler&& handler) {
        if (tls_) {
            tls_->async_read_some(buffer, std::forward<Handler>(handler));
        } else {
            plain_->async_read_some(buffer, std::forward<Handler>(handler));
        }
    }

    template <class Buffer, class Handler>
    void async_write(const Buffer& buffer, Handler&& handler) {
        if (tls_) {
            asio::async_write(*tls_, buffer, std::forward<Handler>(handler));
        } else {
            asio::async_write(*plain_, buffer, std::forward<Handler>(handler));
        }
    }

    // Closes the TCP connection (no TLS close_notify: the peer may be gone).
    void close() {
        asio::error_code ignored;
        tcp().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
        tcp().close(ignored);
    }

  private:
    static constexpr unsigned char kTlsHandshakeRecord = 0x16;  // a ClientHello's record type

    std::optional<asio::ip::tcp::socket> plain_;
    std::unique_ptr<asio::ssl::stream<asio::ip::tcp::socket>> tls_;
    bool optional_ = false;
    unsigned char first_byte_ = 0;
};

}  // namespace tessel::server
