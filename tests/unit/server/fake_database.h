// A scripted Database for protocol tests: each statement's first word picks
// the answer, so the server's handling of every result kind and error can be
// checked without the engine.
//   ROWS n [page]   -> n rows of (k int, v text), paged by the page size
//   VOID            -> Void
//   USE ks          -> Set_keyspace
//   CREATE name     -> Schema_change CREATED TABLE ks.name (listeners notified)
//   WARN            -> Void with one warning
//   EXISTS          -> Already_exists ks/tbl
//   SYNTAX          -> Syntax_error
//   THROW           -> throws (the server must answer Server_error)
//   ECHO            -> one row: the bound values as blobs, names in the columns
//   DEFER name      -> waits (without blocking its thread) until the test calls
//                      finish_deferred(name, rows), then that many rows
//   anything else   -> Invalid "unconfigured table"
#pragma once

#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

#include "tessel/database.h"
#include "types/bytes_util.h"

namespace tessel::testing {

class FakeDatabase;

class FakeSession : public Session {
  public:
    explicit FakeSession(FakeDatabase& db) : db_(db) {}
    Task<Result<ResultSet>> execute_async(std::string_view cql,
                                          const QueryOptions& options) override;
    Result<PreparedStatement> prepare(std::string_view cql) override;
    Task<Result<ResultSet>> execute_prepared_async(std::string_view id,
                                                   const QueryOptions& options) override {
        co_return run_prepared(id, options);
    }
    Task<Result<ResultSet>> execute_batch_async(BatchType type,
                                                const std::vector<BatchEntry>& entries,
                                                const QueryOptions& options) override {
        co_return run_batch(type, entries, options);
    }
    const std::string& keyspace() const override { return keyspace_; }

  private:
    Result<ResultSet> run(std::string_view cql, const QueryOptions& options);
    Result<ResultSet> run_prepared(std::string_view id, const QueryOptions& options);
    Result<ResultSet> run_batch(BatchType type, const std::vector<BatchEntry>& entries,
                                const QueryOptions& options);

    FakeDatabase& db_;
    std::string keyspace_;
};

class FakeDatabase : public Database {
  public:
    std::unique_ptr<Session> new_session() override { return std::make_unique<FakeSession>(*this); }
    int subscribe_schema_changes(std::function<void(const SchemaChange&)> listener) override {
        std::lock_guard lock(mu_);
        listeners_[next_id_] = std::move(listener);
        return next_id_++;
    }
    void unsubscribe_schema_changes(int id) override {
        std::lock_guard lock(mu_);
        listeners_.erase(id);
    }
    std::string schema_version() const override { return std::string(16, '\x01'); }
    std::string host_id() const override { return std::string(16, '\x02'); }
    Status flush() override {
        ++flushes;
        return Status::ok();
    }

    void notify(const SchemaChange& change) {
        std::lock_guard lock(mu_);
        for (auto& [id, l] : listeners_)
            l(change);
    }

    // DEFER statements: each waits on its name's completion.
    Completion<int> deferred(const std::string& name) {
        std::lock_guard lock(mu_);
        return deferred_[name];
    }
    void finish_deferred(const std::string& name, int rows) { deferred(name).set(rows); }

    int flushes = 0;
    std::mutex mu_;
    std::map<std::string, Completion<int>> deferred_;
    std::map<int, std::function<void(const SchemaChange&)>> listeners_;
    int next_id_ = 1;
    std::map<std::string, std::string> prepared;  // id -> query text
};

inline Result<ResultSet> FakeSession::run(std::string_view cql, const QueryOptions& options) {
    std::string q(cql);
    std::string word = q.substr(0, q.find(' '));
    std::string arg = q.find(' ') == std::string::npos ? "" : q.substr(q.find(' ') + 1);
    ResultSet rs;
    if (word == "ROWS") {
        int n = std::stoi(arg);
        int start = options.paging_state.empty() ? 0 : std::stoi(options.paging_state);
        int end = options.page_size > 0 ? std::min(n, start + options.page_size) : n;
        rs.kind = ResultSet::Kind::kRows;
        rs.columns = {{"ks", "t", "k", native_type(TypeKind::kInt)},
                      {"ks", "t", "v", native_type(TypeKind::kVarchar)}};
        for (int i = start; i < end; ++i) {
            rs.rows.push_back({bytes::i32_bytes(i), std::nullopt});
        }
        if (end < n) rs.paging_state = std::to_string(end);
        return rs;
    }
    if (word == "VOID") return rs;
    if (word == "WARN") {
        rs.warnings = {"careful"};
        return rs;
    }
    if (word == "USE") {
        keyspace_ = arg;
        rs.kind = ResultSet::Kind::kSetKeyspace;
        rs.keyspace = arg;
        return rs;
    }
    if (word == "CREATE") {
        rs.kind = ResultSet::Kind::kSchemaChange;
        rs.schema_change = {"CREATED", "TABLE", "ks", arg, {}};
        db_.notify(rs.schema_change);
        return rs;
    }
    if (word == "EXISTS") {
        Status st(ErrorCode::kAlreadyExists, "Cannot add already existing table \"tbl\"");
        st.detail1 = "ks";
        st.detail2 = "tbl";
        return st;
    }
    if (word == "SYNTAX") return Status::syntax("line 1:0 no viable alternative at input 'SYNTAX'");
    if (word == "THROW") throw std::runtime_error("boom");
    if (word == "ECHO") {
        rs.kind = ResultSet::Kind::kRows;
        std::vector<std::optional<std::string>> row;
        for (size_t i = 0; i < options.values.size(); ++i) {
            const auto& v = options.values[i];
            std::string name = v.name.empty() ? "v" + std::to_string(i) : v.name;
            if (v.kind == BoundValue::Kind::kUnset) name += "_unset";
            rs.columns.push_back({"ks", "t", name, native_type(TypeKind::kBlob)});
            row.push_back(v.kind == BoundValue::Kind::kValue ? std::optional(v.bytes)
                                                             : std::nullopt);
        }
        rs.rows.push_back(std::move(row));
        return rs;
    }
    return Status::invalid("unconfigured table " + word);
}

inline Task<Result<ResultSet>> FakeSession::execute_async(std::string_view cql,
                                                          const QueryOptions& options) {
    if (cql.substr(0, 6) == "DEFER ") {
        const int rows = co_await db_.deferred(std::string(cql.substr(6))).wait();
        co_return run("ROWS " + std::to_string(rows), options);
    }
    co_return run(cql, options);
}

inline Result<PreparedStatement> FakeSession::prepare(std::string_view cql) {
    if (cql.substr(0, 6) == "SYNTAX") return Status::syntax("bad");
    PreparedStatement p;
    p.id = std::string("id:") + std::string(cql.substr(0, 12));
    p.query = std::string(cql);
    p.bind_columns = {{"ks", "t", "k", native_type(TypeKind::kInt)},
                      {"ks", "t", "v", native_type(TypeKind::kVarchar)}};
    p.partition_key_indexes = {0};
    if (cql.substr(0, 4) == "ROWS") {
        p.result_columns = {{"ks", "t", "k", native_type(TypeKind::kInt)}};
    }
    std::lock_guard lock(db_.mu_);
    db_.prepared[p.id] = p.query;
    return p;
}

inline Result<ResultSet> FakeSession::run_prepared(std::string_view id,
                                                   const QueryOptions& options) {
    std::string query;
    {
        std::lock_guard lock(db_.mu_);
        auto it = db_.prepared.find(std::string(id));
        if (it == db_.prepared.end()) {
            Status st(ErrorCode::kUnprepared,
                      "Prepared query with ID " + bytes::to_hex(id) + " not found");
            st.detail1 = std::string(id);
            return st;
        }
        query = it->second;
    }
    return run(query, options);
}

inline Result<ResultSet> FakeSession::run_batch(BatchType, const std::vector<BatchEntry>& entries,
                                                const QueryOptions&) {
    for (const auto& e : entries) {
        if (!e.prepared_id.empty()) {
            std::lock_guard lock(db_.mu_);
            if (!db_.prepared.count(e.prepared_id)) {
                Status st(ErrorCode::kUnprepared, "unknown id");
                st.detail1 = e.prepared_id;
                return st;
            }
        } else if (e.query.substr(0, 4) != "VOID") {
            return Status::invalid("batch entry refused: " + e.query);
        }
    }
    return ResultSet{};
}

}  // namespace tessel::testing
