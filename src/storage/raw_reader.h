// Raw reads: what a table stores, tombstones and expired data included, as
// mutations that reproduce it when applied to another replica. Read repair
// and anti-entropy repair send these to the replicas that miss data; since a
// write is a merge that keeps the later of every cell and deletion, applying
// a raw mutation to a replica that already holds newer data changes nothing.
//
// Digests of raw data (for anti-entropy) hash each record's canonical form:
// the decoded fragment with what its own deletions shadow removed, so two
// replicas holding the same data hash the same whatever order the writes
// arrived in. Data shadowed by a partition deletion or range tombstone still
// counts; repair then sends it once and the digests agree afterwards.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "storage/mutation.h"
#include "storage/partition_scanner.h"

namespace tessel::storage {

struct TableHandle;

// The partition's header (partition deletion and every range tombstone), its
// static row when `include_static`, and its rows whose clustering lies in
// [start, end] (ClusteringBound's prefix semantics), as stored. A partition
// never written reads as an empty mutation.
Result<PartitionMutation> read_raw_partition(const std::shared_ptr<const TableHandle>& table,
                                             const std::string& partition_key,
                                             const ClusteringBound& start,
                                             const ClusteringBound& end, bool include_static);

struct RawScan {
    std::vector<PartitionMutation> partitions;
    bool exhausted = true;  // no partition of the range after these
};

// Whole partitions of `range` in key order, until `max_bytes` of stored
// records were read (the partition that passes it is completed).
Result<RawScan> scan_raw(const std::shared_ptr<const TableHandle>& table, const KeyRange& range,
                         size_t max_bytes);

// Digests of the raw records of consecutive sub-ranges of `range`, cut at
// `boundaries` (sorted; each is the inclusive first key of the next
// sub-range), and the number of partitions in each.
struct RangeDigests {
    std::vector<std::string> digests;  // boundaries.size() + 1, 16 bytes each
    std::vector<uint64_t> partitions;
};
Result<RangeDigests> digest_ranges(const std::shared_ptr<const TableHandle>& table,
                                   const KeyRange& range,
                                   const std::vector<std::string>& boundaries);

}  // namespace tessel::storage
