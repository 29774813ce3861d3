// The replica store: one RocksDB database holding a node's tables.
//
// Column families: "catalog" (metadata key/values for the layers above),
// "partition_stats" (see partition_stats.h), "local" (node-local data of the
// layers above: hints, Paxos state), "default" (storage's own
// bookkeeping: each table's TableStorageOptions) and one family per table,
// named by its table id. Inside a table family the key of a record is
//   [partition_key][0x00]               partition header (partition deletion,
//                                       range tombstones)
//   [partition_key][0x01]               static row
//   [partition_key][0x02][clustering]   clustering row
// so a partition's records are contiguous: header, static row, then rows in
// clustering byte order. Values are described in row_codec.h; every write is
// a merge operand (merge_operator.h), so no write reads first.
//
// Durability: the WAL is always on. See CommitlogSync for periodic vs batch.
//
// Thread safety: every method may be called from many threads at once.
// apply() and reads take no store-wide lock: the table map is an immutable
// snapshot swapped atomically by DDL (which is serialised). Readers and
// scanners returned by a Store must be destroyed before the Store.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include <rocksdb/db.h>

#include "common/status.h"
#include "storage/mutation.h"
#include "storage/partition_reader.h"
#include "storage/partition_scanner.h"
#include "storage/partition_stats.h"
#include "storage/range_files.h"
#include "storage/raw_reader.h"
#include "storage/storage_options.h"

namespace tessel::storage {

struct TableHandle;
struct TableGcSettings;

class Store {
  public:
    // Opens (creating if missing) the database in `directory`, with every
    // column family it holds. Server_error when RocksDB cannot open it.
    static Result<std::unique_ptr<Store>> open(const std::string& directory,
                                               StoreOptions options = {});
    // Equivalent to close(), ignoring its status.
    ~Store();
    Store(const Store&) = delete;
    Store& operator=(const Store&) = delete;

    // Persists partition statistics, fsyncs the WAL and closes the database.
    // Idempotent; no other method may be called afterwards.
    Status close();

    // ---- Catalog: metadata key/values, durably written (fsynced). ----
    Status put_meta(std::string_view key, std::string_view value);
    Result<std::optional<std::string>> get_meta(std::string_view key);
    Status delete_meta(std::string_view key);
    // Puts (a value) and deletes (nullopt) applied in one atomic, fsynced
    // write: a crash keeps all of them or none.
    Status write_meta(const std::vector<std::pair<std::string, std::optional<std::string>>>& ops);
    // Every (key, value) whose key starts with `prefix`, in key order.
    Result<std::vector<std::pair<std::string, std::string>>> list_meta(std::string_view prefix);

    // ---- Node-local data (hints, Paxos state), durable like table data
    // (per the commitlog_sync mode), not fsynced one by one like the catalog. ----
    Status put_local(std::string_view key, std::string_view value);
    Status delete_local(std::string_view key);
    Result<std::optional<std::string>> get_local(std::string_view key);
    // Up to `limit` (0: all) entries whose key starts with `prefix`, in key order.
    Result<std::vector<std::pair<std::string, std::string>>> list_local(std::string_view prefix,
                                                                        size_t limit = 0);

    // ---- Tables. ----
    // Already_exists if the table exists; Invalid for an empty id or a
    // reserved family name ("default", "catalog", "partition_stats", "local").
    Status create_table(const std::string& table_id, const TableStorageOptions& options = {});
    // Drops the column family and the table's partition statistics.
    Status drop_table(const std::string& table_id);
    // Removes all data (drops and recreates the family) and statistics.
    Status truncate_table(const std::string& table_id);
    bool has_table(const std::string& table_id) const;
    std::vector<std::string> list_tables() const;
    Status set_table_options(const std::string& table_id, const TableStorageOptions& options);
    Result<TableStorageOptions> table_options(const std::string& table_id) const;

    // ---- Data. ----
    // Writes the mutation atomically as one batch of merge operands. Returns
    // once durable per the commitlog_sync mode. Invalid for an unknown table,
    // a partition key over 65535 bytes or a counter delta that is not 8
    // bytes. Cells need not be sorted.
    Status apply(const std::string& table_id, const PartitionMutation& mutation);

    // Streams one partition (see partition_reader.h); a partition never
    // written reads as empty.
    Result<std::unique_ptr<PartitionReader>> read_partition(const std::string& table_id,
                                                            std::string partition_key,
                                                            const SliceSpec& slice,
                                                            int64_t now_seconds);
    // Iterates the partitions with live data whose key is in `range`.
    Result<std::unique_ptr<PartitionScanner>> scan_partitions(const std::string& table_id,
                                                              const KeyRange& range,
                                                              int64_t now_seconds);

    // Raw data, tombstones included, as mutations (see raw_reader.h): what
    // repair sends to replicas that miss it.
    Result<PartitionMutation> read_raw(const std::string& table_id,
                                       const std::string& partition_key,
                                       const ClusteringBound& start, const ClusteringBound& end,
                                       bool include_static);
    Result<RawScan> scan_raw(const std::string& table_id, const KeyRange& range, size_t max_bytes);
    Result<RangeDigests> digest_ranges(const std::string& table_id, const KeyRange& range,
                                       const std::vector<std::string>& boundaries);

    // ---- Moving a range between replicas (see range_files.h). ----
    // Writes the range's records and its partitions' statistics, as of one
    // snapshot, into SST files in `directory` (created; files of at most
    // about `max_file_bytes`). No files when the range holds nothing.
    Result<RangeFiles> export_range(const std::string& table_id, const RecordRange& range,
                                    const std::string& directory,
                                    uint64_t max_file_bytes = 64ull << 20);
    // Adds files export_range made (here or on another node) to `table_id`.
    // The files are moved into the store when they are on its file system.
    Status ingest_range(const std::string& table_id, const RangeFiles& files);
    // Removes every record of the range and its partitions' statistics (what
    // the old replica does once a range moved away), fsynced, then compacts
    // the range so its space is freed. Records written into the range while
    // it runs may survive: the range must no longer take writes. Invalid for
    // an unknown table or an end before the start.
    Status delete_range(const std::string& table_id, const RecordRange& range);

    // ---- Partition statistics (see partition_stats.h). ----
    Result<PartitionStats> get_partition_stats(const std::string& table_id,
                                               std::string_view partition_key);
    Status for_each_partition_stats(
        const std::string& table_id,
        const std::function<void(std::string_view partition_key, const PartitionStats&)>& fn);

    // ---- Maintenance and metrics. ----
    // Flushes every memtable to SST files and persists partition statistics.
    Status flush();
    // Fsyncs the WAL now (what the periodic sync thread does).
    Status sync_wal();
    // Fully compacts the table (CompactRange, bottommost level included),
    // running the compaction filter with the store clock's current time.
    // Tombstones past gc grace held in merge operands are purged by the
    // compaction after the one that resolves the operands into a value.
    Status compact(const std::string& table_id);
    // A RocksDB property of the whole database ("rocksdb.stats",
    // "rocksdb.estimate-live-data-size", ...) or of one table's family;
    // nullopt for an unknown property or table.
    std::optional<std::string> property(std::string_view name) const;
    std::optional<std::string> table_property(const std::string& table_id,
                                              std::string_view name) const;
    std::optional<uint64_t> table_int_property(const std::string& table_id,
                                               std::string_view name) const;

    // The store clock (seconds since the epoch).
    int64_t now_seconds() const { return options_.clock(); }

  private:
    using TableMap = std::unordered_map<std::string, std::shared_ptr<const TableHandle>>;

    Store(std::string directory, StoreOptions options);
    Status open_db();
    Status load_table_options();
    std::shared_ptr<const TableHandle> find_table(const std::string& table_id) const;
    rocksdb::ColumnFamilyOptions filtered_cf_options() const;
    rocksdb::ColumnFamilyOptions table_cf_options(std::shared_ptr<TableGcSettings> gc) const;
    rocksdb::ColumnFamilyOptions stats_cf_options() const;
    Status write_table_options(const std::string& table_id, const TableStorageOptions& o);
    void publish(std::shared_ptr<const TableMap> map);
    // Write options of table and node-local data (sync in batch mode).
    rocksdb::WriteOptions data_write() const;
    void background_loop();
    void try_resume();

    const std::string directory_;
    StoreOptions options_;
    std::shared_ptr<rocksdb::Cache> block_cache_;
    std::unique_ptr<rocksdb::DB> db_;
    rocksdb::ColumnFamilyHandle* default_cf_ = nullptr;
    rocksdb::ColumnFamilyHandle* catalog_cf_ = nullptr;
    rocksdb::ColumnFamilyHandle* stats_cf_ = nullptr;
    rocksdb::ColumnFamilyHandle* local_cf_ = nullptr;
    std::atomic<std::shared_ptr<const TableMap>> tables_;
    std::mutex ddl_mu_;  // serialises create/drop/truncate/set options
    std::unique_ptr<PartitionStatsTracker> stats_;

    std::mutex bg_mu_;
    std::condition_variable bg_cv_;
    bool stopping_ = false;
    // Set when a write failed (disk full, I/O error): RocksDB then refuses
    // every write until resumed, so the background thread calls Resume()
    // every second until it succeeds (space came back).
    std::atomic<bool> resume_needed_{false};
    std::thread bg_thread_;
    bool closed_ = false;
};

}  // namespace tessel::storage
