#include "console/api.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <set>

#include "console/tablet_snapshot.h"
#include "diagnostics/hot_partitions.h"
#include "embedded/partition_health.h"
#include "partition/murmur3.h"
#include "partition/token.h"

namespace tessel::console {

namespace {

using json = nlohmann::json;

constexpr int64_t kMaxSinceMs = 86400LL * 1000;  // the aggregated history's reach
constexpr size_t kMaxColumns = 360;
constexpr size_t kMaxHotLimit = 1000;

ApiResponse ok(const json& body) {
    return {200, body.dump(-1, ' ', false, json::error_handler_t::replace)};
}

ApiResponse error(int status, const std::string& message) {
    return {status, json{{"error", message}}.dump(-1, ' ', false, json::error_handler_t::replace)};
}

std::optional<std::string> param(const ApiParams& params, const std::string& name) {
    auto it = params.find(name);
    if (it == params.end()) return std::nullopt;
    return it->second;
}

struct TableRef {
    std::string keyspace;
    std::string table;
    std::string name() const { return keyspace + "." + table; }
};

// ?table=: absent or empty for every table; else keyspace.table of an
// existing table. Sets *failure (400 or 404) when not.
std::optional<TableRef> table_param(Database& db, const ApiParams& params, ApiResponse* failure) {
    auto text = param(params, "table");
    if (!text || text->empty()) return std::nullopt;
    const size_t dot = text->find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == text->size() ||
        text->find('.', dot + 1) != std::string::npos) {
        *failure = error(400, "table must be keyspace.table, not '" + *text + "'");
        return std::nullopt;
    }
    TableRef ref{text->substr(0, dot), text->substr(dot + 1)};
    bool known = false;
    if (const auto* health = db.partition_health()) {
        known = health->table_schema(ref.keyspace, ref.table).info != nullptr;
    } else if (auto tables = read_tablets(db); tables.is_ok()) {
        for (const auto& t : *tables)
            known = known || t.name() == ref.name();
    }
    if (!known) {
        *failure = error(404, "unknown table " + ref.name());
        return std::nullopt;
    }
    return ref;
}

bool selected(const std::optional<TableRef>& ref, const std::string& keyspace,
              const std::string& table) {
    return !ref || (ref->keyspace == keyspace && ref->table == table);
}

json tablet_json(const TabletRow& r) {
    json j = {{"id", r.id},
              {"range_start", r.range_start},
              {"range_end", r.range_end},
              {"shard", r.shard},
              {"size_bytes", r.size_bytes},
              {"rows", r.rows},
              {"reads_per_sec", r.reads_per_sec},
              {"writes_per_sec", r.writes_per_sec},
              {"bytes_per_sec", r.bytes_per_sec},
              {"replicas", r.replicas},
              {"y0", r.y0},
              {"y1", r.y1}};
    j["stage"] = r.stage ? json(*r.stage) : json(nullptr);
    return j;
}

json ranges_json(const std::vector<TabletRange>& ranges) {
    json out = json::array();
    for (const auto& r : ranges)
        out.push_back({{"range_start", r.start}, {"range_end", r.end}});
    return out;
}

const char* metric_unit(HeatMetric m) {
    switch (m) {
        case HeatMetric::kWrites:
            return "writes/s";
        case HeatMetric::kReads:
            return "reads/s";
        case HeatMetric::kBytesWritten:
            return "bytes/s";
        case HeatMetric::kSize:
            return "bytes";
    }
    return "";
}

// The tablet of a hot partition of a hash table without hidden key
// components (the key's token decides it); null otherwise.
json tablet_of(const cql::TableInfo* info, const TableTablets* tablets,
               const std::string& sketch_key) {
    if (!info || !tablets || !info->hashed || info->has_hidden_key() || tablets->ordered) {
        return nullptr;
    }
    const auto comps = embedded::partition_key_components(sketch_key);
    if (comps.empty()) return nullptr;
    std::vector<std::string_view> views(comps.begin(), comps.end());
    const int64_t token = murmur3_token(serialize_partition_key(views));
    for (const TabletRow& r : tablets->tablets) {
        auto start = parse_token(r.range_start);
        auto end = parse_token(r.range_end);
        if (start && end && *start <= token && token <= *end) {
            return {{"id", r.id}, {"range_start", r.range_start}, {"range_end", r.range_end}};
        }
    }
    return nullptr;
}

}  // namespace

std::optional<int64_t> parse_since_ms(const std::string& text, int64_t now_ms) {
    if (text.empty()) return std::nullopt;
    if (text.size() >= 13 && text.find_first_not_of("0123456789") == std::string::npos) {
        int64_t at = 0;
        auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), at);
        if (ec != std::errc() || at > now_ms || now_ms - at > kMaxSinceMs) return std::nullopt;
        return std::max<int64_t>(now_ms - at, 1);
    }
    int64_t unit = 1000;
    std::string digits = text;
    switch (text.back()) {
        case 's':
            digits.pop_back();
            break;
        case 'm':
            unit = 60000;
            digits.pop_back();
            break;
        case 'h':
            unit = 3600000;
            digits.pop_back();
            break;
        case 'd':
            unit = 86400000;
            digits.pop_back();
            break;
        default:
            break;
    }
    int64_t n = 0;
    auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (digits.empty() || ec != std::errc() || p != digits.data() + digits.size() || n < 1 ||
        n > kMaxSinceMs / unit) {
        return std::nullopt;
    }
    return n * unit;
}

ConsoleApi::ConsoleApi(Database& db, const HeatmapHistory& history, const TabletChanges& changes)
    : db_(db), history_(history), changes_(changes) {}

ApiResponse ConsoleApi::handle(const std::string& name, const ApiParams& params) const {
    if (name == "tablets") return tablets(params);
    if (name == "heatmap") return heatmap(params);
    if (name == "hot") return hot(params);
    if (name == "large") return large(params);
    if (name == "advice") return advice(params);
    return error(404, "no endpoint /api/" + name);
}

ApiResponse ConsoleApi::tablets(const ApiParams& params) const {
    ApiResponse failure;
    auto ref = table_param(db_, params, &failure);
    if (failure.status != 200) return failure;
    auto tables = read_tablets(db_);
    if (!tables.is_ok()) return error(500, tables.status().message());
    json nodes = json::array();
    if (auto rows = read_nodes(db_); rows.is_ok()) {
        for (const NodeRow& n : *rows) {
            nodes.push_back({{"address", n.address},
                             {"host_id", n.host_id},
                             {"data_center", n.data_center},
                             {"rack", n.rack},
                             {"local", n.local}});
        }
    }
    json out_tables = json::array();
    for (const TableTablets& t : *tables) {
        if (!selected(ref, t.keyspace, t.table)) continue;
        json list = json::array();
        for (const TabletRow& r : t.tablets)
            list.push_back(tablet_json(r));
        json history = json::array();
        for (const TabletChange& c : changes_.history(t.name())) {
            history.push_back({{"at", c.at},
                               {"kind", c.kind},
                               {"from", ranges_json(c.from)},
                               {"to", ranges_json(c.to)}});
        }
        out_tables.push_back({{"keyspace", t.keyspace},
                              {"table", t.table},
                              {"name", t.name()},
                              {"ordered", t.ordered},
                              {"tablets", std::move(list)},
                              {"history", std::move(history)}});
    }
    return ok({{"time", diagnostics::now_ms()}, {"nodes", nodes}, {"tables", out_tables}});
}

ApiResponse ConsoleApi::heatmap(const ApiParams& params) const {
    ApiResponse failure;
    auto ref = table_param(db_, params, &failure);
    if (failure.status != 200) return failure;
    HeatMetric metric = HeatMetric::kWrites;
    if (auto m = param(params, "metric"); m && !m->empty() && !parse_heat_metric(*m, &metric)) {
        return error(400, "metric must be writes, reads, bytes_written or size, not '" + *m + "'");
    }
    const diagnostics::TimeMs now = diagnostics::now_ms();
    int64_t since_ms = 3600 * 1000;
    if (auto s = param(params, "since"); s && !s->empty()) {
        auto parsed = parse_since_ms(*s, now);
        if (!parsed) {
            return error(400,
                         "since must be a duration from 1 s to 1 d (3600, 90s, 15m, 1h, 1d) or a "
                         "time in ms since the epoch within the last day, not '" +
                             *s + "'");
        }
        since_ms = *parsed;
    }
    std::vector<HeatFrame> frames = downsample(history_.since(now - since_ms), kMaxColumns);
    // The tables on the y axis: those of the newest frame, each an equal
    // share of the axis when every table is shown.
    std::vector<std::string> names;
    if (!frames.empty()) {
        for (const HeatBand& b : frames.back().bands) {
            if (std::find(names.begin(), names.end(), b.table) == names.end() &&
                (!ref || b.table == ref->name())) {
                names.push_back(b.table);
            }
        }
    }
    if (ref && names.empty()) names.push_back(ref->name());
    const double share = names.empty() ? 1.0 : 1.0 / static_cast<double>(names.size());
    json tables = json::array();
    for (size_t i = 0; i < names.size(); ++i) {
        tables.push_back({{"name", names[i]},
                          {"y0", static_cast<double>(i) * share},
                          {"y1", static_cast<double>(i + 1) * share}});
    }
    double max = 0;
    json columns = json::array();
    for (const HeatFrame& f : frames) {
        json bands = json::array();
        for (const HeatBand& b : f.bands) {
            auto it = std::find(names.begin(), names.end(), b.table);
            if (it == names.end()) continue;
            const double base = static_cast<double>(it - names.begin()) * share;
            const double v = b.value(metric);
            max = std::max(max, v);
            bands.push_back({{"table", b.table},
                             {"range_start", b.range_start},
                             {"range_end", b.range_end},
                             {"y0", base + b.y0 * share},
                             {"y1", base + b.y1 * share},
                             {"value", v}});
        }
        columns.push_back({{"at", f.at}, {"span_ms", f.span_ms}, {"bands", std::move(bands)}});
    }
    json out = {{"metric", heat_metric_name(metric)},
                {"unit", metric_unit(metric)},
                {"now", now},
                {"since_ms", since_ms},
                {"resolution_ms", history_.options().resolution_ms},
                {"max", max},
                {"tables", tables},
                {"columns", columns}};
    out["table"] = ref ? json(ref->name()) : json(nullptr);
    return ok(out);
}

ApiResponse ConsoleApi::hot(const ApiParams& params) const {
    ApiResponse failure;
    auto ref = table_param(db_, params, &failure);
    if (failure.status != 200) return failure;
    diagnostics::HotKind kind = diagnostics::HotKind::kWrites;
    if (auto k = param(params, "kind"); k && !k->empty()) {
        bool found = false;
        for (auto candidate : diagnostics::kHotKinds) {
            if (*k == diagnostics::hot_kind_name(candidate)) {
                kind = candidate;
                found = true;
            }
        }
        if (!found) return error(400, "kind must be writes, reads or bytes, not '" + *k + "'");
    }
    size_t limit = 20;
    if (auto l = param(params, "limit"); l && !l->empty()) {
        size_t n = 0;
        auto [p, ec] = std::from_chars(l->data(), l->data() + l->size(), n);
        if (ec != std::errc() || p != l->data() + l->size() || n < 1 || n > kMaxHotLimit) {
            return error(400, "limit must be a number from 1 to 1000, not '" + *l + "'");
        }
        limit = n;
    }
    const auto* health = db_.partition_health();
    json partitions = json::array();
    json out = {{"kind", diagnostics::hot_kind_name(kind)}, {"limit", limit}};
    int64_t window_ms = 0;
    if (health) {
        window_ms = health->options().hot.window_ms;
        auto tablets = read_tablets(db_);
        const diagnostics::TimeMs now = diagnostics::now_ms();
        for (const auto& entry : health->hot().list()) {
            if (!selected(ref, entry.keyspace, entry.table)) continue;
            const auto current = entry.hot->current(now, limit);
            const auto previous = entry.hot->previous(now, limit);
            const auto merged = diagnostics::merge_views({&previous.of(kind), &current.of(kind)});
            const auto schema = health->table_schema(entry.keyspace, entry.table);
            const TableTablets* table_tablets = nullptr;
            if (tablets.is_ok()) {
                for (const auto& t : *tablets) {
                    if (t.keyspace == entry.keyspace && t.table == entry.table) table_tablets = &t;
                }
            }
            const auto window_start =
                previous.of(kind).entries.empty() ? current.start : previous.start;
            int rank = 0;
            for (const auto& e : merged.entries) {
                if (rank >= static_cast<int>(limit)) break;
                partitions.push_back(
                    {{"table", entry.keyspace + "." + entry.table},
                     {"rank", ++rank},
                     {"partition_key", e.display},
                     {"count", e.count},
                     {"error", e.error},
                     {"lower_bound", e.count - e.error},
                     {"unlisted_max", merged.floor},
                     {"window_start", window_start},
                     {"tablet", tablet_of(schema.info.get(), table_tablets, e.key)}});
            }
        }
    }
    std::stable_sort(partitions.begin(), partitions.end(), [](const json& a, const json& b) {
        return a["count"].get<uint64_t>() > b["count"].get<uint64_t>();
    });
    if (partitions.size() > limit)
        partitions.erase(partitions.begin() + static_cast<long>(limit), partitions.end());
    out["window_ms"] = window_ms;
    out["partitions"] = std::move(partitions);
    return ok(out);
}

ApiResponse ConsoleApi::large(const ApiParams& params) const {
    ApiResponse failure;
    auto ref = table_param(db_, params, &failure);
    if (failure.status != 200) return failure;
    json partitions = json::array();
    json thresholds = json::object();
    if (const auto* health = db_.partition_health()) {
        auto records = health->large().records();
        std::stable_sort(records.begin(), records.end(), [](const auto& a, const auto& b) {
            return a.partition_size > b.partition_size;
        });
        for (const auto& r : records) {
            if (!selected(ref, r.keyspace, r.table)) continue;
            partitions.push_back({{"table", r.keyspace + "." + r.table},
                                  {"partition_key", r.partition_key},
                                  {"size_bytes", r.partition_size},
                                  {"rows", r.rows},
                                  {"tombstones", r.tombstones},
                                  {"first_seen", r.first_seen},
                                  {"last_seen", r.last_seen}});
        }
        const auto& t = health->large().thresholds();
        thresholds = {{"partition_size_warn_threshold", t.partition_size_warn_threshold},
                      {"partition_rows_warn_threshold", t.partition_rows_warn_threshold}};
    }
    return ok({{"partitions", partitions}, {"thresholds", thresholds}});
}

ApiResponse ConsoleApi::advice(const ApiParams& params) const {
    ApiResponse failure;
    auto ref = table_param(db_, params, &failure);
    if (failure.status != 200) return failure;
    auto session = db_.new_session();
    auto rs = session->execute(
        "SELECT keyspace_name, table_name, rank, kind, message, statement "
        "FROM system.partition_advice",
        {});
    if (!rs.is_ok()) return error(500, rs.status().message());
    json advice = json::array();
    for (const auto& row : rs->rows) {
        if (row.size() < 6) continue;
        const std::string ks = cell_text(row[0]), table = cell_text(row[1]);
        if (!selected(ref, ks, table)) continue;
        json a = {{"table", ks + "." + table},
                  {"rank", cell_int(row[2])},
                  {"kind", cell_text(row[3])},
                  {"message", cell_text(row[4])}};
        a["statement"] = row[5] ? json(*row[5]) : json(nullptr);
        advice.push_back(std::move(a));
    }
    return ok({{"advice", advice}});
}

}  // namespace tessel::console
