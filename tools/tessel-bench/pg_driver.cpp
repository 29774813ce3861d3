#include "pg_driver.h"

#include <libpq-fe.h>
#include <poll.h>

#include <deque>
#include <thread>

namespace tessel::bench {
namespace {

std::string conn_error(PGconn* c) {
    std::string m = PQerrorMessage(c);
    while (!m.empty() && (m.back() == '\n' || m.back() == ' '))
        m.pop_back();
    return m;
}

Status exec(PGconn* c, const std::string& sql) {
    PGresult* r = PQexec(c, sql.c_str());
    ExecStatusType st = PQresultStatus(r);
    std::string msg = PQresultErrorMessage(r);
    PQclear(r);
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) return Status::ok();
    return Status::server("PostgreSQL: " + msg + " [" + sql + "]");
}

// One connection's pipelined loop for one phase.
class PipelineLoop {
  public:
    PipelineLoop(PGconn* conn, const Phase& phase, const LoadOptions& options, OpClock& clock,
                 const std::string& statement, uint64_t seed)
        : conn_(conn),
          phase_(phase),
          options_(options),
          clock_(clock),
          stmt_(statement),
          rng_(seed) {}

    PhaseStats run() {
        if (PQenterPipelineMode(conn_) != 1 || PQsetnonblocking(conn_, 1) != 0) {
            stats_.fail("cannot enter pipeline mode: " + conn_error(conn_));
            return stats_;
        }
        loop();
        // Drain whatever an error left behind before leaving pipeline mode.
        while (PGresult* r = PQgetResult(conn_))
            PQclear(r);
        PQsetnonblocking(conn_, 0);
        PQexitPipelineMode(conn_);
        return stats_;
    }

  private:
    void loop() {
        for (;;) {
            if (!send_ready()) return;
            if (exhausted_ && inflight_.empty() && pending_syncs_ == 0) return;
            int flushed = PQflush(conn_);
            if (flushed < 0) {
                broken("flush failed");
                return;
            }
            if (!wait(flushed == 1)) return;
            if (!PQconsumeInput(conn_)) {
                broken("read failed");
                return;
            }
            read_results();
        }
    }

    // Sends operations while slots are free and they are due.
    bool send_ready() {
        while (!exhausted_ && static_cast<int>(inflight_.size()) < options_.depth) {
            if (!held_) held_ = clock_.claim();
            if (!held_) {
                exhausted_ = true;
                break;
            }
            if (clock_.fixed_rate() && held_->intended > Clock::now()) break;
            values_.clear();
            phase_.make(held_->seq, rng_, &values_);
            encoded_.clear();
            for (const auto& v : values_)
                encoded_.push_back(encode_pg_binary(v));
            ptrs_.clear();
            lens_.clear();
            for (const auto& e : encoded_) {
                ptrs_.push_back(e.data());
                lens_.push_back(static_cast<int>(e.size()));
            }
            formats_.assign(encoded_.size(), 1);
            int n = static_cast<int>(encoded_.size());
            if (!PQsendQueryPrepared(conn_, stmt_.c_str(), n, ptrs_.data(), lens_.data(),
                                     formats_.data(), 1) ||
                !PQpipelineSync(conn_)) {
                return broken("send failed");
            }
            ++pending_syncs_;
            inflight_.push_back(*held_);
            held_.reset();
        }
        return true;
    }

    // Waits for input (and for output room when `want_write`), or until the
    // held operation is due.
    bool wait(bool want_write) {
        pollfd pfd{PQsocket(conn_), static_cast<short>(POLLIN | (want_write ? POLLOUT : 0)), 0};
        // Waiting only for answers: give up after 30 s of silence.
        timespec ts{30, 0};
        bool for_answers = true;
        bool slot_free = static_cast<int>(inflight_.size()) < options_.depth;
        if (held_ && slot_free) {
            auto d = held_->intended - Clock::now();
            int64_t ns = std::max<int64_t>(
                0, std::chrono::duration_cast<std::chrono::nanoseconds>(d).count());
            ts.tv_sec = ns / 1'000'000'000;
            ts.tv_nsec = ns % 1'000'000'000;
            for_answers = false;
        }
        int n = ppoll(&pfd, 1, &ts, nullptr);
        if (n < 0 && errno != EINTR) return broken("poll failed");
        if (n == 0 && for_answers) return broken("got no answer for 30 s");
        return true;
    }

    void read_results() {
        int nulls = 0;
        while ((!inflight_.empty() || pending_syncs_ > 0) && !PQisBusy(conn_)) {
            PGresult* r = PQgetResult(conn_);
            if (!r) {
                if (++nulls > 1) break;  // nothing more has arrived yet
                continue;
            }
            nulls = 0;
            ExecStatusType st = PQresultStatus(r);
            if (st == PGRES_PIPELINE_SYNC) {
                --pending_syncs_;
            } else if (!inflight_.empty()) {
                Ticket t = inflight_.front();
                inflight_.pop_front();
                bool ok = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
                if (ok && t.measured) {
                    if (phase_.is_write) {
                        stats_.bytes += phase_.write_bytes;
                    } else {
                        int rows = PQntuples(r), cols = PQnfields(r);
                        stats_.rows += static_cast<uint64_t>(rows);
                        for (int i = 0; i < rows; ++i)
                            for (int j = 0; j < cols; ++j)
                                stats_.bytes += static_cast<uint64_t>(PQgetlength(r, i, j));
                    }
                }
                if (!ok) stats_.fail(PQresultErrorMessage(r));
                stats_.complete(t, ok, Clock::now());
                clock_.completed.fetch_add(1, std::memory_order_relaxed);
            }
            PQclear(r);
        }
    }

    bool broken(const std::string& what) {
        stats_.fail("PostgreSQL connection " + what + ": " + conn_error(conn_));
        stats_.errors += inflight_.size();
        inflight_.clear();
        pending_syncs_ = 0;
        exhausted_ = true;
        return false;
    }

    PGconn* conn_;
    const Phase& phase_;
    const LoadOptions& options_;
    OpClock& clock_;
    const std::string& stmt_;
    Rng rng_;
    PhaseStats stats_;
    std::deque<Ticket> inflight_;
    std::optional<Ticket> held_;
    bool exhausted_ = false;
    int pending_syncs_ = 0;
    std::vector<Value> values_;
    std::vector<std::string> encoded_;
    std::vector<const char*> ptrs_;
    std::vector<int> lens_, formats_;
};

}  // namespace

PgSystem::PgSystem(std::vector<PGconn*> conns) : conns_(std::move(conns)) {}

PgSystem::~PgSystem() {
    for (PGconn* c : conns_)
        PQfinish(c);
}

Result<std::unique_ptr<PgSystem>> PgSystem::open(const std::string& conninfo, int connections) {
    std::vector<PGconn*> conns;
    auto fail = [&](const std::string& m) {
        for (PGconn* c : conns)
            PQfinish(c);
        return Status::server("PostgreSQL: " + m);
    };
    for (int i = 0; i < std::max(connections, 1); ++i) {
        PGconn* c = PQconnectdb(conninfo.c_str());
        conns.push_back(c);
        if (PQstatus(c) != CONNECTION_OK) return fail("cannot connect: " + conn_error(c));
        // NOTICEs ("table does not exist, skipping") would interleave with the
        // progress lines; errors still come back as results.
        PQsetNoticeProcessor(
            c, [](void*, const char*) {}, nullptr);
    }
    if (Status st = exec(conns.front(), "CREATE SCHEMA IF NOT EXISTS bench"); !st.is_ok()) {
        return fail(st.message());
    }
    return std::unique_ptr<PgSystem>(new PgSystem(std::move(conns)));
}

std::string PgSystem::server_version() const {
    int v = PQserverVersion(conns_.front());
    return std::to_string(v / 10000) + "." + std::to_string(v % 10000);
}

Status PgSystem::exec_all(const std::string& sql) {
    for (PGconn* c : conns_)
        TESSEL_RETURN_IF_ERROR(exec(c, sql));
    return Status::ok();
}

Status PgSystem::create_schema(const Workload& workload) {
    for (const std::string& sql : workload.pg_schema) {
        std::string table = sql.substr(13, sql.find(' ', 13) - 13);  // "CREATE TABLE x"
        TESSEL_RETURN_IF_ERROR(exec(conns_.front(), "DROP TABLE IF EXISTS " + table));
        TESSEL_RETURN_IF_ERROR(exec(conns_.front(), sql));
    }
    return Status::ok();
}

Result<PhaseResult> PgSystem::run_phase(const Phase& phase, const LoadOptions& options,
                                        const std::string& label, bool synchronous_commit) {
    int n = std::clamp(options.connections, 1, static_cast<int>(conns_.size()));
    TESSEL_RETURN_IF_ERROR(
        exec_all(std::string("SET synchronous_commit TO ") + (synchronous_commit ? "on" : "off")));
    std::string stmt = "bench_" + std::to_string(++statement_counter_);
    for (int i = 0; i < n; ++i) {
        PGresult* r = PQprepare(conns_[static_cast<size_t>(i)], stmt.c_str(), phase.pg_sql.c_str(),
                                0, nullptr);
        ExecStatusType st = PQresultStatus(r);
        std::string msg = PQresultErrorMessage(r);
        PQclear(r);
        if (st != PGRES_COMMAND_OK) {
            return Status::server("PostgreSQL PREPARE: " + msg + " [" + phase.pg_sql + "]");
        }
    }
    OpClock clock(options, Clock::now());
    std::vector<PhaseStats> per(static_cast<size_t>(n));
    {
        Progress bar(label, clock, options, true);
        std::vector<std::thread> threads;
        for (int i = 0; i < n; ++i) {
            threads.emplace_back([&, i] {
                PipelineLoop loop(conns_[static_cast<size_t>(i)], phase, options, clock, stmt,
                                  0x5eed0000ULL + static_cast<uint64_t>(i) * 7919);
                per[static_cast<size_t>(i)] = loop.run();
            });
        }
        for (auto& t : threads)
            t.join();
    }
    PhaseStats all;
    for (const auto& s : per)
        all.add(s);
    PhaseResult r = summarize(all, clock, options);
    r.connections = n;
    r.phase = phase.name;
    return r;
}

}  // namespace tessel::bench
