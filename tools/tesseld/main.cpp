// tesseld: serves a Tessel database over the CQL native protocol (v3/v4).
//
//   tesseld [--data-dir DIR] [--listen ADDR] [--port N] [--smp N] [--config FILE]
//           [--metrics-port N] [--http-port N]
//           [--etcd URL[,URL...]] [--storage-port N] [--dc NAME] [--rack NAME]
//
// Settings come from the defaults, then the config file (cassandra.yaml-style
// names), then the command line. SIGTERM or SIGINT stops accepting, closes the
// clients, flushes the database and exits 0.
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <unistd.h>
#include <csignal>
#include <optional>
#include <string>
#include <thread>

#include "server/cluster_config.h"
#include "server/config.h"
#include "server/server.h"
#include "tessel/database.h"

namespace {

// Blocks SIGINT/SIGTERM in this thread and every thread it later starts, so
// that only the sigwait in main() receives them.
sigset_t block_stop_signals() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    return set;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"tesseld: Tessel's CQL native protocol server"};
    std::optional<std::string> data_dir, listen, config_file, etcd, dc, rack;
    std::optional<int> port, smp, metrics_port, http_port, storage_port;
    app.add_option("--data-dir", data_dir, "data directory (default ./data)");
    app.add_option("--listen", listen, "address to listen on (default 127.0.0.1)");
    app.add_option("--port", port, "CQL native protocol port (default 9042)")
        ->check(CLI::Range(0, 65535));
    app.add_option("--smp", smp, "event loop threads (default: one per core)")
        ->check(CLI::Range(1, 1024));
    app.add_option("--metrics-port", metrics_port,
                   "Prometheus /metrics HTTP port (0: a free one; default: metrics_port or off)")
        ->check(CLI::Range(0, 65535));
    app.add_option("--http-port", http_port,
                   "web console HTTP port (0: a free one; default: http_port or off)")
        ->check(CLI::Range(0, 65535));
    app.add_option("--config", config_file, "YAML config file (cassandra.yaml names)");
    app.add_option("--etcd", etcd,
                   "etcd endpoints (URL[,URL...]): join the cluster named by cluster_name "
                   "(default: etcd_endpoints, or a single node)");
    app.add_option("--storage-port", storage_port,
                   "internode port other nodes reach this one at (default 7000)")
        ->check(CLI::Range(0, 65535));
    app.add_option("--dc", dc, "this node's data centre (default datacenter1)");
    app.add_option("--rack", rack, "this node's rack (default rack1)");
    CLI11_PARSE(app, argc, argv);

    tessel::server::ServerConfig config;
    if (config_file) {
        std::vector<std::string> ignored;
        tessel::Status st = tessel::server::apply_config_file(*config_file, &config, &ignored);
        if (!st.is_ok()) {
            spdlog::error("{}", st.message());
            return 2;
        }
        for (const auto& key : ignored)
            spdlog::info("config: ignoring '{}'", key);
    }
    if (data_dir) config.db.data_dir = *data_dir;
    if (listen) config.listen_address = *listen;
    if (port) config.port = *port;
    if (smp) config.smp = *smp;
    if (metrics_port) config.metrics_port = *metrics_port;
    if (http_port) config.http_port = *http_port;
    if (etcd) config.db.cluster.etcd_endpoints = tessel::server::split_list(*etcd);
    if (storage_port) config.db.cluster.storage_port = *storage_port;
    if (dc) config.db.cluster.dc = *dc;
    if (rack) config.db.cluster.rack = *rack;
    // Other nodes reach this one at its listen address.
    config.db.cluster.listen_address = config.listen_address;
    // Tablets are assigned to one shard per event loop unless configured.
    if (config.db.tablets.shards == 0) {
        config.db.tablets.shards =
            config.smp > 0 ? config.smp : static_cast<int>(std::thread::hardware_concurrency());
    }
    // system.local advertises where clients reach this node: the listen
    // address unless the config names another or it is a wildcard.
    if (config.db.rpc_address == "127.0.0.1" && config.listen_address != "0.0.0.0" &&
        config.listen_address != "::") {
        config.db.rpc_address = config.listen_address;
    }
    config.db.native_port = config.port;

    sigset_t stop_signals = block_stop_signals();

    auto db = tessel::Database::open(config.db);
    if (!db.is_ok()) {
        spdlog::error("cannot open database in {}: {}", config.db.data_dir, db.status().message());
        return 1;
    }
    tessel::server::Server server(config, **db);
    if (tessel::Status st = server.start(); !st.is_ok()) {
        spdlog::error("{}", st.message());
        return 1;
    }
    spdlog::info("tesseld ready on {}:{} ({} event loops, data in {})", config.listen_address,
                 server.port(), server.loop_count(), config.db.data_dir);

    // A node that decommissioned has left its cluster: it stops as if told to.
    (*db)->subscribe_cluster_events([](const tessel::ClusterEvent& e) {
        if (e.kind != tessel::ClusterEvent::Kind::kDecommissioned) return;
        spdlog::info("this node was decommissioned and left the cluster; stopping");
        kill(getpid(), SIGTERM);
    });

    int sig = 0;
    sigwait(&stop_signals, &sig);
    spdlog::info("received {}, stopping", sig == SIGTERM ? "SIGTERM" : "SIGINT");
    server.stop();
    if (tessel::Status st = (*db)->flush(); !st.is_ok()) {
        spdlog::error("flush failed: {}", st.message());
        return 1;
    }
    db->reset();
    spdlog::info("tesseld stopped");
    return 0;
}
