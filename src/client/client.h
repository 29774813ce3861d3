// Client: a CQL native protocol v4 client over Asio, for the tessel shell,
// the benchmark and tests.
//
// One Client is one TCP connection with its own I/O thread. Requests are
// pipelined: each gets a free stream id (up to kMaxStreams in flight; more
// wait in a queue) and its callback runs on the I/O thread when the response
// arrives, in whatever order the server answers. The *_async functions are
// thread-safe. The synchronous wrappers, close() and the destructor block on
// the I/O thread and must not be called from a callback.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "protocol/compression.h"
#include "protocol/requests.h"
#include "protocol/results.h"

namespace tessel::client {

struct ClientOptions {
    std::string host = "127.0.0.1";
    int port = 9042;
    protocol::Compression compression = protocol::Compression::kNone;
    int connect_timeout_ms = 5000;
    // How long the synchronous wrappers wait for an answer.
    int request_timeout_ms = 60000;
    std::string keyspace;  // USE it after STARTUP when non-empty
    // Credentials for a server with PasswordAuthenticator (SASL PLAIN).
    std::string username;
    std::string password;
};

// One statement's answer (any RESULT kind).
struct QueryResult {
    protocol::ResultKind kind = protocol::ResultKind::kVoid;
    std::vector<protocol::ColumnSpec> columns;  // Rows
    std::vector<protocol::Row> rows;            // Rows
    std::optional<std::string> paging_state;    // Rows: set when more pages remain
    std::string keyspace;                       // Set_keyspace
    protocol::SchemaChange schema_change;       // Schema_change
    std::vector<std::string> warnings;

    bool has_more_pages() const { return paging_state.has_value(); }
};

struct Prepared {
    std::string id;
    std::string query;
    std::vector<protocol::ColumnSpec> bind_columns;
    std::vector<uint16_t> pk_indexes;
    std::vector<protocol::ColumnSpec> result_columns;
};

using QueryParameters = protocol::QueryParameters;
using ResultCallback = std::function<void(Result<QueryResult>)>;
using PrepareCallback = std::function<void(Result<Prepared>)>;
using EventCallback = std::function<void(const protocol::SchemaChange&)>;

class Client {
  public:
    static constexpr int kMaxStreams = 32768;

    // Connects, negotiates (OPTIONS, STARTUP with the chosen compression) and
    // USEs options.keyspace. Errors: Server_error for network failures (the
    // message names host and port), or the server's own error.
    static Result<std::unique_ptr<Client>> connect(const ClientOptions& options);

    ~Client();  // close()
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;

    // Callbacks receive the server's ERROR as a failed Status (code, message,
    // detail1/detail2 as in protocol::ErrorResponse::to_status), or a
    // Server_error when the connection is lost before the answer.
    void query_async(std::string cql, QueryParameters params, ResultCallback done);
    void prepare_async(std::string cql, PrepareCallback done);
    void execute_async(const Prepared& prepared, QueryParameters params, ResultCallback done);
    void batch_async(protocol::BatchRequest batch, ResultCallback done);

    Result<QueryResult> query(const std::string& cql, QueryParameters params = {});
    Result<Prepared> prepare(const std::string& cql);
    // Re-prepares once and retries when the server answers Unprepared.
    Result<QueryResult> execute(const Prepared& prepared, QueryParameters params = {});
    Result<QueryResult> batch(protocol::BatchRequest batch);
    // Runs `cql` page by page (params.page_size rows each, default 5000),
    // calling on_page for each page until the last or until it returns false.
    Status for_each_page(const std::string& cql, QueryParameters params,
                         const std::function<bool(const QueryResult&)>& on_page);

    // REGISTERs for SCHEMA_CHANGE events; `on_event` runs on the I/O thread.
    Status register_schema_events(EventCallback on_event);

    // Requests sent and not yet answered.
    size_t in_flight() const;
    bool is_connected() const;
    // Fails every pending request and stops the I/O thread. Idempotent.
    void close();

  private:
    class Impl;
    explicit Client(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace tessel::client
