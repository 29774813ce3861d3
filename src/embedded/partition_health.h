// PartitionHealth: the coordinator's QueryObserver (query/observer.h) over the
// src/diagnostics components, owned by the Database.
//
// Write path, per partition of a statement, before anything is applied:
//  - the partition's write and bytes counters of the table's hot partitions
//    sketch (Space-Saving, striped per thread: no global lock);
//  - row and cell size thresholds on every row of the mutation;
//  - partition size / row count thresholds on storage's running totals
//    (storage::PartitionStats, kept per partition on every write) plus this
//    mutation: crossing a warn threshold logs one line and records the
//    partition for system.large_partitions; reaching a fail threshold
//    refuses the statement with Invalid naming the limit. A mutation that
//    only deletes is never refused (it is how an operator shrinks the
//    partition).
// Read path: the read counter per partition read, and the tombstone
// thresholds after each page (client warning past tombstone_warn_threshold,
// Read_failure past tombstone_failure_threshold).
//
// Tables with write_sharding or time_bucket: hot-partition counters are kept
// per logical partition; size and row totals are storage's, which are per
// physical partition, so those tables are checked against row and cell
// thresholds only.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cql/plan_table.h"
#include "diagnostics/advisor.h"
#include "diagnostics/hot_partitions.h"
#include "diagnostics/large_partitions.h"
#include "diagnostics/tombstone_thresholds.h"
#include "query/observer.h"

namespace tessel::storage {
class Store;
}

namespace tessel::embedded {

struct PartitionHealthOptions {
    diagnostics::LargePartitionThresholds large;
    diagnostics::TombstoneThresholds tombstones;
    diagnostics::HotPartitionsOptions hot;
};

// The display form of a partition key: each component as cqlsh prints it,
// joined by ':'.
std::string display_partition_key(const cql::TableInfo& table,
                                  const std::vector<std::string>& components);

// The partition key components (native-protocol values) of a key as the
// hot-partition sketches record it (TopKEntry::key).
std::vector<std::string> partition_key_components(std::string_view sketch_key);

class PartitionHealth final : public query::QueryObserver {
  public:
    // A table of the current schema by name: its TableInfo (null when
    // unknown) and its CREATE TABLE statement (DESCRIBE's text).
    struct TableSchema {
        cql::TablePtr info;
        std::string create_statement;
    };
    using TableLookup =
        std::function<TableSchema(const std::string& keyspace, const std::string& table)>;

    // `store` must outlive this object.
    PartitionHealth(storage::Store* store, PartitionHealthOptions options, TableLookup lookup);

    Status before_write(const cql::TableInfo& table, const std::vector<std::string>& partition_key,
                        const storage::PartitionMutation& mutation) override;
    void on_partition_read(const cql::TableInfo& table,
                           const std::vector<std::string>& partition_key) override;
    Status after_read(const cql::TableInfo& table, uint64_t tombstones, uint64_t live_rows,
                      std::string_view query_text, std::vector<std::string>* warnings) override;

    // A table was dropped: its records and sketches go.
    void forget_table(const std::string& keyspace, const std::string& table);

    const diagnostics::LargePartitionTracker& large() const { return large_; }
    const diagnostics::HotPartitionsRegistry& hot() const { return hot_; }
    const PartitionHealthOptions& options() const { return options_; }
    // The table of the current schema by name (a null info when unknown).
    TableSchema table_schema(const std::string& keyspace, const std::string& table) const {
        return lookup_ ? lookup_(keyspace, table) : TableSchema{};
    }

    // What the advisor needs of every table with recorded traffic
    // (system.partition_advice).
    Result<std::vector<diagnostics::TableStatistics>> advisor_statistics() const;

  private:
    diagnostics::HotPartitions& hot_for(const cql::TableInfo& table);
    Status check_partition_totals(const cql::TableInfo& table,
                                  const std::vector<std::string>& partition_key,
                                  const storage::PartitionMutation& mutation, uint64_t bytes,
                                  uint64_t rows, uint64_t tombstones, bool deletes_only,
                                  diagnostics::TimeMs now);

    storage::Store* store_;
    PartitionHealthOptions options_;
    TableLookup lookup_;
    diagnostics::LargePartitionTracker large_;
    diagnostics::HotPartitionsRegistry hot_;
    // Lowest enabled partition size and rows thresholds (warn or fail):
    // below both, a write needs no storage lookup.
    uint64_t size_floor_ = 0;
    uint64_t rows_floor_ = 0;
    uint64_t row_floor_ = 0;
    uint64_t cell_floor_ = 0;
    // Distinguishes instances in the per-thread sketch cache.
    const uint64_t instance_id_;
    std::atomic<uint64_t> generation_{0};  // bumped by forget_table
};

}  // namespace tessel::embedded
