#include "cql_driver.h"

#include <condition_variable>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

namespace tessel::bench {
namespace {

using client::Client;
using client::Prepared;
using client::QueryResult;

// "CREATE TABLE bench.kv (..." -> "bench.kv".
std::string table_of(const std::string& create) {
    std::istringstream in(create);
    std::string w1, w2, name;
    in >> w1 >> w2 >> name;
    if (auto p = name.find('('); p != std::string::npos) name.resize(p);
    return name;
}

uint64_t result_bytes(const QueryResult& r) {
    uint64_t n = 0;
    for (const auto& row : r.rows)
        for (const auto& cell : row)
            if (cell) n += cell->size();
    return n;
}

// One connection's share of a phase. Unthrottled, only the connection's I/O
// thread touches it once the first requests are sent; at a fixed rate the
// pacer thread owns rng/values and the I/O thread owns stats.
struct Conn {
    Client* client = nullptr;
    Prepared prepared;
    PhaseStats stats;
    // Guards rng and values: unthrottled, the first requests are sent from
    // the main thread while early answers already send from the I/O thread.
    std::mutex mu;
    std::atomic<int> inflight{0};  // paced mode: requests sent and not answered
    Rng rng;
    std::vector<Value> values;
};

class PhaseRun {
  public:
    PhaseRun(const Phase& phase, const LoadOptions& options, OpClock& clock)
        : phase_(phase), options_(options), clock_(clock) {}

    // Sends operations until the clock runs out; returns the merged stats.
    PhaseStats run(std::vector<Conn>& conns) {
        if (clock_.fixed_rate()) return run_paced(conns);
        active_ = static_cast<int>(conns.size()) * options_.depth;
        for (auto& c : conns) {
            for (int s = 0; s < options_.depth; ++s) {
                auto t = clock_.claim();
                if (!t) {
                    slot_done();
                    continue;
                }
                send(c, *t, false);
            }
        }
        std::unique_lock lock(mu_);
        while (!cv_.wait_for(lock, std::chrono::seconds(1), [&] { return active_ == 0; })) {
            lock.unlock();
            if (stalled()) abandon(conns);
            lock.lock();
        }
        return merge(conns);
    }

  private:
    // Fixed rate. Operations are handed out in schedule order, each once its
    // intended time has come. A completion's callback takes the next due
    // operation itself (on its I/O thread, no thread hop) while its
    // connection has a free slot; one pacer thread covers the rest: it sends
    // due operations to a connection with a free slot and otherwise sleeps
    // until the next one is due.
    PhaseStats run_paced(std::vector<Conn>& conns) {
        size_t rr = 0;
        for (;;) {
            Conn* free_conn = nullptr;
            bool any_connected = false;
            for (size_t i = 0; i < conns.size() && !free_conn; ++i) {
                Conn& c = conns[(rr + i) % conns.size()];
                if (!c.client->is_connected()) continue;
                any_connected = true;
                if (c.inflight.load(std::memory_order_acquire) < options_.depth) free_conn = &c;
            }
            if (!any_connected) break;
            if (!free_conn) {
                // Every slot is busy: the system is behind the schedule, and
                // the wait is charged to the operations (intended times).
                std::this_thread::sleep_for(std::chrono::microseconds(50));
                if (stalled()) abandon(conns);
                continue;
            }
            Clock::time_point next_due{};
            auto t = take_due(&next_due);
            if (!t) {
                if (exhausted()) break;
                std::this_thread::sleep_until(next_due);
                continue;
            }
            rr = static_cast<size_t>(free_conn - conns.data()) + 1;
            free_conn->inflight.fetch_add(1, std::memory_order_acq_rel);
            send(*free_conn, *t, true);
        }
        for (auto& c : conns) {
            while (c.inflight.load(std::memory_order_acquire) > 0) {
                std::this_thread::sleep_for(std::chrono::microseconds(200));
                if (stalled()) abandon(conns);
            }
        }
        return merge(conns);
    }

    // The next operation if it is due now; otherwise nullopt with *next_due
    // set to its intended time (nullopt and exhausted() once the phase is over).
    std::optional<Ticket> take_due(Clock::time_point* next_due) {
        std::lock_guard lock(held_mu_);
        if (!held_ && !exhausted_) {
            held_ = clock_.claim();
            if (!held_) exhausted_ = true;
        }
        if (!held_) return std::nullopt;
        if (held_->intended > Clock::now()) {
            if (next_due) *next_due = held_->intended;
            return std::nullopt;
        }
        Ticket t = *held_;
        held_.reset();
        return t;
    }

    bool exhausted() {
        std::lock_guard lock(held_mu_);
        return exhausted_ && !held_;
    }

    void send(Conn& c, const Ticket& t, bool paced) {
        client::QueryParameters p;
        {
            std::lock_guard lock(c.mu);
            c.values.clear();
            phase_.make(t.seq, c.rng, &c.values);
            p.values.reserve(c.values.size());
            for (const auto& v : c.values)
                p.values.push_back(protocol::BoundValue::of(encode_cql(v)));
        }
        if (!phase_.is_write) p.page_size = phase_.page_size > 0 ? phase_.page_size : 5000;
        c.client->execute_async(
            c.prepared, std::move(p),
            [this, &c, t, paced](Result<QueryResult> r) { on_done(c, t, paced, std::move(r)); });
    }

    void on_done(Conn& c, const Ticket& t, bool paced, Result<QueryResult> r) {
        auto now = Clock::now();
        if (r.is_ok()) {
            if (t.measured) {
                if (phase_.is_write) {
                    c.stats.bytes += phase_.write_bytes;
                } else {
                    c.stats.rows += r->rows.size();
                    c.stats.bytes += result_bytes(*r);
                }
            }
            c.stats.complete(t, true, now);
        } else {
            c.stats.fail(r.status().message());
            c.stats.complete(t, false, now);
        }
        clock_.completed.fetch_add(1, std::memory_order_relaxed);
        if (paced) {
            c.inflight.fetch_sub(1, std::memory_order_acq_rel);
            while (c.client->is_connected() &&
                   c.inflight.load(std::memory_order_acquire) < options_.depth) {
                auto due = take_due(nullptr);
                if (!due) break;
                c.inflight.fetch_add(1, std::memory_order_acq_rel);
                send(c, *due, true);
            }
            return;
        }
        // A lost connection fails every request at once: stop this slot
        // instead of spinning through the remaining duration.
        std::optional<Ticket> next;
        if (c.client->is_connected()) next = clock_.claim();
        if (next) {
            send(c, *next, false);
        } else {
            slot_done();
        }
    }

    // True when no operation completed for kStallLimit: the server hangs.
    bool stalled() {
        static constexpr auto kStallLimit = std::chrono::seconds(30);
        uint64_t done = clock_.completed.load(std::memory_order_relaxed);
        auto now = Clock::now();
        if (done != last_completed_ || last_progress_ == Clock::time_point{}) {
            last_completed_ = done;
            last_progress_ = now;
            return false;
        }
        return now - last_progress_ > kStallLimit;
    }

    // Closes every connection: their pending requests fail (Server_error),
    // which ends the phase; later phases report the lost connection.
    void abandon(std::vector<Conn>& conns) {
        abandoned_ = true;
        for (auto& c : conns)
            c.client->close();
    }

    void slot_done() {
        std::lock_guard lock(mu_);
        if (--active_ == 0) cv_.notify_all();
    }

    PhaseStats merge(std::vector<Conn>& conns) {
        PhaseStats all;
        if (abandoned_) all.fail("no answer from the server for 30 s: connections closed");
        for (auto& c : conns)
            all.add(c.stats);
        return all;
    }

    const Phase& phase_;
    const LoadOptions& options_;
    OpClock& clock_;
    std::mutex mu_;
    std::condition_variable cv_;
    int active_ = 0;
    std::atomic<bool> abandoned_{false};
    uint64_t last_completed_ = 0;
    Clock::time_point last_progress_{};
    // Fixed rate: the next operation, claimed but not yet due.
    std::mutex held_mu_;
    std::optional<Ticket> held_;
    bool exhausted_ = false;
};

}  // namespace

uint64_t process_rss_bytes(int pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("VmRSS:", 0) == 0) {
            std::istringstream fields(line.substr(6));
            uint64_t kb = 0;
            fields >> kb;
            return kb * 1024;
        }
    }
    return 0;
}

CqlSystem::CqlSystem(std::vector<std::unique_ptr<Client>> clients) : clients_(std::move(clients)) {}

CqlSystem::~CqlSystem() = default;

Result<std::unique_ptr<CqlSystem>> CqlSystem::open(const std::string& host, int port,
                                                   int connections) {
    std::vector<std::unique_ptr<Client>> clients;
    client::ClientOptions co;
    co.host = host;
    co.port = port;
    co.request_timeout_ms = 120000;
    for (int i = 0; i < std::max(connections, 1); ++i) {
        TESSEL_ASSIGN_OR_RETURN(auto c, Client::connect(co));
        clients.push_back(std::move(c));
    }
    Client& c = *clients.front();
    auto drop = c.query("DROP KEYSPACE IF EXISTS bench");
    if (!drop.is_ok()) return Status::server("DROP KEYSPACE bench: " + drop.status().message());
    auto ks = c.query(
        "CREATE KEYSPACE bench WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}");
    if (!ks.is_ok()) return Status::server("CREATE KEYSPACE bench: " + ks.status().message());
    return std::unique_ptr<CqlSystem>(new CqlSystem(std::move(clients)));
}

std::string CqlSystem::release_version() {
    auto r = clients_.front()->query("SELECT release_version FROM system.local");
    if (!r.is_ok() || r->rows.empty() || r->rows[0].empty() || !r->rows[0][0]) return "unknown";
    return *r->rows[0][0];
}

Status CqlSystem::create_schema(const Workload& workload,
                                std::map<std::string, std::string>* features) {
    Client& c = *clients_.front();
    for (const SchemaStep& step : workload.cql_schema) {
        (void)c.query("DROP TABLE IF EXISTS " + table_of(step.cql));
        auto r = c.query(step.cql);
        if (r.is_ok()) {
            if (!step.feature.empty()) (*features)[step.feature] = "true";
            continue;
        }
        if (step.fallback_cql.empty()) {
            return Status::server("schema for " + workload.name +
                                  " refused: " + r.status().message() + " [" + step.cql + "]");
        }
        auto f = c.query(step.fallback_cql);
        if (!f.is_ok()) {
            return Status::server("schema for " + workload.name + " refused: " +
                                  f.status().message() + " [" + step.fallback_cql + "]");
        }
        (*features)[step.feature] = "false";
        (*features)[step.feature + "_error"] = r.status().message();
    }
    return Status::ok();
}

Result<PhaseResult> CqlSystem::run_phase(const Phase& phase, const LoadOptions& options,
                                         const std::string& label) {
    int n = std::clamp(options.connections, 1, static_cast<int>(clients_.size()));
    std::vector<Conn> conns(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        Conn& c = conns[static_cast<size_t>(i)];
        c.client = clients_[static_cast<size_t>(i)].get();
        if (!c.client->is_connected()) return Status::server("connection to Tessel lost");
        TESSEL_ASSIGN_OR_RETURN(c.prepared, c.client->prepare(phase.cql));
        c.rng.seed(0x5eed0000ULL + static_cast<uint64_t>(i) * 7919);
    }
    OpClock clock(options, Clock::now());
    PhaseStats stats;
    {
        Progress bar(label, clock, options, true);
        PhaseRun run(phase, options, clock);
        stats = run.run(conns);
    }
    PhaseResult r = summarize(stats, clock, options);
    r.connections = n;
    r.phase = phase.name;
    return r;
}

Result<PhaseResult> CqlSystem::run_paging_scan(const Phase& phase, int server_pid, bool progress) {
    Client& c = *clients_.front();
    TESSEL_ASSIGN_OR_RETURN(Prepared prepared, c.prepare(phase.cql));
    Rng rng(1);
    std::vector<Value> values;
    phase.make(0, rng, &values);
    client::QueryParameters base;
    for (const auto& v : values)
        base.values.push_back(protocol::BoundValue::of(encode_cql(v)));
    base.page_size = phase.page_size > 0 ? phase.page_size : 1000;

    uint64_t rss_before = server_pid > 0 ? process_rss_bytes(server_pid) : 0;
    std::atomic<uint64_t> rss_max{rss_before};
    std::atomic<bool> stop{false};
    std::thread sampler([&] {
        while (!stop && server_pid > 0) {
            uint64_t v = process_rss_bytes(server_pid);
            if (v > rss_max) rss_max = v;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    });

    LoadOptions lo;
    lo.connections = 1;
    lo.depth = 1;
    lo.warmup_s = 0;
    lo.ops = 0;
    lo.duration_s = 1e9;
    OpClock clock(lo, Clock::now());
    PhaseStats stats;
    Status status;
    std::vector<std::pair<Clock::time_point, uint64_t>> page_marks;
    {
        Progress bar("widepartition.page", clock, lo, progress);
        std::optional<std::string> paging_state;
        // (completion time, rows so far) per page, to tell whether the rate
        // stays flat from the start of the partition to its end.
        page_marks.reserve(4096);
        do {
            auto ticket = clock.claim();
            client::QueryParameters p = base;
            p.paging_state = paging_state;
            auto r = c.execute(prepared, std::move(p));
            auto now = Clock::now();
            if (!r.is_ok()) {
                status = r.status();
                break;
            }
            stats.rows += r->rows.size();
            stats.bytes += result_bytes(*r);
            stats.complete(*ticket, true, now);
            clock.completed = stats.rows;
            paging_state = r->paging_state;
            page_marks.emplace_back(now, stats.rows);
        } while (paging_state);
    }
    stop = true;
    sampler.join();
    if (!status.is_ok()) return status;
    PhaseResult r = summarize(stats, clock, lo);
    r.phase = phase.name;
    r.extra["page_size"] = std::to_string(*base.page_size);
    r.extra["rows"] = std::to_string(stats.rows);
    if (page_marks.size() >= 20) {
        // Rows/s over the first and the last tenth of the pages.
        size_t tenth = page_marks.size() / 10, n = page_marks.size();
        auto rate = [&](size_t from, size_t to) {
            double s = std::chrono::duration<double>(page_marks[to].first - page_marks[from].first)
                           .count();
            return s > 0 ? static_cast<double>(page_marks[to].second - page_marks[from].second) / s
                         : 0.0;
        };
        r.extra["first_tenth_rows_per_s"] = std::to_string(static_cast<uint64_t>(rate(0, tenth)));
        r.extra["last_tenth_rows_per_s"] =
            std::to_string(static_cast<uint64_t>(rate(n - 1 - tenth, n - 1)));
    }
    if (server_pid > 0) {
        uint64_t after = process_rss_bytes(server_pid);
        auto mb = [](uint64_t b) { return std::to_string(static_cast<double>(b) / 1048576.0); };
        r.extra["rss_before_mb"] = mb(rss_before);
        r.extra["rss_max_mb"] = mb(std::max<uint64_t>(rss_max, after));
        r.extra["rss_growth_mb"] = mb(std::max<uint64_t>(rss_max, after) - rss_before);
    }
    return r;
}

}  // namespace tessel::bench
