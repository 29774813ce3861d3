// Scanning the partitions of a table in partition key byte order.
//
// Partition keys are opaque to storage, so the scanner learns where a stored
// key's partition key ends from the value: every record carries its
// partition key length (see row_codec.h). After visiting a partition it
// seeks to pk + 0x03, past every record of that partition (marker bytes are
// 0x00..0x02), which is why partition keys must be self-delimiting: no
// partition key may be a prefix of another.
//
// Partitions without a live static row or a live row at the scan's
// `now_seconds` (fully deleted, expired, or holding only tombstones) are
// skipped. A scanner must be destroyed before its Store; not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <rocksdb/db.h>

#include "common/status.h"
#include "storage/clustering_range.h"
#include "storage/partition_reader.h"

namespace tessel::storage {

struct TableHandle;

// A range of partition keys with ClusteringBound's prefix semantics applied
// to partition key bytes: an inclusive end admits keys starting with
// `end_key`, an exclusive start skips them. An empty key is unbounded.
struct KeyRange {
    std::string start_key;
    bool start_inclusive = true;
    std::string end_key;
    bool end_inclusive = true;
};

class PartitionScanner {
  public:
    static Result<std::unique_ptr<PartitionScanner>> open(std::shared_ptr<const TableHandle> table,
                                                          const KeyRange& range,
                                                          int64_t now_seconds);
    ~PartitionScanner();
    PartitionScanner(const PartitionScanner&) = delete;
    PartitionScanner& operator=(const PartitionScanner&) = delete;

    // Moves to the next partition holding live data; false at the end or on
    // error (then status() is not OK).
    bool next();
    // The current partition's key. Requires a preceding next() that returned true.
    const std::string& partition_key() const { return partition_key_; }
    // A reader over (a slice of) the current partition, at the scan's
    // now_seconds. The first full forward read of a partition reuses the
    // reader that checked it for live data.
    Result<std::unique_ptr<PartitionReader>> read(const SliceSpec& slice);
    const Status& status() const { return status_; }

    // Partitions examined (including skipped ones) and the rows and
    // tombstones read while looking for live data.
    uint64_t partitions_scanned() const { return partitions_scanned_; }
    uint64_t rows_scanned() const { return rows_scanned_; }
    uint64_t tombstones_scanned() const { return tombstones_scanned_; }

  private:
    PartitionScanner(std::shared_ptr<const TableHandle> table, const KeyRange& range,
                     int64_t now_seconds);

    std::shared_ptr<const TableHandle> table_;
    ClusteringInterval range_;
    int64_t now_;
    std::string partition_key_;
    std::unique_ptr<PartitionReader> primed_;
    Status status_;
    bool started_ = false;
    bool done_ = false;
    uint64_t partitions_scanned_ = 0;
    uint64_t rows_scanned_ = 0;
    uint64_t tombstones_scanned_ = 0;
    std::string lower_bound_;
    std::string upper_bound_;
    rocksdb::Slice lower_slice_;
    rocksdb::Slice upper_slice_;
    std::unique_ptr<rocksdb::Iterator> it_;
};

}  // namespace tessel::storage
