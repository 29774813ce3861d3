#include "client/client.h"

#include <asio.hpp>

#include <atomic>
#include <chrono>
#include <deque>
#include <future>
#include <mutex>
#include <thread>

#include "protocol/frame.h"
#include "protocol/handshake.h"
#include "protocol/responses.h"

namespace tessel::client {
namespace {

constexpr uint8_t kVersion = 4;
using Decoded = Result<protocol::DecodedResponse>;
using Handler = std::function<void(Decoded)>;

Status unexpected(const protocol::DecodedResponse& r, std::string_view wanted) {
    return Status::protocol(
        "expected " + std::string(wanted) + " from the server, got " +
        std::string(protocol::opcode_name(protocol::response_opcode(r.response))));
}

Result<QueryResult> to_query_result(Decoded decoded) {
    if (!decoded.is_ok()) return decoded.status();
    protocol::DecodedResponse& d = decoded.value();
    QueryResult out;
    out.warnings = std::move(d.warnings);
    if (auto* e = std::get_if<protocol::ErrorResponse>(&d.response)) return e->to_status();
    if (std::holds_alternative<protocol::VoidResult>(d.response)) {
        out.kind = protocol::ResultKind::kVoid;
    } else if (auto* rows = std::get_if<protocol::RowsResult>(&d.response)) {
        out.kind = protocol::ResultKind::kRows;
        out.columns = std::move(rows->metadata.columns);
        out.paging_state = std::move(rows->metadata.paging_state);
        out.rows = std::move(rows->rows);
    } else if (auto* ks = std::get_if<protocol::SetKeyspaceResult>(&d.response)) {
        out.kind = protocol::ResultKind::kSetKeyspace;
        out.keyspace = ks->keyspace;
    } else if (auto* sc = std::get_if<protocol::SchemaChangeResult>(&d.response)) {
        out.kind = protocol::ResultKind::kSchemaChange;
        out.schema_change = sc->change;
    } else {
        return unexpected(d, "RESULT");
    }
    return out;
}

template <typename T>
Result<T> wait_for(std::future<Result<T>>& f, int timeout_ms) {
    if (f.wait_for(std::chrono::milliseconds(timeout_ms)) != std::future_status::ready) {
        return Status(ErrorCode::kServerError,
                      "no answer from the server within " + std::to_string(timeout_ms) + " ms");
    }
    return f.get();
}

}  // namespace

class Client::Impl {
  public:
    explicit Impl(ClientOptions options)
        : options_(std::move(options)), guard_(io_.get_executor()), handlers_(kMaxStreams) {
        for (int s = kMaxStreams - 1; s >= 0; --s)
            free_streams_.push_back(static_cast<int16_t>(s));
    }

    ~Impl() { close(); }

    Status connect() {
        thread_ = std::thread([this] { io_.run(); });
        asio::error_code ec;
        asio::ip::tcp::resolver resolver(io_);
        auto endpoints = resolver.resolve(options_.host, std::to_string(options_.port), ec);
        if (ec) return fail_connect(ec.message());
        auto done = std::make_shared<std::promise<asio::error_code>>();
        auto f = done->get_future();
        asio::async_connect(socket_, endpoints,
                            [done](const asio::error_code& e, const asio::ip::tcp::endpoint&) {
                                done->set_value(e);
                            });
        if (f.wait_for(std::chrono::milliseconds(options_.connect_timeout_ms)) !=
            std::future_status::ready) {
            asio::post(io_, [this] {
                asio::error_code ignored;
                socket_.close(ignored);
            });
            f.wait();
            return fail_connect("timed out");
        }
        if ((ec = f.get())) return fail_connect(ec.message());
        asio::post(io_, [this] {
            asio::error_code ignored;
            socket_.set_option(asio::ip::tcp::no_delay(true), ignored);
            connected_ = true;
            do_read();
        });
        return handshake();
    }

    void send(protocol::Request request, Handler handler) {
        if (closed_) {
            // The I/O thread is gone: nothing posted would ever run.
            handler(Status::server("connection to " + endpoint_name() + " is closed"));
            return;
        }
        asio::post(io_, [this, r = std::move(request), h = std::move(handler)]() mutable {
            if (!connected_) {
                h(Status::server("not connected to " + endpoint_name()));
                return;
            }
            if (free_streams_.empty()) {
                waiting_.emplace_back(std::move(r), std::move(h));
                return;
            }
            start_request(std::move(r), std::move(h));
        });
    }

    void set_event_callback(EventCallback cb) {
        asio::post(io_, [this, cb = std::move(cb)]() mutable { on_event_ = std::move(cb); });
    }

    size_t in_flight() const { return in_flight_.load(); }
    bool connected() const { return connected_.load(); }
    const ClientOptions& options() const { return options_; }

    void close() {
        if (closed_.exchange(true)) return;
        if (thread_.joinable()) {
            asio::post(io_, [this] { shutdown("connection closed by the client"); });
            guard_.reset();
            thread_.join();
        }
    }

  private:
    Status fail_connect(const std::string& why) {
        close();
        return Status::server("cannot connect to " + endpoint_name() + ": " + why);
    }

    std::string endpoint_name() const {
        return options_.host + ":" + std::to_string(options_.port);
    }

    Status handshake() {
        auto call = [this](protocol::Request r) {
            auto p = std::make_shared<std::promise<Decoded>>();
            auto f = p->get_future();
            send(std::move(r), [p](Decoded d) { p->set_value(std::move(d)); });
            return wait_for(f, options_.connect_timeout_ms);
        };
        auto supported = call(protocol::OptionsRequest{});
        if (!supported.is_ok()) return fail_handshake(supported.status());
        protocol::StartupRequest startup;
        startup.options["CQL_VERSION"] = "3.4.4";
        startup.options["DRIVER_NAME"] = "tessel-client";
        if (options_.compression != protocol::Compression::kNone) {
            startup.options["COMPRESSION"] =
                std::string(protocol::compression_name(options_.compression));
        }
        auto ready = call(startup);
        if (ready.is_ok() &&
            std::holds_alternative<protocol::AuthenticateResponse>(ready->response)) {
            if (options_.username.empty()) {
                return fail_handshake(Status(ErrorCode::kBadCredentials,
                                             "the server requires authentication: give a "
                                             "username and password"));
            }
            protocol::AuthResponseRequest auth;
            auth.token = protocol::encode_sasl_plain(options_.username, options_.password);
            ready = call(auth);
            if (ready.is_ok() &&
                std::holds_alternative<protocol::AuthSuccessResponse>(ready->response)) {
                ready->response = protocol::ReadyResponse{};
            }
        }
        if (!ready.is_ok()) return fail_handshake(ready.status());
        if (auto* e = std::get_if<protocol::ErrorResponse>(&ready->response)) {
            return fail_handshake(e->to_status());
        }
        if (!std::holds_alternative<protocol::ReadyResponse>(ready->response)) {
            return fail_handshake(unexpected(*ready, "READY"));
        }
        // From now on requests may be compressed (the server decompresses by flag).
        asio::post(io_, [this] { compression_ = options_.compression; });
        return Status::ok();
    }

    Status fail_handshake(Status st) {
        close();
        return st;
    }

    void start_request(protocol::Request request, Handler handler) {
        int16_t stream = free_streams_.back();
        free_streams_.pop_back();
        handlers_[static_cast<size_t>(stream)] = std::move(handler);
        ++in_flight_;
        std::string frame = protocol::encode_request_frame(kVersion, stream, request);
        if (compression_ != protocol::Compression::kNone) {
            auto body = protocol::compress_body(
                compression_, std::string_view(frame).substr(protocol::kHeaderSize));
            if (body.is_ok()) {
                protocol::FrameHeader h = protocol::decode_header(frame);
                h.flags |= protocol::kFlagCompression;
                h.length = static_cast<uint32_t>(body->size());
                frame.clear();
                protocol::append_header(h, &frame);
                frame.append(*body);
            }
        }
        pending_.append(frame);
        if (!writing_) do_write();
    }

    void do_write() {
        if (pending_.empty() || !connected_) return;
        writing_ = true;
        in_flight_bytes_.swap(pending_);
        pending_.clear();
        asio::async_write(socket_, asio::buffer(in_flight_bytes_),
                          [this](const asio::error_code& ec, size_t) {
                              writing_ = false;
                              in_flight_bytes_.clear();
                              if (ec) {
                                  shutdown("write failed: " + ec.message());
                                  return;
                              }
                              do_write();
                          });
    }

    void do_read() {
        socket_.async_read_some(
            asio::buffer(read_buf_), [this](const asio::error_code& ec, size_t n) {
                if (ec) {
                    shutdown(ec == asio::error::eof ? "the server closed the connection"
                                                    : "read failed: " + ec.message());
                    return;
                }
                parser_.append(std::string_view(read_buf_.data(), n));
                for (;;) {
                    auto next = parser_.next();
                    if (!next.is_ok()) {
                        shutdown("bad frame from the server: " + next.status().message());
                        return;
                    }
                    if (!next->has_value()) break;
                    on_frame(**next);
                    if (!connected_) return;
                }
                do_read();
            });
    }

    void on_frame(const protocol::Frame& frame) {
        const protocol::FrameHeader& h = frame.header;
        Decoded decoded = decode(frame);
        if (h.stream == protocol::kEventStreamId) {
            if (decoded.is_ok() && on_event_) {
                if (auto* e = std::get_if<protocol::SchemaChangeEvent>(&decoded->response)) {
                    on_event_(e->change);
                }
            }
            return;
        }
        if (h.stream < 0 || !handlers_[static_cast<size_t>(h.stream)]) return;  // unknown stream
        Handler handler = std::move(handlers_[static_cast<size_t>(h.stream)]);
        handlers_[static_cast<size_t>(h.stream)] = nullptr;
        free_streams_.push_back(h.stream);
        --in_flight_;
        handler(std::move(decoded));
        if (!waiting_.empty() && !free_streams_.empty() && connected_) {
            auto [r, hd] = std::move(waiting_.front());
            waiting_.pop_front();
            start_request(std::move(r), std::move(hd));
        }
    }

    Decoded decode(const protocol::Frame& frame) {
        const protocol::FrameHeader& h = frame.header;
        auto opcode = protocol::opcode_from_byte(h.opcode);
        if (!opcode.is_ok()) return opcode.status();
        std::string_view body = frame.body;
        std::string decompressed;
        if (h.flags & protocol::kFlagCompression) {
            protocol::Compression c = options_.compression;
            if (c == protocol::Compression::kNone) {
                return Status::protocol("compressed frame without negotiated compression");
            }
            auto d = protocol::decompress_body(c, body);
            if (!d.is_ok()) return d.status();
            decompressed = std::move(d).value();
            body = decompressed;
        }
        return protocol::decode_response(h.protocol_version(), *opcode, h.flags, body);
    }

    // Fails every pending request; runs on the I/O thread.
    void shutdown(const std::string& why) {
        if (connected_.exchange(false)) {
            asio::error_code ignored;
            socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
            socket_.close(ignored);
        }
        Status st = Status::server("connection to " + endpoint_name() + " lost: " + why);
        for (auto& h : handlers_) {
            if (h) {
                Handler handler = std::move(h);
                h = nullptr;
                --in_flight_;
                handler(st);
            }
        }
        while (!waiting_.empty()) {
            auto [r, h] = std::move(waiting_.front());
            waiting_.pop_front();
            h(st);
        }
    }

    ClientOptions options_;
    asio::io_context io_{1};
    asio::executor_work_guard<asio::io_context::executor_type> guard_;
    asio::ip::tcp::socket socket_{io_};
    std::thread thread_;
    std::atomic<bool> connected_{false};
    std::atomic<bool> closed_{false};
    std::atomic<size_t> in_flight_{0};
    protocol::Compression compression_ = protocol::Compression::kNone;
    protocol::FrameParser parser_;
    std::array<char, 64 * 1024> read_buf_{};
    std::vector<Handler> handlers_;  // by stream id
    std::vector<int16_t> free_streams_;
    std::deque<std::pair<protocol::Request, Handler>> waiting_;
    std::string pending_;
    std::string in_flight_bytes_;
    bool writing_ = false;
    EventCallback on_event_;
};

Client::Client(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Client::~Client() {
    close();
}

Result<std::unique_ptr<Client>> Client::connect(const ClientOptions& options) {
    auto impl = std::make_unique<Impl>(options);
    TESSEL_RETURN_IF_ERROR(impl->connect());
    std::unique_ptr<Client> client(new Client(std::move(impl)));
    if (!options.keyspace.empty()) {
        std::string ks = options.keyspace;
        std::string quoted = "\"";
        for (char c : ks)
            quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
        auto r = client->query("USE " + quoted + "\"");
        if (!r.is_ok()) return r.status();
    }
    return client;
}

void Client::query_async(std::string cql, QueryParameters params, ResultCallback done) {
    impl_->send(protocol::QueryRequest{std::move(cql), std::move(params)},
                [done = std::move(done)](Decoded d) { done(to_query_result(std::move(d))); });
}

void Client::prepare_async(std::string cql, PrepareCallback done) {
    std::string text = cql;
    impl_->send(protocol::PrepareRequest{std::move(cql)},
                [done = std::move(done), text = std::move(text)](Decoded d) {
                    if (!d.is_ok()) return done(d.status());
                    if (auto* e = std::get_if<protocol::ErrorResponse>(&d->response)) {
                        return done(e->to_status());
                    }
                    auto* p = std::get_if<protocol::PreparedResult>(&d->response);
                    if (!p) return done(unexpected(*d, "RESULT Prepared"));
                    Prepared out;
                    out.id = p->id;
                    out.query = text;
                    out.bind_columns = p->bind_columns;
                    out.pk_indexes = p->pk_indexes;
                    out.result_columns = p->result_metadata.columns;
                    done(std::move(out));
                });
}

void Client::execute_async(const Prepared& prepared, QueryParameters params, ResultCallback done) {
    impl_->send(protocol::ExecuteRequest{prepared.id, std::move(params)},
                [done = std::move(done)](Decoded d) { done(to_query_result(std::move(d))); });
}

void Client::batch_async(protocol::BatchRequest batch, ResultCallback done) {
    impl_->send(std::move(batch),
                [done = std::move(done)](Decoded d) { done(to_query_result(std::move(d))); });
}

Result<QueryResult> Client::query(const std::string& cql, QueryParameters params) {
    auto p = std::make_shared<std::promise<Result<QueryResult>>>();
    auto f = p->get_future();
    query_async(cql, std::move(params), [p](Result<QueryResult> r) { p->set_value(std::move(r)); });
    return wait_for(f, impl_->options().request_timeout_ms);
}

Result<Prepared> Client::prepare(const std::string& cql) {
    auto p = std::make_shared<std::promise<Result<Prepared>>>();
    auto f = p->get_future();
    prepare_async(cql, [p](Result<Prepared> r) { p->set_value(std::move(r)); });
    return wait_for(f, impl_->options().request_timeout_ms);
}

Result<QueryResult> Client::execute(const Prepared& prepared, QueryParameters params) {
    auto run = [&](const Prepared& stmt) {
        auto p = std::make_shared<std::promise<Result<QueryResult>>>();
        auto f = p->get_future();
        execute_async(stmt, params, [p](Result<QueryResult> r) { p->set_value(std::move(r)); });
        return wait_for(f, impl_->options().request_timeout_ms);
    };
    auto r = run(prepared);
    if (r.is_ok() || r.status().code() != ErrorCode::kUnprepared || prepared.query.empty()) {
        return r;
    }
    auto again = prepare(prepared.query);
    if (!again.is_ok()) return again.status();
    return run(*again);
}

Result<QueryResult> Client::batch(protocol::BatchRequest batch) {
    auto p = std::make_shared<std::promise<Result<QueryResult>>>();
    auto f = p->get_future();
    batch_async(std::move(batch), [p](Result<QueryResult> r) { p->set_value(std::move(r)); });
    return wait_for(f, impl_->options().request_timeout_ms);
}

Status Client::for_each_page(const std::string& cql, QueryParameters params,
                             const std::function<bool(const QueryResult&)>& on_page) {
    if (!params.page_size) params.page_size = 5000;
    for (;;) {
        auto r = query(cql, params);
        if (!r.is_ok()) return r.status();
        if (!on_page(*r) || !r->has_more_pages()) return Status::ok();
        params.paging_state = r->paging_state;
    }
}

Status Client::register_schema_events(EventCallback on_event) {
    impl_->set_event_callback(std::move(on_event));
    auto p = std::make_shared<std::promise<Result<QueryResult>>>();
    auto f = p->get_future();
    impl_->send(protocol::RegisterRequest{{"SCHEMA_CHANGE"}}, [p](Decoded d) {
        if (!d.is_ok()) return p->set_value(d.status());
        if (auto* e = std::get_if<protocol::ErrorResponse>(&d->response)) {
            return p->set_value(e->to_status());
        }
        if (!std::holds_alternative<protocol::ReadyResponse>(d->response)) {
            return p->set_value(unexpected(*d, "READY"));
        }
        p->set_value(QueryResult{});
    });
    auto r = wait_for(f, impl_->options().request_timeout_ms);
    return r.is_ok() ? Status::ok() : r.status();
}

size_t Client::in_flight() const {
    return impl_->in_flight();
}
bool Client::is_connected() const {
    return impl_->connected();
}
void Client::close() {
    if (impl_) impl_->close();
}

}  // namespace tessel::client
