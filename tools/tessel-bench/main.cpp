// tessel-bench: the seed documents' workloads against Tessel, PostgreSQL and
// raw RocksDB in one run, written as Markdown, JSON and an SVG chart.
//
//   tessel-bench --port 9042 [--batch-port 9043] [--pg CONNINFO] [--rocksdb-dir DIR]
//                [-w kv,logistics,...] [-c 4] [-d 32] [--rate OPS] [--duration S]
//                [--warmup S] [--out-dir bench/results] [--name latest]
//
// bench/run.sh starts the servers in temporary directories and calls this
// with the right ports; see docs/performance.md.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "runner.h"

namespace {

std::string shell_quote(const std::string& s) {
    if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                          "0123456789-_./=:,@%+") == std::string::npos) {
        return s;
    }
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

bool write_file(const std::filesystem::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
    using tessel::bench::BenchConfig;
    BenchConfig c;
    CLI::App app{
        "tessel-bench: Tessel against PostgreSQL and raw RocksDB, same rows, same "
        "concurrency"};
    app.option_defaults()->always_capture_default();

    app.add_option("--host", c.host, "Tessel host")->group("Systems");
    app.add_option("--port", c.port, "Tessel port (commitlog_sync periodic); 0 = skip")
        ->group("Systems");
    app.add_option("--batch-port", c.batch_port,
                   "port of a second tesseld with commitlog_sync: batch; 0 = skip")
        ->group("Systems");
    app.add_option("--pg", c.pg_conninfo, "libpq conninfo of PostgreSQL; empty = skip")
        ->group("Systems");
    app.add_option("--rocksdb-dir", c.rocksdb_dir, "directory for raw RocksDB; empty = skip")
        ->group("Systems");
    app.add_option("--rocksdb-threads", c.rocksdb_threads, "raw RocksDB thread counts")
        ->delimiter(',')
        ->group("Systems");
    app.add_option("--systems", c.systems,
                   "subset of tessel,tessel-batch,postgres,postgres-sync,rocksdb (default: all "
                   "configured)")
        ->delimiter(',')
        ->group("Systems");
    app.add_option("--server-pid", c.server_pid, "tesseld pid, for widepartition RSS samples")
        ->group("Systems");
    app.add_option("--before-phase", c.before_phase,
                   "shell command run before each Tessel phase (TESSEL_BENCH_PHASE names it)")
        ->group("Systems");
    app.add_option("--after-phase", c.after_phase,
                   "shell command run after each Tessel phase (TESSEL_BENCH_PHASE names it)")
        ->group("Systems");

    auto& l = c.load;
    app.add_option("-w,--workloads", c.workloads, "kv,logistics,timeseries,hotday,widepartition")
        ->delimiter(',')
        ->group("Load");
    app.add_option("-c,--connections", l.connections, "connections (threads for RocksDB)")
        ->check(CLI::Range(1, 1024))
        ->group("Load");
    app.add_option("-d,--depth", l.depth, "requests in flight per connection")
        ->check(CLI::Range(1, 32768))
        ->group("Load");
    app.add_option("--rate", l.rate, "total operations/s (open loop); 0 = unthrottled")
        ->check(CLI::NonNegativeNumber)
        ->group("Load");
    app.add_option("--duration", l.duration_s, "measured seconds per phase")
        ->check(CLI::PositiveNumber)
        ->group("Load");
    app.add_option("--ops", l.ops, "operations per phase instead of a duration (warm-up included)")
        ->group("Load");
    app.add_option("--warmup", l.warmup_s, "warm-up seconds per phase, not measured")
        ->check(CLI::NonNegativeNumber)
        ->group("Load");
    app.add_option("--sync-phases", c.sync_phases, "phases run for the fully synced rows")
        ->delimiter(',')
        ->group("Load");
    app.add_option("--peak-fraction", c.peak_fraction,
                   "rerun Tessel's kv phases at this fraction of peak (p99 check); 0 = skip")
        ->check(CLI::Range(0.0, 1.0))
        ->group("Load");
    bool no_progress = false;
    app.add_flag("--no-progress", no_progress, "no progress bar")->group("Load");

    auto& w = c.workload;
    app.add_option("--keys", w.keys, "kv key space")->group("Workloads");
    app.add_option("--value-size", w.value_size, "kv and hotday value bytes")->group("Workloads");
    app.add_option("--orders", w.orders, "logistics orders")->group("Workloads");
    app.add_option("--series", w.series, "timeseries series (metric+host+kind)")
        ->group("Workloads");
    app.add_option("--shards", w.shards, "hotday write_sharding shards")->group("Workloads");
    double wide_mb = static_cast<double>(w.wide_bytes >> 20);
    app.add_option("--wide-mb", wide_mb, "widepartition size in MB (1024 for the 1 GB target)")
        ->check(CLI::PositiveNumber)
        ->group("Workloads");
    app.add_option("--wide-row-bytes", w.wide_row_bytes, "widepartition payload per row")
        ->group("Workloads");
    app.add_option("--page-size", w.page_size, "widepartition page size")->group("Workloads");

    std::string out_dir = "bench/results", name = "latest";
    std::vector<std::string> commands, notes, versions;
    app.add_option("--out-dir", out_dir, "where NAME.md, NAME.json and NAME.svg go")
        ->group("Output");
    app.add_option("--name", name, "file name stem of the outputs")->group("Output");
    app.add_option("--record-command", commands,
                   "a command to record in the report (how the servers were started)")
        ->group("Output");
    app.add_option("--note", notes, "a note to record in the report")->group("Output");
    app.add_option("--version-info", versions, "NAME=VERSION to record")->group("Output");
    CLI11_PARSE(app, argc, argv);

    l.progress = !no_progress;
    w.wide_bytes = static_cast<uint64_t>(wide_mb * 1024 * 1024);

    tessel::bench::RunReport report = tessel::bench::run_benchmark(c);
    // The command as run, without the options that only annotate the report
    // (they are in it already).
    std::string self;
    for (int i = 0; i < argc; ++i) {
        std::string arg = argv[i];
        if ((arg == "--record-command" || arg == "--version-info" || arg == "--note") &&
            i + 1 < argc) {
            ++i;
            continue;
        }
        if (!self.empty()) self += ' ';
        self += shell_quote(arg);
    }
    commands.push_back(self);
    report.commands = commands;
    report.notes.insert(report.notes.begin(), notes.begin(), notes.end());
    for (const auto& v : versions) {
        auto eq = v.find('=');
        if (eq != std::string::npos) report.versions[v.substr(0, eq)] = v.substr(eq + 1);
    }

    std::error_code ec;
    std::filesystem::create_directories(out_dir, ec);
    std::filesystem::path base = std::filesystem::path(out_dir) / name;
    bool ok = write_file(base.string() + ".json", tessel::bench::to_json(report)) &&
              write_file(base.string() + ".md", tessel::bench::to_markdown(report)) &&
              write_file(base.string() + ".svg", tessel::bench::to_svg(report));
    if (!ok) {
        std::fprintf(stderr, "tessel-bench: cannot write %s.{md,json,svg}\n", base.c_str());
        return 1;
    }
    std::fprintf(stderr, "tessel-bench: wrote %s.md, .json and .svg (%zu results)\n", base.c_str(),
                 report.results.size());
    return report.results.empty() ? 1 : 0;
}
