// TabletSnapshot: every table's tablets and the cluster's nodes, read from
// the system tables (system.tablets, system.local, system.peers) through an
// embedded session, with each tablet's place on its table's key axis.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "tessel/database.h"

namespace tessel::console {

struct TabletRow {
    int64_t id = 0;  // tablet_id: its index in key order
    std::string range_start;
    std::string range_end;
    int32_t shard = 0;
    int64_t size_bytes = 0;
    int64_t rows = 0;
    double reads_per_sec = 0;
    double writes_per_sec = 0;
    double bytes_per_sec = 0;
    std::vector<std::string> replicas;
    std::optional<std::string> stage;  // a replica moving
    // The band on the table's key axis, fractions of [0, 1]: the token range
    // for hash tables; for ordered tables, whose keys have no measure, an
    // equal share per tablet in key order.
    double y0 = 0;
    double y1 = 0;
};

struct TableTablets {
    std::string keyspace;
    std::string table;
    bool ordered = false;  // 'ordered' distribution (key order, not token order)
    std::vector<TabletRow> tablets;

    std::string name() const { return keyspace + "." + table; }
};

struct NodeRow {
    std::string address;  // rpc address
    std::string host_id;  // uuid text
    std::string data_center;
    std::string rack;
    bool local = false;
};

// User tables only: the system keyspaces are left out.
Result<std::vector<TableTablets>> read_tablets(Database& db);
Result<std::vector<NodeRow>> read_nodes(Database& db);

// The fraction of the token ring before `token` (INT64_MIN: 0, INT64_MAX: ~1).
double token_fraction(long double token);
// A hash tablet's range_start/range_end text as a token; nullopt when not a
// number.
std::optional<int64_t> parse_token(const std::string& text);

// Value decoders for system-table cells (native-protocol encodings).
std::string cell_text(const std::optional<std::string>& v);
int64_t cell_bigint(const std::optional<std::string>& v);
int32_t cell_int(const std::optional<std::string>& v);
double cell_double(const std::optional<std::string>& v);
std::vector<std::string> cell_text_list(const std::optional<std::string>& v);
std::string cell_inet(const std::optional<std::string>& v);
std::string cell_uuid(const std::optional<std::string>& v);
int64_t cell_timestamp(const std::optional<std::string>& v);

}  // namespace tessel::console
