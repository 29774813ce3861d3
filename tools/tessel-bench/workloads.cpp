#include "workloads.h"

#include <array>
#include <atomic>
#include <chrono>

namespace tessel::bench {
namespace {

int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// Raises `a` to at least `v`.
void raise_to(std::atomic<uint64_t>& a, uint64_t v) {
    uint64_t cur = a.load(std::memory_order_relaxed);
    while (cur < v && !a.compare_exchange_weak(cur, v, std::memory_order_relaxed)) {
    }
}

// A uniform index below the number written so far (below `cap`), or below
// `cap` when nothing was written yet.
uint64_t pick_written(const std::atomic<uint64_t>& written, uint64_t cap, Rng& rng) {
    uint64_t n = std::min(written.load(std::memory_order_relaxed), cap);
    if (n == 0) n = cap;
    return rng() % n;
}

Workload kv(const WorkloadOptions& o) {
    struct State {
        explicit State(uint64_t keys) : scatter(keys) {}
        KeyScatter scatter;
        std::atomic<uint64_t> written{0};
    };
    auto st = std::make_shared<State>(o.keys);
    Workload w;
    w.name = "kv";
    w.state = st;
    w.cql_schema = {{"CREATE TABLE bench.kv (k bigint PRIMARY KEY, v blob)", "", ""}};
    w.pg_schema = {"CREATE TABLE bench.kv (k bigint PRIMARY KEY, v bytea)"};
    size_t vs = o.value_size;
    Phase write;
    write.name = "write";
    write.cql = "INSERT INTO bench.kv (k, v) VALUES (?, ?)";
    write.pg_sql =
        "INSERT INTO bench.kv (k, v) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET v = "
        "EXCLUDED.v";
    write.write_bytes = vs;
    write.make = [st, vs](uint64_t seq, Rng&, std::vector<Value>* out) {
        uint64_t key = st->scatter(seq);
        raise_to(st->written, seq + 1);
        out->push_back(Value::bigint(static_cast<int64_t>(key)));
        out->push_back(Value::blob(payload_for(key, vs)));
    };
    Phase read;
    read.name = "read";
    read.is_write = false;
    read.cql = "SELECT v FROM bench.kv WHERE k = ?";
    read.pg_sql = "SELECT v FROM bench.kv WHERE k = $1";
    read.make = [st](uint64_t, Rng& rng, std::vector<Value>* out) {
        uint64_t key = st->scatter(pick_written(st->written, st->scatter.size(), rng));
        out->push_back(Value::bigint(static_cast<int64_t>(key)));
    };
    w.phases = {write, read};
    return w;
}

Workload logistics(const WorkloadOptions& o) {
    struct State {
        uint64_t orders;
        int64_t base_ms;
        std::atomic<uint64_t> appended{0};
    };
    auto st = std::make_shared<State>();
    st->orders = std::max<uint64_t>(o.orders, 1);
    st->base_ms = now_ms() - 86'400'000;  // events start yesterday, one per ms
    Workload w;
    w.name = "logistics";
    w.state = st;
    w.cql_schema = {
        {"CREATE TABLE bench.order_events (order_id bigint, event_time timestamp, seq int, "
         "status text, location text, PRIMARY KEY (order_id, event_time, seq)) WITH "
         "CLUSTERING ORDER BY (event_time DESC, seq ASC)",
         "", ""}};
    // PostgreSQL cannot declare a descending primary key; the latest-10 query
    // walks the same index backwards (event times are unique per event).
    w.pg_schema = {
        "CREATE TABLE bench.order_events (order_id bigint, event_time timestamp, seq integer, "
        "status text, location text, PRIMARY KEY (order_id, event_time, seq))"};
    static const std::array<const char*, 6> kStatus = {"created", "picked",           "in_transit",
                                                       "at_hub",  "out_for_delivery", "delivered"};
    Phase append;
    append.name = "append";
    append.cql =
        "INSERT INTO bench.order_events (order_id, event_time, seq, status, location) "
        "VALUES (?, ?, ?, ?, ?)";
    append.pg_sql =
        "INSERT INTO bench.order_events (order_id, event_time, seq, status, location) "
        "VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING";
    append.write_bytes = 40;
    append.make = [st](uint64_t seq, Rng& rng, std::vector<Value>* out) {
        raise_to(st->appended, seq + 1);
        uint64_t order = rng() % st->orders;
        out->push_back(Value::bigint(static_cast<int64_t>(order)));
        out->push_back(Value::timestamp_ms(st->base_ms + static_cast<int64_t>(seq)));
        out->push_back(Value::int32(static_cast<int32_t>(seq & 0x7fffffff)));
        out->push_back(Value::text(kStatus[seq % kStatus.size()]));
        out->push_back(Value::text("hub-" + std::to_string(order % 97)));
    };
    Phase latest;
    latest.name = "latest10";
    latest.is_write = false;
    latest.cql =
        "SELECT order_id, event_time, seq, status, location FROM bench.order_events "
        "WHERE order_id = ? LIMIT 10";
    latest.pg_sql =
        "SELECT order_id, event_time, seq, status, location FROM bench.order_events "
        "WHERE order_id = $1 ORDER BY event_time DESC, seq DESC LIMIT 10";
    latest.make = [st](uint64_t, Rng& rng, std::vector<Value>* out) {
        out->push_back(Value::bigint(static_cast<int64_t>(rng() % st->orders)));
    };
    w.phases = {append, latest};
    return w;
}

Workload timeseries(const WorkloadOptions& o) {
    struct State {
        uint64_t series;
        int64_t base_ms, interval_ms;
        int points;
        std::unique_ptr<std::atomic<uint64_t>[]> next;  // per series: points written
    };
    auto st = std::make_shared<State>();
    st->series = std::max<uint64_t>(o.series, 1);
    st->interval_ms = std::max<int64_t>(o.point_interval_ms, 1);
    st->points = std::max(o.range_points, 1);
    st->base_ms = now_ms() / 3'600'000 * 3'600'000 - 30LL * 86'400'000;  // an hour, a month ago
    st->next = std::make_unique<std::atomic<uint64_t>[]>(st->series);
    Workload w;
    w.name = "timeseries";
    w.state = st;
    const std::string cols =
        "(metric text, host text, kind text, ts timestamp, value double, "
        "PRIMARY KEY ((metric, host, kind), ts))";
    w.cql_schema = {{"CREATE TABLE bench.metrics " + cols +
                         " WITH time_bucket = {'column': 'ts', 'width': '1h'}",
                     "CREATE TABLE bench.metrics " + cols, "time_bucket"}};
    w.pg_schema = {
        "CREATE TABLE bench.metrics (metric text, host text, kind text, ts timestamp, "
        "value double precision, PRIMARY KEY (metric, host, kind, ts))"};
    static const std::array<const char*, 5> kMetrics = {"cpu", "mem", "disk", "net", "load"};
    static const std::array<const char*, 2> kKinds = {"avg", "max"};
    auto series_key = [](uint64_t s, std::vector<Value>* out) {
        out->push_back(Value::text(kMetrics[s % kMetrics.size()]));
        out->push_back(Value::text("host-" + std::to_string(s / 10)));
        out->push_back(Value::text(kKinds[(s / kMetrics.size()) % kKinds.size()]));
    };
    Phase write;
    write.name = "write";
    write.cql = "INSERT INTO bench.metrics (metric, host, kind, ts, value) VALUES (?, ?, ?, ?, ?)";
    write.pg_sql =
        "INSERT INTO bench.metrics (metric, host, kind, ts, value) VALUES ($1, $2, $3, $4, $5) "
        "ON CONFLICT DO NOTHING";
    write.write_bytes = 16;
    write.make = [st, series_key](uint64_t seq, Rng& rng, std::vector<Value>* out) {
        uint64_t s = rng() % st->series;
        uint64_t n = st->next[s].fetch_add(1, std::memory_order_relaxed);
        series_key(s, out);
        out->push_back(
            Value::timestamp_ms(st->base_ms + static_cast<int64_t>(n) * st->interval_ms));
        out->push_back(Value::float64(static_cast<double>(seq % 1000) / 10.0));
    };
    Phase range;
    range.name = "range";
    range.is_write = false;
    range.page_size = 5000;
    range.cql =
        "SELECT ts, value FROM bench.metrics WHERE metric = ? AND host = ? AND kind = ? "
        "AND ts >= ? AND ts < ?";
    range.pg_sql =
        "SELECT ts, value FROM bench.metrics WHERE metric = $1 AND host = $2 AND kind = $3 "
        "AND ts >= $4 AND ts < $5 ORDER BY ts";
    range.make = [st, series_key](uint64_t, Rng& rng, std::vector<Value>* out) {
        uint64_t s = rng() % st->series;
        uint64_t have = st->next[s].load(std::memory_order_relaxed);
        uint64_t pts = static_cast<uint64_t>(st->points);
        uint64_t first = have > pts ? rng() % (have - pts + 1) : 0;
        series_key(s, out);
        int64_t from = st->base_ms + static_cast<int64_t>(first) * st->interval_ms;
        out->push_back(Value::timestamp_ms(from));
        out->push_back(Value::timestamp_ms(from + static_cast<int64_t>(pts) * st->interval_ms));
    };
    w.phases = {write, range};
    return w;
}

Workload hotday(const WorkloadOptions& o) {
    struct State {
        int64_t day;
        uint64_t node;
    };
    auto st = std::make_shared<State>(State{today_days(), std::random_device{}() | 1ULL << 40});
    Workload w;
    w.name = "hotday";
    w.state = st;
    const std::string cols = "(day date, id timeuuid, payload blob, PRIMARY KEY (day, id))";
    std::string shards = std::to_string(o.shards);
    w.cql_schema = {{"CREATE TABLE bench.events_by_day " + cols, "", ""},
                    {"CREATE TABLE bench.events_by_day_sharded " + cols +
                         " WITH write_sharding = {'shards': " + shards + ", 'suffix': 'random'}",
                     "CREATE TABLE bench.events_by_day_sharded " + cols, "write_sharding"}};
    w.pg_schema = {
        "CREATE TABLE bench.events_by_day (day date, id uuid, payload bytea, "
        "PRIMARY KEY (day, id))"};
    size_t vs = o.value_size;
    auto make = [st, vs](uint64_t seq, Rng&, std::vector<Value>* out) {
        out->push_back(Value::date_days(st->day));
        out->push_back(Value::timeuuid(
            make_timeuuid(now_ms(), static_cast<uint32_t>(seq), st->node ^ (seq >> 32))));
        out->push_back(Value::blob(payload_for(seq, vs)));
    };
    Phase plain;
    plain.name = "unsharded";
    plain.cql = "INSERT INTO bench.events_by_day (day, id, payload) VALUES (?, ?, ?)";
    plain.pg_sql = "INSERT INTO bench.events_by_day (day, id, payload) VALUES ($1, $2, $3)";
    plain.write_bytes = vs;
    plain.make = make;
    Phase sharded = plain;
    sharded.name = "sharded" + shards;
    sharded.cql = "INSERT INTO bench.events_by_day_sharded (day, id, payload) VALUES (?, ?, ?)";
    sharded.on_postgres = false;  // PostgreSQL has no write sharding to compare
    w.phases = {plain, sharded};
    return w;
}

Workload widepartition(const WorkloadOptions& o) {
    Workload w;
    w.name = "widepartition";
    w.cql_schema = {
        {"CREATE TABLE bench.wide (pk bigint, ck bigint, v blob, PRIMARY KEY (pk, ck))", "", ""}};
    size_t rb = std::max<size_t>(o.wide_row_bytes, 1);
    Phase fill;
    fill.name = "fill";
    fill.cql = "INSERT INTO bench.wide (pk, ck, v) VALUES (?, ?, ?)";
    fill.on_postgres = false;
    fill.fixed_ops = std::max<uint64_t>(o.wide_bytes / rb, 1);
    fill.write_bytes = rb;
    fill.make = [rb](uint64_t seq, Rng&, std::vector<Value>* out) {
        out->push_back(Value::bigint(0));
        out->push_back(Value::bigint(static_cast<int64_t>(seq)));
        out->push_back(Value::blob(payload_for(seq, rb)));
    };
    Phase page;
    page.name = "page";
    page.is_write = false;
    page.on_postgres = false;
    page.paging_scan = true;
    page.page_size = o.page_size;
    page.cql = "SELECT ck, v FROM bench.wide WHERE pk = ?";
    page.make = [](uint64_t, Rng&, std::vector<Value>* out) { out->push_back(Value::bigint(0)); };
    w.phases = {fill, page};
    return w;
}

}  // namespace

int64_t today_days() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
               .count() /
           86400;
}

const std::vector<std::string>& workload_names() {
    static const std::vector<std::string> names = {"kv", "logistics", "timeseries", "hotday",
                                                   "widepartition"};
    return names;
}

Result<Workload> make_workload(const std::string& name, const WorkloadOptions& options) {
    if (name == "kv") return kv(options);
    if (name == "logistics") return logistics(options);
    if (name == "timeseries") return timeseries(options);
    if (name == "hotday") return hotday(options);
    if (name == "widepartition") return widepartition(options);
    std::string known;
    for (const auto& n : workload_names())
        known += (known.empty() ? "" : ", ") + n;
    return Status::invalid("unknown workload '" + name + "' (known: " + known + ")");
}

}  // namespace tessel::bench
