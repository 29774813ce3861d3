// Options for the replica store and for each table's column family.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

namespace tessel::storage {

// How acknowledged writes reach stable storage (Cassandra's commitlog_sync).
enum class CommitlogSync {
    // The write-ahead log is written on every apply() but fsynced by a
    // background thread every `commitlog_sync_period_ms`: a process crash
    // (kill -9) loses nothing, a machine crash may lose up to one period.
    kPeriodic,
    // apply() returns only after the WAL holding the write is fsynced.
    // Concurrent writers form one RocksDB write group: the group leader
    // writes all their batches to the WAL and issues a single fsync, so N
    // concurrent writers share one sync (group commit).
    kBatch,
};

// Seconds since the epoch. Injectable so tests control TTL expiry and gc grace.
using Clock = std::function<int64_t()>;

struct StoreOptions {
    CommitlogSync commitlog_sync = CommitlogSync::kPeriodic;
    uint32_t commitlog_sync_period_ms = 10000;
    size_t block_cache_bytes = 64u << 20;
    size_t write_buffer_bytes = 64u << 20;  // per column family memtable
    int max_background_jobs = 2;
    // How often in-memory partition statistics are merged into the
    // "partition_stats" family. 0 disables the background flush (flush()
    // and close still persist them).
    uint32_t stats_flush_period_ms = 10000;
    // Defaults to the system clock. Used by compaction filters (gc grace,
    // expiry) and for partition statistics' last write time.
    Clock clock;
};

// Per-table storage settings, persisted with the table and applied by the
// table's compaction filter.
struct TableStorageOptions {
    // Tombstones (and expired cells) older than this are purged.
    int32_t gc_grace_seconds = 864000;
};

}  // namespace tessel::storage
