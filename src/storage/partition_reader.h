// Reading one partition: a streaming, reconciled view of its rows.
//
// A reader never materialises the partition. Opening it reads the partition
// header (partition deletion, range tombstones) and the static row; rows
// then stream from a RocksDB iterator bounded to the slice, in clustering
// order or reversed. Returned rows are reconciled and filtered: data
// shadowed by the partition deletion, a covering range tombstone, the row
// deletion or a complex deletion is removed (timestamp <= deletion
// timestamp), as are tombstones and cells expired at `now_seconds`; rows
// left with no live marker and no live cell are skipped.
//
// The header, static row and rows are read through one iterator, so they
// come from one consistent view of the store; a single-row slice reads its
// (at most three) keys with one MultiGet, which is one consistent view too.
//
// A reader must be destroyed before the Store that created it. It is not
// thread-safe; use one reader per thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <rocksdb/db.h>

#include "common/frame_cache.h"
#include "common/status.h"
#include "storage/clustering_range.h"
#include "storage/mutation.h"
#include "storage/row_codec.h"

namespace tessel::storage {

struct TableHandle;

// Which part of a partition to read. Empty bounds read the whole partition.
struct SliceSpec {
    ClusteringBound start;
    ClusteringBound end;
    bool reversed = false;
    bool include_static = true;
    // The caller's promise that the slice holds at most one row, the one whose
    // full clustering is start.prefix (every clustering column fixed by
    // equality, or a table without clustering columns). The reader then looks
    // the few keys up directly instead of iterating over the partition.
    bool single_row = false;
    // False for the continuation pages of a paged read: the blocks such a
    // scan reads do not displace the block cache's working set (nor grow the
    // server's memory by a large partition's size, up to the cache's).
    bool fill_cache = true;

    bool is_full_forward() const {
        return start.prefix.empty() && end.prefix.empty() && !reversed && include_static;
    }
};

class PartitionReader {
  public:
    // Reads the header and static row. Fails (Server_error) only when the
    // store cannot be read or a record is corrupt.
    static Result<std::unique_ptr<PartitionReader>> open(std::shared_ptr<const TableHandle> table,
                                                         std::string partition_key,
                                                         const SliceSpec& slice,
                                                         int64_t now_seconds);
    ~PartitionReader();
    // One reader per partition read, and too large (over 1 KiB) for malloc's
    // per-thread cache: freed readers are kept per thread for the next read.
    static void* operator new(std::size_t n) { return FrameCache::allocate(n); }
    static void operator delete(void* p, std::size_t n) noexcept { FrameCache::deallocate(p, n); }
    PartitionReader(const PartitionReader&) = delete;
    PartitionReader& operator=(const PartitionReader&) = delete;

    const std::string& partition_key() const { return partition_key_; }
    // The live static row, if the slice includes it and it has live data.
    const std::optional<Row>& static_row() const { return static_row_; }
    // The partition deletion (live when the partition was never deleted).
    const DeletionTime& partition_deletion() const { return header_.partition_deletion; }

    // Fills `out` with the next live row of the slice; false at the end or
    // on error (then status() is not OK).
    bool next(Row* out);
    const Status& status() const { return status_; }

    // Row records read (live or not) and tombstones met (partition and range
    // tombstones, row and complex deletions, cell tombstones, expired cells
    // and markers): the inputs of the tombstone warning/failure thresholds.
    uint64_t rows_scanned() const { return rows_scanned_; }
    uint64_t tombstones_scanned() const { return tombstones_scanned_; }

    // True when the slice holds a live static row or at least one live row;
    // reads ahead one row, which next() then returns.
    bool has_live_data();

  private:
    PartitionReader(std::shared_ptr<const TableHandle> table, std::string partition_key,
                    const SliceSpec& slice, int64_t now_seconds);
    Status init();
    Status read_points(const std::string* clustering, const rocksdb::Snapshot* snapshot);
    Status read_header(std::string_view value);
    void position_rows();
    bool read_next(Row* out);
    // Reconciled live view of a row record; false when nothing is live.
    bool materialize(std::string_view clustering, std::string_view value,
                     const DeletionTime& covering, Row* out);
    bool fail(const std::string& what);

    std::shared_ptr<const TableHandle> table_;
    std::string partition_key_;
    SliceSpec slice_;
    int64_t now_;
    ClusteringInterval interval_;
    HeaderValue header_;
    RangeTombstoneIndex range_index_;
    std::optional<Row> static_row_;
    std::optional<Row> peeked_;
    RowValue scratch_;  // the record being materialized
    Status status_;
    uint64_t rows_scanned_ = 0;
    uint64_t tombstones_scanned_ = 0;
    bool done_ = false;
    // Records read by key (read_points): the header's and the static row's
    // are released once decoded; a single_row slice's row stays pinned, and
    // point_row_ says whether it exists and is still to be returned.
    rocksdb::PinnableSlice point_values_[3];
    const rocksdb::PinnableSlice* point_row_ = nullptr;
    // Bounds must outlive the iterator (declared first, destroyed last).
    std::string lower_bound_;
    std::string upper_bound_;
    rocksdb::Slice lower_slice_;
    rocksdb::Slice upper_slice_;
    std::unique_ptr<rocksdb::Iterator> it_;
};

}  // namespace tessel::storage
