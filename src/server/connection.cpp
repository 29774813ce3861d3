#include "server/connection.h"

#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>

namespace tessel::server {
namespace {
std::atomic<uint64_t> next_connection_id{1};

diagnostics::RequestType request_type(uint8_t opcode) {
    using diagnostics::RequestType;
    switch (static_cast<protocol::Opcode>(opcode)) {
        case protocol::Opcode::kStartup:
            return RequestType::kStartup;
        case protocol::Opcode::kOptions:
            return RequestType::kOptions;
        case protocol::Opcode::kQuery:
            return RequestType::kQuery;
        case protocol::Opcode::kPrepare:
            return RequestType::kPrepare;
        case protocol::Opcode::kExecute:
            return RequestType::kExecute;
        case protocol::Opcode::kBatch:
            return RequestType::kBatch;
        case protocol::Opcode::kRegister:
            return RequestType::kRegister;
        case protocol::Opcode::kAuthResponse:
            return RequestType::kAuthResponse;
        default:
            return RequestType::kOther;
    }
}
}  // namespace

Connection::Connection(ClientSocket socket, Database& db, size_t max_frame_bytes,
                       std::shared_ptr<RequestLimits> limits, Hooks hooks)
    : socket_(std::move(socket)),
      db_(db),
      handler_(db, max_frame_bytes),
      parser_(max_frame_bytes),
      in_flight_requests_(std::move(limits)),
      hooks_(std::move(hooks)),
      id_(next_connection_id.fetch_add(1)) {
    handler_.set_max_value_bytes(in_flight_requests_.limits().max_value_bytes);
    if (hooks_.login_pool) handler_.defer_logins();
    if (hooks_.metrics) hooks_.metrics->connection_opened();
}

Connection::~Connection() {
    if (!closed_ && hooks_.metrics) hooks_.metrics->connection_closed();
}

void Connection::start() {
    asio::post(socket_.get_executor(), [self = shared_from_this()] {
        asio::error_code ignored;
        self->socket_.tcp().set_option(asio::ip::tcp::no_delay(true), ignored);
        self->socket_.async_handshake([self](const asio::error_code& ec) {
            if (ec) {
                // Not TLS (e.g. a plain CQL client while TLS is required), or a
                // certificate that does not verify: drop the connection.
                spdlog::debug("TLS handshake failed: {}", ec.message());
                self->close_now();
                return;
            }
            self->do_read();
        });
    });
}

void Connection::post_schema_event(const SchemaChange& change) {
    asio::post(socket_.get_executor(), [self = shared_from_this(), change] {
        if (self->closed_ || self->closing_) return;
        self->queue_output(self->handler_.encode_schema_event(change));
    });
}

void Connection::post_cluster_event(const ClusterEvent& event) {
    asio::post(socket_.get_executor(), [self = shared_from_this(), event] {
        if (self->closed_ || self->closing_) return;
        std::string frame = self->handler_.encode_cluster_event(event);
        if (!frame.empty()) self->queue_output(std::move(frame));
    });
}

void Connection::post_close() {
    asio::post(socket_.get_executor(), [self = shared_from_this()] { self->close_now(); });
}

void Connection::do_read() {
    if (closed_ || closing_ || reading_ || login_pending_) return;
    if (pending_.size() + in_flight_.size() > kMaxPendingOutput) {
        read_paused_ = true;
        return;
    }
    reading_ = true;
    socket_.async_read_some(asio::buffer(read_buf_),
                            [self = shared_from_this()](const asio::error_code& ec, size_t n) {
                                self->on_read(ec, n);
                            });
}

void Connection::on_read(const asio::error_code& ec, size_t n) {
    reading_ = false;
    if (ec) {
        close_now();
        return;
    }
    handler_.set_received_at(std::chrono::steady_clock::now());
    std::string_view bytes(read_buf_.data(), n);
    if (hooks_.metrics) hooks_.metrics->bytes_received(n);
    if (!first_checked_ && reject_bad_first_header(bytes)) return;
    parser_.append(bytes);
    process_frames();
    do_read();
}

bool Connection::reject_bad_first_header(std::string_view bytes) {
    size_t need = protocol::kHeaderSize - first_header_.size();
    first_header_.append(bytes.substr(0, need));
    if (first_header_.size() < protocol::kHeaderSize) return false;
    first_checked_ = true;
    protocol::FrameHeader h = protocol::decode_header(first_header_);
    if (protocol::check_request_version(h).is_ok()) return false;
    protocol::Frame frame;
    frame.header = h;
    std::string out;
    handler_.handle_frame(frame, &out);  // answers with the version error
    closing_ = true;
    queue_output(std::move(out));
    return true;
}

void Connection::process_frames() {
    std::string out;
    while (!closing_ && !login_pending_) {
        auto next = parser_.next();
        RequestHandler::Outcome outcome;
        if (!next.is_ok()) {
            outcome = handler_.handle_parse_error(next.status(), parser_.failed_header(), &out);
        } else if (!next->has_value()) {
            break;
        } else {
            const protocol::Frame& frame = **next;
            Status admitted = in_flight_requests_.admit(protocol::kHeaderSize + frame.body.size());
            if (admitted.is_ok()) {
                outcome = handle_counted(frame, &out);
            } else {
                handler_.refuse(frame.header, admitted, &out);
                if (hooks_.metrics) {
                    hooks_.metrics->request(request_type(frame.header.opcode), 0, admitted.code());
                }
            }
        }
        if (outcome.registered_events && hooks_.on_register) {
            hooks_.on_register(shared_from_this());
        }
        if (outcome.close) closing_ = true;
        if (outcome.login_deferred) start_login();
        if (outcome.pending) await_response(std::move(*outcome.pending), **next);
    }
    in_flight_requests_.queued();
    if (!out.empty()) queue_output(std::move(out));
    if (closing_ && !writing_) close_now();
}

RequestHandler::Outcome Connection::handle_counted(const protocol::Frame& frame, std::string* out) {
    if (!hooks_.metrics) return handler_.handle_frame(frame, out);
    const auto start = std::chrono::steady_clock::now();
    auto outcome = handler_.handle_frame(frame, out);
    if (outcome.login_deferred || outcome.pending) return outcome;  // counted when answered
    const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                            std::chrono::steady_clock::now() - start)
                            .count();
    hooks_.metrics->request(request_type(frame.header.opcode), static_cast<uint64_t>(micros),
                            handler_.last_error());
    return outcome;
}

void Connection::await_response(Task<PendingResponse> pending, const protocol::Frame& frame) {
    const size_t bytes = protocol::kHeaderSize + frame.body.size();
    in_flight_requests_.deferred(bytes);
    then(std::move(pending),
         [self = shared_from_this(), bytes, type = request_type(frame.header.opcode),
          started = std::chrono::steady_clock::now()](PendingResponse response) {
             // On the connection's loop: the request suspended there.
             if (self->closed_) return;
             self->in_flight_requests_.finished(bytes);
             if (self->hooks_.metrics) {
                 const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                                         std::chrono::steady_clock::now() - started)
                                         .count();
                 self->hooks_.metrics->request(type, static_cast<uint64_t>(micros), response.error);
             }
             self->queue_output(std::move(response.frames));
         });
}

void Connection::start_login() {
    login_pending_ = true;
    asio::post(*hooks_.login_pool,
               [self = shared_from_this(), login = handler_.take_deferred_login(),
                started = std::chrono::steady_clock::now()]() mutable {
                   auto session = self->db_.login(login.username, login.password);
                   auto executor = self->socket_.get_executor();
                   asio::post(executor, [self = std::move(self), login = std::move(login),
                                         session = std::move(session), started]() mutable {
                       self->on_login_checked(login, std::move(session), started);
                   });
               });
}

void Connection::on_login_checked(const RequestHandler::DeferredLogin& login,
                                  Result<std::unique_ptr<Session>> session,
                                  std::chrono::steady_clock::time_point started) {
    login_pending_ = false;
    if (closed_) return;
    std::string out;
    handler_.finish_login(login, std::move(session), &out);
    if (hooks_.metrics) {
        const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                                std::chrono::steady_clock::now() - started)
                                .count();
        hooks_.metrics->request(diagnostics::RequestType::kAuthResponse,
                                static_cast<uint64_t>(micros), handler_.last_error());
    }
    queue_output(std::move(out));
    // Frames the client sent meanwhile wait in the parser, in order.
    process_frames();
    do_read();
}

void Connection::queue_output(std::string&& bytes) {
    if (closed_) return;
    if (pending_.empty()) {
        pending_ = std::move(bytes);
    } else {
        pending_.append(bytes);
    }
    if (!writing_) do_write();
}

void Connection::do_write() {
    if (pending_.empty() || closed_) return;
    writing_ = true;
    in_flight_.swap(pending_);
    pending_.clear();
    in_flight_requests_.writing();
    if (hooks_.metrics) hooks_.metrics->bytes_sent(in_flight_.size());
    socket_.async_write(
        asio::buffer(in_flight_),
        [self = shared_from_this()](const asio::error_code& ec, size_t) { self->on_write(ec); });
}

void Connection::on_write(const asio::error_code& ec) {
    writing_ = false;
    in_flight_.clear();
    in_flight_requests_.written();
    if (ec) {
        close_now();
        return;
    }
    if (!pending_.empty()) {
        do_write();
        return;
    }
    if (closing_) {
        close_now();
        return;
    }
    if (read_paused_) {
        read_paused_ = false;
        do_read();
    }
}

void Connection::close_now() {
    if (closed_) return;
    closed_ = true;
    in_flight_requests_.release_all();
    if (hooks_.metrics) hooks_.metrics->connection_closed();
    socket_.close();
    if (hooks_.on_close) hooks_.on_close(this);
}

}  // namespace tessel::server
