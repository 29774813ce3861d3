#include "runner.h"

#include <fmt/format.h>
#include <libpq-fe.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "cql_driver.h"
#include "pg_driver.h"
#include "rocksdb_driver.h"

namespace tessel::bench {
namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

std::string utc_now() {
    auto t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

class Runner {
  public:
    explicit Runner(const BenchConfig& c) : c_(c) {}

    RunReport run() {
        r_.started_at = utc_now();
        r_.machine = read_machine_info();
        r_.versions["rocksdb"] = RocksSystem::version();
        r_.versions["libpq"] = std::to_string(PQlibVersion());
        r_.versions["compiler"] = "g++ " __VERSION__;
        settings();
        if (enabled("tessel", c_.port > 0)) run_tessel("tessel", "periodic", c_.port, false);
        if (enabled("tessel-batch", c_.batch_port > 0)) {
            run_tessel("tessel-batch", "batch", c_.batch_port, true);
        }
        bool pg = !c_.pg_conninfo.empty();
        if (enabled("postgres", pg)) run_postgres("postgres", false);
        if (enabled("postgres-sync", pg)) run_postgres("postgres-sync", true);
        if (enabled("rocksdb", !c_.rocksdb_dir.empty()) && contains(c_.workloads, "kv")) {
            run_rocksdb();
        }
        return std::move(r_);
    }

  private:
    bool enabled(const std::string& system, bool configured) {
        if (!c_.systems.empty() && !contains(c_.systems, system)) return false;
        if (!configured) {
            if (!c_.systems.empty()) r_.notes.push_back(system + ": asked for but not configured");
            return false;
        }
        return true;
    }

    void settings() {
        const LoadOptions& l = c_.load;
        auto& s = r_.settings;
        s["connections"] = std::to_string(l.connections);
        s["depth"] = std::to_string(l.depth);
        s["rate"] = l.rate > 0 ? fmt::format("{}", l.rate) : "unthrottled";
        s["duration_s"] = l.ops > 0 ? "-" : fmt::format("{}", l.duration_s);
        s["ops"] = std::to_string(l.ops);
        s["warmup_s"] = fmt::format("{}", l.warmup_s);
        s["keys"] = std::to_string(c_.workload.keys);
        s["value_size"] = std::to_string(c_.workload.value_size);
        s["orders"] = std::to_string(c_.workload.orders);
        s["series"] = std::to_string(c_.workload.series);
        s["shards"] = std::to_string(c_.workload.shards);
        s["wide_mb"] = std::to_string(c_.workload.wide_bytes >> 20);
        s["page_size"] = std::to_string(c_.workload.page_size);
        s["peak_fraction"] = fmt::format("{}", c_.peak_fraction);
    }

    void note(const std::string& m) {
        std::fprintf(stderr, "tessel-bench: %s\n", m.c_str());
        r_.notes.push_back(m);
    }

    void add(PhaseResult r, const std::string& workload, const std::string& system,
             const std::string& durability) {
        r.workload = workload;
        r.system = system;
        r.durability = durability;
        std::fprintf(stderr, "%-14s %-26s %10.0f ops/s  p50 %8.0f us  p99 %8.0f us  errors %llu\n",
                     system.c_str(), r.key().c_str(), r.ops_per_s, r.p50_us, r.p99_us,
                     static_cast<unsigned long long>(r.errors));
        r_.results.push_back(std::move(r));
    }

    // Runs a --before-phase / --after-phase command for the phase `label`.
    void hook(const std::string& command, const std::string& label) {
        if (command.empty()) return;
        ::setenv("TESSEL_BENCH_PHASE", label.c_str(), 1);
        if (std::system(command.c_str()) != 0)
            note("phase hook failed for " + label + ": " + command);
    }

    LoadOptions options_for(const Phase& phase) const {
        LoadOptions o = c_.load;
        if (phase.fixed_ops > 0) {
            o.ops = phase.fixed_ops;
            o.warmup_s = 0;
        }
        return o;
    }

    void run_tessel(const std::string& system, const std::string& durability, int port,
                    bool synced_only) {
        auto sys = CqlSystem::open(c_.host, port, c_.load.connections);
        if (!sys.is_ok()) {
            note(system + ": " + sys.status().message());
            return;
        }
        r_.versions[system + " release_version"] = (*sys)->release_version();
        for (const auto& name : c_.workloads) {
            auto w = make_workload(name, c_.workload);
            if (!w.is_ok()) {
                note(w.status().message());
                continue;
            }
            if (synced_only && !has_sync_phase(*w)) continue;
            auto& features = r_.features[name];
            if (Status st = (*sys)->create_schema(*w, &features); !st.is_ok()) {
                note(system + " " + name + ": " + st.message());
                continue;
            }
            for (const Phase& phase : w->phases) {
                std::string key = name + "." + phase.name;
                if (synced_only && !contains(c_.sync_phases, key)) continue;
                std::string label = system + " " + key;
                hook(c_.before_phase, label);
                Result<PhaseResult> r =
                    phase.paging_scan
                        ? (*sys)->run_paging_scan(phase, c_.server_pid, c_.load.progress)
                        : (*sys)->run_phase(phase, options_for(phase), label);
                hook(c_.after_phase, label);
                if (!r.is_ok()) {
                    note(label + ": " + r.status().message());
                    break;  // later phases read what this one wrote
                }
                double peak = r->ops_per_s;
                add(std::move(r).value(), name, system, durability);
                if (name == "kv" && !synced_only && c_.peak_fraction > 0 && peak > 0) {
                    run_at_fraction(**sys, phase, peak, system, durability);
                }
            }
        }
    }

    void run_at_fraction(CqlSystem& sys, const Phase& phase, double peak, const std::string& system,
                         const std::string& durability) {
        Phase paced = phase;
        paced.name = fmt::format("{}@{:.0f}%", phase.name, c_.peak_fraction * 100);
        LoadOptions o = c_.load;
        o.rate = peak * c_.peak_fraction;
        std::string label = system + " kv." + paced.name;
        hook(c_.before_phase, label);
        auto r = sys.run_phase(paced, o, label);
        hook(c_.after_phase, label);
        if (!r.is_ok()) {
            note(label + ": " + r.status().message());
            return;
        }
        add(std::move(r).value(), "kv", system, durability);
    }

    bool has_sync_phase(const Workload& w) const {
        for (const auto& p : w.phases)
            if (contains(c_.sync_phases, w.name + "." + p.name)) return true;
        return false;
    }

    void run_postgres(const std::string& system, bool synced) {
        auto sys = PgSystem::open(c_.pg_conninfo, c_.load.connections);
        if (!sys.is_ok()) {
            note(system + ": " + sys.status().message());
            return;
        }
        r_.versions["postgresql"] = (*sys)->server_version();
        std::string durability = synced ? "synchronous_commit=on" : "synchronous_commit=off";
        for (const auto& name : c_.workloads) {
            auto w = make_workload(name, c_.workload);
            if (!w.is_ok() || w->pg_schema.empty()) continue;
            if (synced && !has_sync_phase(*w)) continue;
            if (Status st = (*sys)->create_schema(*w); !st.is_ok()) {
                note(system + " " + name + ": " + st.message());
                continue;
            }
            for (const Phase& phase : w->phases) {
                std::string key = name + "." + phase.name;
                if (!phase.on_postgres) continue;
                if (synced && !contains(c_.sync_phases, key)) continue;
                auto r = (*sys)->run_phase(phase, options_for(phase), system + " " + key, synced);
                if (!r.is_ok()) {
                    note(system + " " + key + ": " + r.status().message());
                    break;
                }
                add(std::move(r).value(), name, system, durability);
            }
        }
    }

    void run_rocksdb() {
        for (int threads : c_.rocksdb_threads) {
            std::string system = fmt::format("rocksdb-{}t", threads);
            std::string dir = c_.rocksdb_dir + "/" + system;
            auto sys = RocksSystem::open(dir);
            if (!sys.is_ok()) {
                note(system + ": " + sys.status().message());
                continue;
            }
            auto w = make_workload("kv", c_.workload);
            if (!w.is_ok()) return;
            for (const Phase& phase : w->phases) {
                LoadOptions o = c_.load;
                o.connections = threads;
                auto r = (*sys)->run_phase(phase, o, system + " kv." + phase.name);
                if (!r.is_ok()) {
                    note(system + ": " + r.status().message());
                    break;
                }
                add(std::move(r).value(), "kv", system, "WAL, no sync");
            }
        }
    }

    const BenchConfig& c_;
    RunReport r_;
};

}  // namespace

RunReport run_benchmark(const BenchConfig& config) {
    return Runner(config).run();
}

}  // namespace tessel::bench
