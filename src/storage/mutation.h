// The storage data model: what a write carries and what a read returns.
//
// Storage is byte-level. Keys arrive already encoded by the layers above:
// `partition_key` is the physical partition's key prefix ([token][partition
// key components], memcomparable, self-delimiting) and `clustering` is the
// memcomparable clustering prefix (DESC columns already inverted). Storage
// never interprets them beyond byte order, so the same code serves hash and
// ordered tables, sharded and bucketed ones.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tessel::storage {

// Write timestamps are microseconds since the epoch, as in Cassandra.
using Timestamp = int64_t;
constexpr Timestamp kNoTimestamp = std::numeric_limits<int64_t>::min();

// A deletion: data written at or before `timestamp` is shadowed. The
// local_deletion_time (seconds since the epoch, when the delete happened) is
// what gc_grace_seconds counts from before the tombstone may be purged.
struct DeletionTime {
    Timestamp timestamp = kNoTimestamp;
    int32_t local_deletion_time = 0;

    bool is_live() const { return timestamp == kNoTimestamp; }  // "no deletion"
    bool deletes(Timestamp ts) const { return !is_live() && ts <= timestamp; }
    bool supersedes(const DeletionTime& o) const { return timestamp > o.timestamp; }
};

// Row liveness (Cassandra's primary key liveness / row marker): written by
// INSERT, so a row with only null columns still exists.
struct LivenessInfo {
    Timestamp timestamp = kNoTimestamp;
    int32_t ttl = 0;     // seconds; 0 = none
    int32_t expiry = 0;  // seconds since epoch when it expires; 0 = never

    bool is_empty() const { return timestamp == kNoTimestamp; }
};

struct Cell {
    enum class Kind : uint8_t {
        kLive = 0,           // value, possibly expiring
        kTombstone = 1,      // deleted; `expiry` holds the local deletion time
        kCounterDelta = 2,   // 8-byte big-endian delta; deltas of a cell add up
        kCounterShards = 3,  // per-host shards (counter_shards.h); shards merge by clock
    };
    uint32_t column_id = 0;
    // Element of a non-frozen collection or field of a non-frozen UDT: the
    // element key (set element, map key, list timeuuid, field index). Empty
    // for a simple cell.
    std::string path;
    Kind kind = Kind::kLive;
    Timestamp timestamp = kNoTimestamp;
    int32_t ttl = 0;
    int32_t expiry = 0;
    std::string value;
};

// Deletion of a whole non-frozen collection/UDT column (SET l = [...] writes
// one at timestamp-1, then the new elements).
struct ComplexDeletion {
    uint32_t column_id = 0;
    DeletionTime deletion;
};

// A write to one row (or the static row): any subset of these parts.
// Cells are sorted by (column_id, path).
struct RowFragment {
    LivenessInfo marker;
    DeletionTime deletion;
    std::vector<ComplexDeletion> complex_deletions;
    std::vector<Cell> cells;
};

// Bounds over clustering prefixes. An inclusive start admits every row whose
// clustering starts with or sorts after `prefix`; an exclusive start admits
// rows after every row that starts with `prefix`. An inclusive end admits
// rows before or starting with `prefix`; an exclusive end admits rows sorting
// before `prefix` and not starting with it. An empty prefix is unbounded
// (inclusive flag ignored).
struct ClusteringBound {
    std::string prefix;
    bool inclusive = true;
};

struct RangeTombstone {
    ClusteringBound start;
    ClusteringBound end;
    DeletionTime deletion;
};

// Everything one statement writes to one physical partition.
struct PartitionMutation {
    std::string partition_key;
    DeletionTime partition_deletion;
    std::vector<RangeTombstone> range_tombstones;
    std::optional<RowFragment> static_row;
    std::vector<std::pair<std::string, RowFragment>> rows;  // clustering -> fragment
};

// A row as a read returns it: reconciled (last write wins per cell), with
// shadowed, expired and deleted data removed. Counter cells are summed into a
// single kLive cell holding the 8-byte total.
struct Row {
    std::string clustering;  // empty for the static row
    LivenessInfo marker;
    std::vector<Cell> cells;  // live cells only, sorted by (column_id, path)
};

}  // namespace tessel::storage
