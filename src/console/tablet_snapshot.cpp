#include "console/tablet_snapshot.h"

#include <fmt/format.h>

#include <charconv>
#include <cstring>
#include <limits>

namespace tessel::console {

namespace {

uint64_t be(const std::string& s, size_t off, size_t n) {
    uint64_t v = 0;
    for (size_t i = 0; i < n && off + i < s.size(); ++i)
        v = (v << 8) | static_cast<uint8_t>(s[off + i]);
    return v;
}

bool system_keyspace(const std::string& ks) {
    return ks == "system" || ks.rfind("system_", 0) == 0;
}

void place_bands(TableTablets* t) {
    const size_t n = t->tablets.size();
    for (size_t i = 0; i < n; ++i) {
        TabletRow& r = t->tablets[i];
        if (t->ordered) {
            r.y0 = static_cast<double>(i) / static_cast<double>(n);
            r.y1 = static_cast<double>(i + 1) / static_cast<double>(n);
            continue;
        }
        auto start = parse_token(r.range_start);
        auto end = parse_token(r.range_end);
        r.y0 = start ? token_fraction(*start) : 0;
        r.y1 = end ? token_fraction(static_cast<long double>(*end) + 1) : 1;
    }
}

}  // namespace

double token_fraction(long double token) {
    const long double min = std::numeric_limits<int64_t>::min();
    return static_cast<double>((token - min) / 18446744073709551616.0L);
}

std::optional<int64_t> parse_token(const std::string& text) {
    int64_t v = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || p != text.data() + text.size() || text.empty()) return std::nullopt;
    return v;
}

std::string cell_text(const std::optional<std::string>& v) {
    return v ? *v : std::string();
}

int64_t cell_bigint(const std::optional<std::string>& v) {
    return v && v->size() == 8 ? static_cast<int64_t>(be(*v, 0, 8)) : 0;
}

int64_t cell_timestamp(const std::optional<std::string>& v) {
    return cell_bigint(v);
}

int32_t cell_int(const std::optional<std::string>& v) {
    return v && v->size() == 4 ? static_cast<int32_t>(be(*v, 0, 4)) : 0;
}

double cell_double(const std::optional<std::string>& v) {
    if (!v || v->size() != 8) return 0;
    const uint64_t bits = be(*v, 0, 8);
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
}

std::vector<std::string> cell_text_list(const std::optional<std::string>& v) {
    std::vector<std::string> out;
    if (!v || v->size() < 4) return out;
    const auto n = static_cast<int32_t>(be(*v, 0, 4));
    size_t off = 4;
    for (int32_t i = 0; i < n && off + 4 <= v->size(); ++i) {
        const auto len = static_cast<int32_t>(be(*v, off, 4));
        off += 4;
        if (len < 0 || off + static_cast<size_t>(len) > v->size()) break;
        out.push_back(v->substr(off, static_cast<size_t>(len)));
        off += static_cast<size_t>(len);
    }
    return out;
}

std::string cell_inet(const std::optional<std::string>& v) {
    if (!v) return "";
    if (v->size() == 4) {
        return fmt::format("{}.{}.{}.{}", be(*v, 0, 1), be(*v, 1, 1), be(*v, 2, 1), be(*v, 3, 1));
    }
    if (v->size() == 16) {
        std::string out;
        for (size_t i = 0; i < 16; i += 2)
            out += fmt::format("{}{:x}", i ? ":" : "", be(*v, i, 2));
        return out;
    }
    return "";
}

std::string cell_uuid(const std::optional<std::string>& v) {
    if (!v || v->size() != 16) return "";
    std::string out;
    for (size_t i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
        out += fmt::format("{:02x}", static_cast<uint8_t>((*v)[i]));
    }
    return out;
}

Result<std::vector<TableTablets>> read_tablets(Database& db) {
    auto session = db.new_session();
    TESSEL_ASSIGN_OR_RETURN(
        ResultSet rs,
        session->execute("SELECT keyspace_name, table_name, tablet_id, range_start, range_end, "
                         "shard, size_bytes, rows, reads_per_sec, writes_per_sec, bytes_per_sec, "
                         "replicas, stage FROM system.tablets",
                         {}));
    std::vector<TableTablets> out;
    for (const auto& row : rs.rows) {
        if (row.size() < 13) continue;
        std::string ks = cell_text(row[0]), table = cell_text(row[1]);
        if (system_keyspace(ks)) continue;
        if (out.empty() || out.back().keyspace != ks || out.back().table != table) {
            out.push_back(TableTablets{ks, table, false, {}});
        }
        TabletRow t;
        t.id = cell_bigint(row[2]);
        t.range_start = cell_text(row[3]);
        t.range_end = cell_text(row[4]);
        t.shard = cell_int(row[5]);
        t.size_bytes = cell_bigint(row[6]);
        t.rows = cell_bigint(row[7]);
        t.reads_per_sec = cell_double(row[8]);
        t.writes_per_sec = cell_double(row[9]);
        t.bytes_per_sec = cell_double(row[10]);
        t.replicas = cell_text_list(row[11]);
        if (row[12]) t.stage = *row[12];
        out.back().tablets.push_back(std::move(t));
    }
    for (TableTablets& t : out) {
        // Hash tablets start at a token (the first at INT64_MIN); the first
        // tablet of an ordered table starts at the empty key.
        t.ordered = !t.tablets.empty() && !parse_token(t.tablets.front().range_start);
        place_bands(&t);
    }
    return out;
}

Result<std::vector<NodeRow>> read_nodes(Database& db) {
    auto session = db.new_session();
    std::vector<NodeRow> out;
    TESSEL_ASSIGN_OR_RETURN(
        ResultSet local,
        session->execute("SELECT rpc_address, host_id, data_center, rack FROM system.local", {}));
    for (const auto& row : local.rows) {
        if (row.size() < 4) continue;
        out.push_back(NodeRow{cell_inet(row[0]), cell_uuid(row[1]), cell_text(row[2]),
                              cell_text(row[3]), true});
    }
    auto peers =
        session->execute("SELECT rpc_address, host_id, data_center, rack FROM system.peers", {});
    if (peers.is_ok()) {
        for (const auto& row : peers->rows) {
            if (row.size() < 4) continue;
            out.push_back(NodeRow{cell_inet(row[0]), cell_uuid(row[1]), cell_text(row[2]),
                                  cell_text(row[3]), false});
        }
    }
    return out;
}

}  // namespace tessel::console
