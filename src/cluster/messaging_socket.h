// MessagingSocket: an internode connection's byte stream, plain TCP or TLS
// over it (server_encryption_options). Its completion handlers run on the
// executor the TCP socket was made with (a connection's strand).
#pragma once

#include <asio.hpp>
#include <asio/ssl.hpp>

#include <memory>
#include <optional>
#include <utility>

#include "cluster/messaging_options.h"
#include "common/status.h"

namespace tessel::cluster {

// The two TLS contexts of a node: the acceptor's and the connector's.
struct MessagingTlsContexts {
    std::shared_ptr<asio::ssl::context> server;
    std::shared_ptr<asio::ssl::context> client;
};

// Both contexts (TLS 1.2 or later) from the options. Config_error naming
// the file that cannot be used, or the option that is missing.
Result<MessagingTlsContexts> make_messaging_tls_contexts(const MessagingTlsOptions& options);

class MessagingSocket {
  public:
    explicit MessagingSocket(asio::ip::tcp::socket socket) : plain_(std::move(socket)) {}
    MessagingSocket(asio::ip::tcp::socket socket, asio::ssl::context& tls)
        : tls_(std::make_unique<asio::ssl::stream<asio::ip::tcp::socket>>(std::move(socket), tls)) {
    }

    asio::ip::tcp::socket& tcp() { return tls_ ? tls_->next_layer() : *plain_; }
    bool is_tls() const { return tls_ != nullptr; }

    // TLS: the handshake in the given role; plain: completes at once (posted).
    template <class Handler>
    void async_handshake(asio::ssl::stream_base::handshake_type role, Handler&& handler) {
        if (tls_) {
            tls_->async_handshake(role, std::forward<Handler>(handler));
        } else {
            asio::post(tcp().get_executor(),
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

    template <class Buffers, class Handler>
    void async_write(const Buffers& buffers, Handler&& handler) {
        if (tls_) {
            asio::async_write(*tls_, buffers, std::forward<Handler>(handler));
        } else {
            asio::async_write(*plain_, buffers, std::forward<Handler>(handler));
        }
    }

    // Closes the TCP connection (no TLS close_notify: the peer may be gone).
    // Pending operations complete with operation_aborted.
    void close() {
        asio::error_code ignored;
        tcp().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
        tcp().close(ignored);
    }

  private:
    std::optional<asio::ip::tcp::socket> plain_;
    std::unique_ptr<asio::ssl::stream<asio::ip::tcp::socket>> tls_;
};

}  // namespace tessel::cluster
