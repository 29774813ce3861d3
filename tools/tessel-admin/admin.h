// tessel-admin's pieces: a result set read by column name, aligned text
// tables, and the commands. Everything goes over CQL (system tables and the
// CALL statements of diagnostics/admin_calls.h), so the tool needs nothing
// from the server but its native protocol port.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "client/client.h"
#include "common/status.h"

namespace tessel::admin {

// Every row of a query (all pages), read by column name.
struct ResultSet {
    std::vector<protocol::ColumnSpec> columns;
    std::vector<protocol::Row> rows;

    // The index of the first column named like one of `names`, or -1.
    int column(std::initializer_list<std::string_view> names) const;
    // A cell as cqlsh prints it ("null" for null, "" when col < 0).
    std::string text(const protocol::Row& row, int col) const;
    // A numeric or timestamp cell as a number; nullopt for null, other types
    // or col < 0.
    std::optional<double> number(const protocol::Row& row, int col) const;
};

Result<ResultSet> fetch(client::Client& client, const std::string& cql);

// "'it''s'": a CQL string literal.
std::string cql_string(std::string_view s);

// An aligned table: headers, then rows; columns flagged numeric are
// right-aligned. Columns are separated by two spaces.
class TextTable {
  public:
    explicit TextTable(std::vector<std::string> headers, std::vector<bool> numeric = {});
    void add(std::vector<std::string> row);
    void print(std::ostream& out, std::string_view indent = "") const;
    size_t size() const { return rows_.size(); }

  private:
    std::vector<std::string> headers_;
    std::vector<bool> numeric_;
    std::vector<std::vector<std::string>> rows_;
};

// 12345678 -> "11.77 MiB"; small values in bytes.
std::string human_bytes(double bytes);
// A rate with sensible precision ("0.25", "12.5", "20000").
std::string rate_text(double v);

// "10s", "500ms", "2m", "1h"; a bare number is milliseconds (nodetool's -d).
std::optional<int64_t> parse_duration_ms(std::string_view text);

// "ks.table" or "ks" (table empty). Quoted names are not supported.
struct TableRef {
    std::string keyspace;
    std::string table;
};
std::optional<TableRef> parse_table_ref(std::string_view text);

// The commands. Each prints to `out` and returns a failed Status for the
// caller to report (a server error, or a missing system table).
Status cmd_status(client::Client& c, std::ostream& out);
Status cmd_info(client::Client& c, std::ostream& out);
Status cmd_tablestats(client::Client& c, const TableRef& filter, std::ostream& out);
Status cmd_tablets(client::Client& c, const TableRef& filter, std::ostream& out);
Status cmd_toppartitions(client::Client& c, const TableRef& table, int64_t duration_ms, size_t top,
                         std::ostream& out);
Status cmd_largepartitions(client::Client& c, const TableRef& filter, std::ostream& out);
Status cmd_advise(client::Client& c, const TableRef& table, std::ostream& out);
// `compact` false: flush.
// Anti-entropy repair of the tables in scope (CALL system.repair): what was
// compared and what differed.
Status cmd_repair(client::Client& c, const TableRef& scope, std::ostream& out);
// decommission (empty host id: the node connected to) or removenode HOST_ID.
Status cmd_node_leaves(client::Client& c, const std::string& removed_host_id, std::ostream& out);
Status cmd_flush_or_compact(client::Client& c, bool compact, const TableRef& scope,
                            std::ostream& out);

}  // namespace tessel::admin
