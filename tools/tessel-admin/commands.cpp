#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <thread>

#include "admin.h"
#include "diagnostics/admin_calls.h"
#include "diagnostics/hot_partitions.h"
#include "diagnostics/tablet_load.h"

namespace tessel::admin {

namespace {

using diagnostics::TopKEntry;
using diagnostics::TopKView;

bool is_system_keyspace(const std::string& ks) {
    return ks == "system" || ks == "system_schema" || ks == "system_auth" ||
           ks == "system_distributed" || ks == "system_traces";
}

bool matches(const TableRef& filter, const std::string& ks, const std::string& table) {
    if (filter.keyspace.empty()) return !is_system_keyspace(ks);
    return ks == filter.keyspace && (filter.table.empty() || table == filter.table);
}

std::string where_table(const TableRef& t) {
    return fmt::format(" WHERE keyspace_name = {} AND table_name = {}", cql_string(t.keyspace),
                       cql_string(t.table));
}

// Column aliases for system.tablets, whose exact names belong to the tablet
// map; the first present one is used.
struct TabletColumns {
    int keyspace, table, id, range_start, range_end, size, rows, reads, writes, bytes;
    explicit TabletColumns(const ResultSet& rs)
        : keyspace(rs.column({"keyspace_name", "keyspace"})),
          table(rs.column({"table_name", "table", "columnfamily_name"})),
          id(rs.column({"tablet_id", "id", "tablet"})),
          range_start(rs.column({"range_start", "first_token", "start_token", "start_key"})),
          range_end(rs.column({"range_end", "last_token", "end_token", "end_key"})),
          size(rs.column({"size_bytes", "size", "disk_size", "bytes"})),
          rows(rs.column({"rows", "row_count", "rows_estimate", "partitions"})),
          reads(rs.column({"reads_per_sec", "reads_per_second", "read_rate", "reads_s"})),
          writes(rs.column({"writes_per_sec", "writes_per_second", "write_rate", "writes_s"})),
          bytes(rs.column(
              {"bytes_per_sec", "bytes_written_per_sec", "write_bytes_per_sec", "bytes_s"})) {}
};

double num_or_zero(const ResultSet& rs, const protocol::Row& row, int col) {
    return rs.number(row, col).value_or(0);
}

void print_skew(std::ostream& out, std::string_view what, const std::vector<double>& loads) {
    diagnostics::SkewStats s = diagnostics::skew(loads);
    if (s.mean <= 0) {
        out << fmt::format("  Skew ({}): no load\n", what);
        return;
    }
    out << fmt::format("  Skew ({}): max {}, mean {}, max/mean {:.2f}, CV {:.2f}\n", what,
                       rate_text(s.max), rate_text(s.mean), s.max_over_mean, s.cv);
}

}  // namespace

Status cmd_status(client::Client& c, std::ostream& out) {
    // Every node of the cluster (one row on a single node), grouped by data
    // centre as nodetool status prints them.
    TESSEL_ASSIGN_OR_RETURN(ResultSet nodes, fetch(c, "SELECT * FROM system.cluster_nodes"));
    const int dc_col = nodes.column({"data_center"});
    std::map<std::string, std::vector<const protocol::Row*>> by_dc;
    for (const auto& r : nodes.rows)
        by_dc[nodes.text(r, dc_col)].push_back(&r);
    bool first = true;
    for (const auto& [dc, rows] : by_dc) {
        if (!first) out << "\n";
        first = false;
        out << "Datacenter: " << dc << "\n" << std::string(12 + dc.size(), '=') << "\n";
        out << "Status=Up/Down\n|/ State=Normal/Leaving/Joining/Moving\n";
        TextTable table({"--", "Address", "Load", "Tablets", "Host ID", "Rack"},
                        {false, false, true, true, false, false});
        for (const auto* r : rows) {
            table.add({nodes.text(*r, nodes.column({"status"})),
                       nodes.text(*r, nodes.column({"address"})),
                       human_bytes(num_or_zero(nodes, *r, nodes.column({"load_bytes"}))),
                       nodes.text(*r, nodes.column({"tablets"})),
                       nodes.text(*r, nodes.column({"host_id"})),
                       nodes.text(*r, nodes.column({"rack"}))});
        }
        table.print(out);
    }
    return Status::ok();
}

Status cmd_info(client::Client& c, std::ostream& out) {
    TESSEL_ASSIGN_OR_RETURN(ResultSet local, fetch(c, "SELECT * FROM system.local"));
    if (local.rows.empty()) return Status::server("system.local returned no row");
    const auto& row = local.rows[0];
    std::vector<std::pair<std::string, std::string>> lines = {
        {"ID", local.text(row, local.column({"host_id"}))},
        {"Cluster Name", local.text(row, local.column({"cluster_name"}))},
        {"Release Version", local.text(row, local.column({"release_version"}))},
        {"CQL Version", local.text(row, local.column({"cql_version"}))},
        {"Native Protocol", local.text(row, local.column({"native_protocol_version"}))},
        {"Partitioner", local.text(row, local.column({"partitioner"}))},
        {"Schema Version", local.text(row, local.column({"schema_version"}))},
        {"Data Center", local.text(row, local.column({"data_center"}))},
        {"Rack", local.text(row, local.column({"rack"}))},
        {"Address", local.text(row, local.column({"rpc_address", "broadcast_address"}))},
    };
    auto schema = fetch(c, "SELECT keyspace_name, table_name FROM system_schema.tables");
    if (schema.is_ok()) {
        std::set<std::string> keyspaces;
        size_t tables = 0;
        for (const auto& r : schema->rows) {
            std::string ks = schema->text(r, 0);
            if (is_system_keyspace(ks)) continue;
            keyspaces.insert(ks);
            ++tables;
        }
        lines.emplace_back("User Keyspaces", std::to_string(keyspaces.size()));
        lines.emplace_back("User Tables", std::to_string(tables));
    }
    auto tablets = fetch(c, "SELECT * FROM system.tablets");
    lines.emplace_back("Tablets",
                       tablets.is_ok() ? std::to_string(tablets->rows.size()) : "not available");
    auto large = fetch(c, "SELECT keyspace_name FROM system.large_partitions");
    lines.emplace_back("Large Partitions",
                       large.is_ok() ? std::to_string(large->rows.size()) : "not available");
    size_t w = 0;
    for (const auto& [k, v] : lines)
        w = std::max(w, k.size());
    for (const auto& [k, v] : lines)
        out << fmt::format("{:<{}} : {}\n", k, w, v);
    return Status::ok();
}

Status cmd_tablestats(client::Client& c, const TableRef& filter, std::ostream& out) {
    TESSEL_ASSIGN_OR_RETURN(ResultSet schema,
                            fetch(c, "SELECT keyspace_name, table_name FROM system_schema.tables"));
    std::map<std::string, std::vector<std::string>> tables;
    for (const auto& r : schema.rows) {
        std::string ks = schema.text(r, 0);
        std::string t = schema.text(r, 1);
        if (matches(filter, ks, t)) tables[ks].push_back(t);
    }
    if (tables.empty()) {
        return Status::invalid(filter.keyspace.empty()
                                   ? "No user tables"
                                   : fmt::format("No table matches {}{}", filter.keyspace,
                                                 filter.table.empty() ? "" : "." + filter.table));
    }
    auto tablets = fetch(c, "SELECT * FROM system.tablets");
    auto large = fetch(c, "SELECT keyspace_name, table_name FROM system.large_partitions");
    for (auto& [ks, names] : tables) {
        std::sort(names.begin(), names.end());
        out << "Keyspace : " << ks << "\n";
        for (const std::string& t : names) {
            out << "\tTable: " << t << "\n";
            if (tablets.is_ok()) {
                TabletColumns cols(*tablets);
                double size = 0, rows = 0, reads = 0, writes = 0, bytes = 0;
                std::vector<double> per_tablet;
                for (const auto& r : tablets->rows) {
                    if (tablets->text(r, cols.keyspace) != ks || tablets->text(r, cols.table) != t)
                        continue;
                    size += num_or_zero(*tablets, r, cols.size);
                    rows += num_or_zero(*tablets, r, cols.rows);
                    reads += num_or_zero(*tablets, r, cols.reads);
                    writes += num_or_zero(*tablets, r, cols.writes);
                    bytes += num_or_zero(*tablets, r, cols.bytes);
                    per_tablet.push_back(num_or_zero(*tablets, r, cols.writes));
                }
                diagnostics::SkewStats sk = diagnostics::skew(per_tablet);
                out << fmt::format("\tTablets: {}\n", per_tablet.size());
                out << fmt::format("\tSpace used: {}\n", human_bytes(size));
                out << fmt::format("\tRows (estimate): {:.0f}\n", rows);
                out << fmt::format("\tReads/s: {}\n\tWrites/s: {}\n\tBytes written/s: {}\n",
                                   rate_text(reads), rate_text(writes), rate_text(bytes));
                out << fmt::format("\tWrite skew (max/mean, CV): {:.2f}, {:.2f}\n",
                                   sk.max_over_mean, sk.cv);
            } else {
                out << "\tTablets: not available (" << tablets.status().message() << ")\n";
            }
            if (large.is_ok()) {
                size_t n = 0;
                for (const auto& r : large->rows) {
                    n += large->text(r, 0) == ks && large->text(r, 1) == t;
                }
                out << fmt::format("\tLarge partitions: {}\n", n);
            }
            auto hot = fetch(c,
                             "SELECT partition_key, count, window_start, window_end FROM "
                             "system.hot_partitions" +
                                 where_table({ks, t}) +
                                 " AND kind = 'writes' AND window = 'previous' LIMIT 1");
            if (hot.is_ok() && !hot->rows.empty()) {
                const auto& r = hot->rows[0];
                double secs = (num_or_zero(*hot, r, 3) - num_or_zero(*hot, r, 2)) / 1000.0;
                double count = num_or_zero(*hot, r, 1);
                out << fmt::format("\tHottest partition (writes): {} ({} writes/s)\n",
                                   hot->text(r, 0), rate_text(secs > 0 ? count / secs : 0));
            }
            out << "\n";
        }
    }
    return Status::ok();
}

Status cmd_tablets(client::Client& c, const TableRef& filter, std::ostream& out) {
    TESSEL_ASSIGN_OR_RETURN(ResultSet rs, fetch(c, "SELECT * FROM system.tablets"));
    TabletColumns cols(rs);
    std::map<std::pair<std::string, std::string>, std::vector<const protocol::Row*>> by_table;
    for (const auto& r : rs.rows) {
        std::string ks = rs.text(r, cols.keyspace);
        std::string t = rs.text(r, cols.table);
        if (matches(filter, ks, t)) by_table[{ks, t}].push_back(&r);
    }
    if (by_table.empty()) {
        out << "No tablets" << (filter.keyspace.empty() ? "" : " for " + filter.keyspace)
            << (filter.table.empty() ? "" : "." + filter.table) << "\n";
        return Status::ok();
    }
    // Every column but keyspace and table, in the server's order.
    std::vector<int> shown;
    std::vector<std::string> headers;
    std::vector<bool> numeric;
    for (size_t i = 0; i < rs.columns.size(); ++i) {
        int col = static_cast<int>(i);
        if (col == cols.keyspace || col == cols.table) continue;
        shown.push_back(col);
        headers.push_back(rs.columns[i].name);
        auto k = rs.columns[i].type ? rs.columns[i].type->kind : TypeKind::kBlob;
        numeric.push_back(k == TypeKind::kInt || k == TypeKind::kBigint || k == TypeKind::kDouble ||
                          k == TypeKind::kFloat || k == TypeKind::kCounter ||
                          k == TypeKind::kVarint || k == TypeKind::kDecimal ||
                          k == TypeKind::kSmallint || k == TypeKind::kTinyint);
    }
    for (const auto& [key, rows] : by_table) {
        out << "Table " << key.first << "." << key.second << ": " << rows.size() << " tablets\n";
        TextTable table(headers, numeric);
        std::vector<double> reads, writes, bytes, sizes;
        for (const protocol::Row* r : rows) {
            std::vector<std::string> cells;
            for (int col : shown) {
                auto n = rs.number(*r, col);
                bool is_rate = col == cols.reads || col == cols.writes || col == cols.bytes;
                cells.push_back(is_rate && n ? rate_text(*n) : rs.text(*r, col));
            }
            table.add(std::move(cells));
            reads.push_back(num_or_zero(rs, *r, cols.reads));
            writes.push_back(num_or_zero(rs, *r, cols.writes));
            bytes.push_back(num_or_zero(rs, *r, cols.bytes));
            sizes.push_back(num_or_zero(rs, *r, cols.size));
        }
        table.print(out, "  ");
        if (cols.reads >= 0) print_skew(out, "reads/s", reads);
        if (cols.writes >= 0) print_skew(out, "writes/s", writes);
        if (cols.bytes >= 0) print_skew(out, "bytes/s", bytes);
        if (cols.size >= 0) print_skew(out, "size", sizes);
        out << "\n";
    }
    return Status::ok();
}

namespace {

struct HotSnapshot {
    // (kind, window) -> view and window bounds
    struct Part {
        TopKView view;
        double window_start = 0;
        double window_end = 0;
    };
    std::map<std::pair<std::string, std::string>, Part> parts;
};

Result<HotSnapshot> read_hot(client::Client& c, const TableRef& t) {
    TESSEL_ASSIGN_OR_RETURN(
        ResultSet rs, fetch(c,
                            "SELECT kind, window, rank, partition_key, count, error, "
                            "unlisted_max, window_start, window_end FROM system.hot_partitions" +
                                where_table(t)));
    HotSnapshot snap;
    for (const auto& r : rs.rows) {
        auto& part = snap.parts[{rs.text(r, 0), rs.text(r, 1)}];
        TopKEntry e;
        e.key = rs.text(r, 3);
        e.display = e.key;
        e.count = static_cast<uint64_t>(num_or_zero(rs, r, 4));
        e.error = static_cast<uint64_t>(num_or_zero(rs, r, 5));
        part.view.entries.push_back(std::move(e));
        part.view.floor = static_cast<uint64_t>(num_or_zero(rs, r, 6));
        part.window_start = num_or_zero(rs, r, 7);
        part.window_end = num_or_zero(rs, r, 8);
    }
    return snap;
}

}  // namespace

Status cmd_toppartitions(client::Client& c, const TableRef& table, int64_t duration_ms, size_t top,
                         std::ostream& out) {
    TESSEL_ASSIGN_OR_RETURN(HotSnapshot before, read_hot(c, table));
    out << fmt::format("Sampling {}.{} for {} ms...\n", table.keyspace, table.table, duration_ms);
    out.flush();
    std::this_thread::sleep_for(std::chrono::milliseconds(duration_ms));
    TESSEL_ASSIGN_OR_RETURN(HotSnapshot after, read_hot(c, table));
    for (const char* kind : {"reads", "writes", "bytes"}) {
        const auto* cur_before = &before.parts[{kind, "current"}];
        const auto& cur_after = after.parts[{kind, "current"}];
        const auto& prev_after = after.parts[{kind, "previous"}];
        TopKView result;
        std::string covered;
        // Same window: the difference is exactly the sampled interval. The
        // window rolled once: the rest of the old window (now "previous")
        // plus the new one. Rolled more: only the last windows are known.
        bool before_known = !cur_before->view.entries.empty();
        if (!before_known) {
            // Nothing was counted in the window open at the first read, so
            // everything counted since happened while sampling.
            bool same_window =
                cur_after.window_end - cur_after.window_start >= static_cast<double>(duration_ms);
            result = same_window ? cur_after.view
                                 : diagnostics::merge_views({&prev_after.view, &cur_after.view});
            covered = fmt::format("the {} ms sampled", duration_ms);
        } else if (cur_after.window_start == cur_before->window_start) {
            result = diagnostics::diff_views(cur_before->view, cur_after.view);
            covered = fmt::format("the {} ms sampled", duration_ms);
        } else if (prev_after.window_start == cur_before->window_start) {
            TopKView tail = diagnostics::diff_views(cur_before->view, prev_after.view);
            result = diagnostics::merge_views({&tail, &cur_after.view});
            covered = fmt::format("the {} ms sampled", duration_ms);
        } else {
            result = diagnostics::merge_views({&prev_after.view, &cur_after.view});
            double span =
                cur_after.window_end -
                (prev_after.window_start > 0 ? prev_after.window_start : cur_after.window_start);
            covered = fmt::format(
                "the server's last {:.0f} ms (its windows are shorter than the "
                "sampling duration)",
                span);
        }
        std::string upper = kind;
        for (char& ch : upper)
            ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        out << upper << " Sampler (" << covered << "):\n";
        out << fmt::format("  Cardinality: ~{}\n", result.entries.size());
        out << fmt::format("  Top {} partitions:\n", std::min(top, result.entries.size()));
        TextTable t({"Partition", "Count", "+/-"}, {false, true, true});
        for (size_t i = 0; i < result.entries.size() && i < top; ++i) {
            const TopKEntry& e = result.entries[i];
            t.add({e.display, std::to_string(e.count), std::to_string(e.error)});
        }
        if (t.size() > 0) t.print(out, "\t");
        out << "\n";
    }
    return Status::ok();
}

Status cmd_largepartitions(client::Client& c, const TableRef& filter, std::ostream& out) {
    TESSEL_ASSIGN_OR_RETURN(ResultSet rs, fetch(c, "SELECT * FROM system.large_partitions"));
    int ks = rs.column({"keyspace_name"});
    int tb = rs.column({"table_name"});
    int key = rs.column({"partition_key"});
    int size = rs.column({"partition_size"});
    int rows = rs.column({"rows"});
    int tombs = rs.column({"tombstones"});
    int first = rs.column({"first_seen"});
    int last = rs.column({"last_seen"});
    std::vector<const protocol::Row*> selected;
    for (const auto& r : rs.rows) {
        if (matches(filter, rs.text(r, ks), rs.text(r, tb))) selected.push_back(&r);
    }
    std::sort(selected.begin(), selected.end(), [&](auto* a, auto* b) {
        return num_or_zero(rs, *a, size) > num_or_zero(rs, *b, size);
    });
    if (selected.empty()) {
        out << "No large partitions\n";
        return Status::ok();
    }
    TextTable t({"Table", "Partition", "Size", "Rows", "Tombstones", "First seen", "Last seen"},
                {false, false, true, true, true, false, false});
    for (const auto* r : selected) {
        t.add({rs.text(*r, ks) + "." + rs.text(*r, tb), rs.text(*r, key),
               human_bytes(num_or_zero(rs, *r, size)), rs.text(*r, rows), rs.text(*r, tombs),
               rs.text(*r, first), rs.text(*r, last)});
    }
    t.print(out);
    out << fmt::format("\n({} large partitions)\n", selected.size());
    return Status::ok();
}

Status cmd_advise(client::Client& c, const TableRef& table, std::ostream& out) {
    TESSEL_ASSIGN_OR_RETURN(
        ResultSet rs,
        fetch(c, "SELECT rank, kind, message, statement FROM system.partition_advice" +
                     where_table(table)));
    out << fmt::format("Advice for {}.{}:\n", table.keyspace, table.table);
    if (rs.rows.empty()) {
        out << "No statistics for this table yet (has it taken reads or writes?)\n";
        return Status::ok();
    }
    std::vector<const protocol::Row*> rows;
    for (const auto& r : rs.rows)
        rows.push_back(&r);
    std::sort(rows.begin(), rows.end(),
              [&](auto* a, auto* b) { return num_or_zero(rs, *a, 0) < num_or_zero(rs, *b, 0); });
    for (const auto* r : rows) {
        out << fmt::format("{}. [{}] {}\n", rs.text(*r, 0), rs.text(*r, 1), rs.text(*r, 2));
        const auto& stmt = (*r)[3];
        if (stmt && !stmt->empty()) out << "   " << *stmt << "\n";
    }
    return Status::ok();
}

Status cmd_repair(client::Client& c, const TableRef& scope, std::ostream& out) {
    diagnostics::AdminCall call;
    call.op = diagnostics::AdminCall::Op::kRepair;
    call.keyspace = scope.keyspace;
    call.table = scope.table;
    TESSEL_ASSIGN_OR_RETURN(ResultSet r, fetch(c, diagnostics::admin_call_text(call)));
    TextTable table({"Keyspace", "Table", "Ranges", "Mismatched", "Partitions"},
                    {false, false, true, true, true});
    for (const auto& row : r.rows) {
        std::vector<std::string> cells;
        for (size_t i = 0; i < 5; ++i)
            cells.push_back(r.text(row, static_cast<int>(i)));
        table.add(cells);
    }
    table.print(out);
    return Status::ok();
}

Status cmd_node_leaves(client::Client& c, const std::string& removed_host_id, std::ostream& out) {
    diagnostics::AdminCall call;
    call.op = removed_host_id.empty() ? diagnostics::AdminCall::Op::kDecommission
                                      : diagnostics::AdminCall::Op::kRemoveNode;
    call.host_id = removed_host_id;
    auto r = c.query(diagnostics::admin_call_text(call));
    if (!r.is_ok()) return r.status();
    if (removed_host_id.empty()) {
        out << "Decommissioned: every tablet replica moved to the other nodes; the node left "
               "the cluster\n";
    } else {
        out << "Removed " << removed_host_id << ": its tablet replicas are rebuilt\n";
    }
    return Status::ok();
}

Status cmd_flush_or_compact(client::Client& c, bool compact, const TableRef& scope,
                            std::ostream& out) {
    diagnostics::AdminCall call;
    call.op = compact ? diagnostics::AdminCall::Op::kCompact : diagnostics::AdminCall::Op::kFlush;
    call.keyspace = scope.keyspace;
    call.table = scope.table;
    auto r = c.query(diagnostics::admin_call_text(call));
    if (!r.is_ok()) return r.status();
    std::string what = scope.keyspace.empty()
                           ? "all tables"
                           : scope.keyspace + (scope.table.empty() ? "" : "." + scope.table);
    out << (compact ? "Compacted " : "Flushed ") << what << "\n";
    return Status::ok();
}

}  // namespace tessel::admin
