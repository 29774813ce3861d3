// Test helpers: a database in a fresh temporary directory and shorthands to
// run CQL and read typed values.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "tessel/database.h"
#include "types/value.h"

namespace tessel::testing {

class TestDb {
  public:
    explicit TestDb(size_t max_page_bytes = 4u << 20, TabletOptions tablets = {})
        : TestDb(options_with(max_page_bytes, tablets)) {}
    // Other options (thresholds ...); data_dir is the test's own.
    explicit TestDb(DatabaseOptions options) : options_(std::move(options)) {
        static int counter = 0;
        dir_ = std::filesystem::temp_directory_path() /
               ("tessel_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
        std::filesystem::remove_all(dir_);
        reopen();
    }
    ~TestDb() {
        session_.reset();
        db_.reset();
        std::filesystem::remove_all(dir_);
    }

    void reopen() {
        session_.reset();
        db_.reset();
        DatabaseOptions o = options_;
        o.data_dir = dir_.string();
        auto r = Database::open(o);
        if (!r.is_ok()) {
            ADD_FAILURE() << "open failed: " << r.status().to_string();
            return;
        }
        db_ = std::move(r).value();
        session_ = db_->new_session();
    }
    // Options used by the next reopen().
    void set_tablets(TabletOptions o) { options_.tablets = o; }
    void close() {
        session_.reset();
        db_.reset();
    }

    Database& db() { return *db_; }
    Session& session() { return *session_; }
    const std::filesystem::path& dir() const { return dir_; }

    // Runs statements that must succeed.
    ResultSet ok(const std::string& cql, QueryOptions o = {}) {
        auto r = session_->execute(cql, o);
        EXPECT_TRUE(r.is_ok()) << cql << " -> " << (r.is_ok() ? "" : r.status().to_string());
        return r.is_ok() ? std::move(r).value() : ResultSet{};
    }
    // Creates keyspace `name` (SimpleStrategy, replication factor 1).
    void create_keyspace(const std::string& name) {
        ok("CREATE KEYSPACE " + name +
           " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    }
    // Runs a statement that must fail; returns its status.
    Status err(const std::string& cql, QueryOptions o = {}) {
        auto r = session_->execute(cql, o);
        EXPECT_FALSE(r.is_ok()) << cql << " unexpectedly succeeded";
        return r.is_ok() ? Status::ok() : r.status();
    }

    // Rows formatted as cqlsh prints values, cells joined by "|", for compact asserts.
    std::vector<std::string> rows(const std::string& cql, QueryOptions o = {}) {
        return format(ok(cql, std::move(o)));
    }
    static std::vector<std::string> format(const ResultSet& rs) {
        std::vector<std::string> out;
        for (const auto& row : rs.rows) {
            std::string line;
            for (size_t i = 0; i < row.size(); ++i) {
                if (i) line += "|";
                line += row[i] ? format_value(*rs.columns[i].type, *row[i]) : "null";
            }
            out.push_back(line);
        }
        return out;
    }

  private:
    static DatabaseOptions options_with(size_t max_page_bytes, TabletOptions tablets) {
        DatabaseOptions o;
        o.max_page_bytes = max_page_bytes;
        o.tablets = tablets;
        return o;
    }

    DatabaseOptions options_;
    std::filesystem::path dir_;
    std::unique_ptr<Database> db_;
    std::unique_ptr<Session> session_;
};

inline std::string int_bytes(int32_t v) {
    std::string s(4, '\0');
    for (int i = 0; i < 4; ++i)
        s[i] = static_cast<char>((static_cast<uint32_t>(v) >> (24 - 8 * i)) & 0xFF);
    return s;
}
inline std::string bigint_bytes(int64_t v) {
    std::string s(8, '\0');
    for (int i = 0; i < 8; ++i)
        s[i] = static_cast<char>((static_cast<uint64_t>(v) >> (56 - 8 * i)) & 0xFF);
    return s;
}
inline QueryOptions values(std::vector<BoundValue> v) {
    QueryOptions o;
    o.values = std::move(v);
    return o;
}

}  // namespace tessel::testing
