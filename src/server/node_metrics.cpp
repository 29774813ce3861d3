#include "server/node_metrics.h"

#include <map>
#include <utility>

#include "embedded/partition_health.h"

namespace tessel::server {

NodeMetrics::NodeMetrics(Database& db) : db_(db), requests_(registry_), http_(registry_) {
    if (const auto* health = db_.partition_health()) {
        diagnostics::add_partition_health_collector(registry_, health->large(), health->hot());
    }
    registry_.add_collector([this](diagnostics::CollectorSink& s) { collect_storage(s); });
    registry_.add_collector([this](diagnostics::CollectorSink& s) { collect_tablets(s); });
}

NodeMetrics::~NodeMetrics() {
    http_.stop();
}

Status NodeMetrics::serve(const std::string& address, int port) {
    return http_.start({address, port});
}

void NodeMetrics::collect_storage(diagnostics::CollectorSink& sink) const {
    struct Property {
        const char* rocksdb;
        const char* metric;
        const char* help;
    };
    static const Property kProperties[] = {
        {"rocksdb.estimate-live-data-size", "tessel_rocksdb_live_data_size_bytes",
         "Estimated size of the live data in SST files."},
        {"rocksdb.total-sst-files-size", "tessel_rocksdb_sst_files_size_bytes",
         "Size of every SST file."},
        {"rocksdb.cur-size-all-mem-tables", "tessel_rocksdb_memtables_size_bytes",
         "Size of the active and unflushed memtables."},
        {"rocksdb.estimate-num-keys", "tessel_rocksdb_estimated_keys", "Estimated number of keys."},
        {"rocksdb.num-running-compactions", "tessel_rocksdb_running_compactions",
         "Compactions running now."},
        {"rocksdb.num-running-flushes", "tessel_rocksdb_running_flushes",
         "Memtable flushes running now."},
        {"rocksdb.estimate-pending-compaction-bytes", "tessel_rocksdb_pending_compaction_bytes",
         "Estimated bytes compaction still has to rewrite."},
        {"rocksdb.block-cache-usage", "tessel_rocksdb_block_cache_usage_bytes",
         "Memory held by the block cache."},
    };
    for (const auto& p : kProperties) {
        if (auto v = db_.storage_int_property(p.rocksdb)) {
            sink.gauge(p.metric, p.help, {}, static_cast<double>(*v));
        }
    }
}

void NodeMetrics::collect_tablets(diagnostics::CollectorSink& sink) const {
    // Read over CQL so this does not depend on how the tablet map is kept;
    // before system.tablets exists there is nothing to report.
    auto session = db_.new_session();
    auto rs = session->execute("SELECT keyspace_name, table_name FROM system.tablets", {});
    if (!rs.is_ok()) return;
    std::map<std::pair<std::string, std::string>, uint64_t> per_table;
    for (const auto& row : rs->rows) {
        if (row.size() < 2 || !row[0] || !row[1]) continue;
        ++per_table[{*row[0], *row[1]}];
    }
    for (const auto& [key, n] : per_table) {
        sink.gauge("tessel_tablets", "Tablets per table.",
                   {{"keyspace", key.first}, {"table", key.second}}, static_cast<double>(n));
    }
}

}  // namespace tessel::server
