#include "storage/partition_reader.h"

#include "storage/counter_shards.h"
#include "storage/reconcile.h"
#include "storage/table_handle.h"

namespace tessel::storage {
namespace {

std::string_view view(const rocksdb::Slice& s) {
    return {s.data(), s.size()};
}

bool expired(int32_t expiry, int64_t now) {
    return expiry != 0 && expiry <= now;
}

}  // namespace

Result<std::unique_ptr<PartitionReader>> PartitionReader::open(
    std::shared_ptr<const TableHandle> table, std::string partition_key, const SliceSpec& slice,
    int64_t now_seconds) {
    std::unique_ptr<PartitionReader> r(
        new PartitionReader(std::move(table), std::move(partition_key), slice, now_seconds));
    TESSEL_RETURN_IF_ERROR(r->init());
    return r;
}

PartitionReader::PartitionReader(std::shared_ptr<const TableHandle> table,
                                 std::string partition_key, const SliceSpec& slice,
                                 int64_t now_seconds)
    : table_(std::move(table)),
      partition_key_(std::move(partition_key)),
      slice_(slice),
      now_(now_seconds),
      interval_(to_interval(slice.start, slice.end)) {}

PartitionReader::~PartitionReader() {
    it_.reset();
}

bool PartitionReader::fail(const std::string& what) {
    if (status_.is_ok()) status_ = Status::server(what);
    done_ = true;
    return false;
}

Status PartitionReader::read_header(std::string_view value) {
    if (!decode_header(value, &header_)) {
        return Status::server("Corrupted partition header in table storage");
    }
    if (!header_.partition_deletion.is_live()) ++tombstones_scanned_;
    tombstones_scanned_ += header_.range_tombstones.size();
    range_index_ = RangeTombstoneIndex(header_.range_tombstones);
    return Status::ok();
}

// The header, the static row (when asked for) and, given `clustering`, that
// row, in key order through one MultiGet: the table's Bloom filters (memtable
// and files) answer for absent keys without a search. The row's record stays
// pinned in point_values_ (point_row_ when it exists and lies in the slice).
// `snapshot` (may be null: the latest data) is the view to read.
Status PartitionReader::read_points(const std::string* clustering,
                                    const rocksdb::Snapshot* snapshot) {
    std::string keys[3] = {header_key(partition_key_), static_key(partition_key_),
                           clustering ? row_key(partition_key_, *clustering) : std::string()};
    rocksdb::Slice slices[3];
    size_t n = 0;
    slices[n++] = keys[0];
    if (slice_.include_static) slices[n++] = keys[1];
    if (clustering) slices[n++] = keys[2];
    rocksdb::PinnableSlice* values = point_values_;
    rocksdb::Status statuses[3];
    rocksdb::ReadOptions ro;
    ro.fill_cache = slice_.fill_cache;
    ro.snapshot = snapshot;
    table_->db->MultiGet(ro, table_->cf, n, slices, values, statuses,
                         /*sorted_input=*/true);
    for (size_t i = 0; i < n; ++i) {
        if (!statuses[i].ok() && !statuses[i].IsNotFound()) {
            return Status::server("Failed to read partition: " + statuses[i].ToString());
        }
    }
    if (statuses[0].ok()) TESSEL_RETURN_IF_ERROR(read_header(view(values[0])));
    values[0].Reset();
    if (slice_.include_static) {
        if (statuses[1].ok()) {
            Row row;
            if (materialize({}, view(values[1]), header_.partition_deletion, &row)) {
                static_row_ = std::move(row);
            }
            if (!status_.is_ok()) return status_;
        }
        values[1].Reset();
    }
    if (clustering && statuses[n - 1].ok() && interval_.contains(*clustering)) {
        point_row_ = &values[n - 1];
    }
    return Status::ok();
}

Status PartitionReader::init() {
    if (slice_.single_row) return read_points(&slice_.start.prefix, nullptr);
    lower_bound_ = header_key(partition_key_);
    upper_bound_ = partition_key_ + kEndMarker;
    lower_slice_ = lower_bound_;
    upper_slice_ = upper_bound_;
    rocksdb::ReadOptions ro;
    ro.fill_cache = slice_.fill_cache;
    ro.iterate_lower_bound = &lower_slice_;
    ro.iterate_upper_bound = &upper_slice_;

    if (slice_.reversed || !interval_.lo.empty()) {
        // The rows start elsewhere than right after the header and static
        // row: read those two by key, and seek once, to the rows. Both reads
        // see one snapshot (the iterator keeps its view once created).
        const rocksdb::Snapshot* snapshot = table_->db->GetSnapshot();
        ro.snapshot = snapshot;
        it_.reset(table_->db->NewIterator(ro, table_->cf));
        Status st = read_points(nullptr, snapshot);
        table_->db->ReleaseSnapshot(snapshot);
        TESSEL_RETURN_IF_ERROR(st);
        if (interval_.empty) {
            done_ = true;
        } else {
            position_rows();
        }
        return Status::ok();
    }
    // A slice from the partition's first row: one seek, to the header, and
    // the rows follow the header and the static row.
    it_.reset(table_->db->NewIterator(ro, table_->cf));
    const std::string skey = static_key(partition_key_);
    it_->Seek(lower_bound_);
    if (it_->Valid() && view(it_->key()) == lower_bound_) {
        TESSEL_RETURN_IF_ERROR(read_header(view(it_->value())));
        it_->Next();
    }
    if (it_->Valid() && view(it_->key()) == skey) {
        if (slice_.include_static) {
            Row row;
            if (materialize({}, view(it_->value()), header_.partition_deletion, &row)) {
                static_row_ = std::move(row);
            }
            if (!status_.is_ok()) return status_;
        }
        it_->Next();
    }
    if (!it_->status().ok()) {
        return Status::server("Failed to read partition: " + it_->status().ToString());
    }
    if (interval_.empty) done_ = true;
    return Status::ok();
}

void PartitionReader::position_rows() {
    if (!slice_.reversed) {
        it_->Seek(row_key(partition_key_, interval_.lo));
        return;
    }
    if (interval_.hi) {
        const std::string hi = row_key(partition_key_, *interval_.hi);
        it_->SeekForPrev(hi);
        if (it_->Valid() && view(it_->key()) == hi) it_->Prev();  // hi is exclusive
    } else {
        it_->SeekToLast();
    }
}

bool PartitionReader::has_live_data() {
    if (static_row_) return true;
    if (peeked_) return true;
    Row row;
    if (!read_next(&row)) return false;
    peeked_ = std::move(row);
    return true;
}

bool PartitionReader::next(Row* out) {
    if (peeked_) {
        *out = std::move(*peeked_);
        peeked_.reset();
        return true;
    }
    return read_next(out);
}

bool PartitionReader::read_next(Row* out) {
    if (!it_) {  // single row
        if (done_ || !point_row_) {
            done_ = true;
            return false;
        }
        done_ = true;  // a single row, then the end
        const std::string& clustering = slice_.start.prefix;
        const DeletionTime covering =
            max_deletion(header_.partition_deletion, range_index_.covering(clustering));
        const bool live = materialize(clustering, view(*point_row_), covering, out);
        return live && status_.is_ok();
    }
    const size_t pk_size = partition_key_.size();
    while (!done_ && it_->Valid()) {
        std::string_view key = view(it_->key());
        if (key.size() <= pk_size || key[pk_size] != kRowMarker) {
            done_ = true;  // reversed iteration reached the static row or header
            break;
        }
        std::string_view clustering = key.substr(pk_size + 1);
        if (!slice_.reversed && interval_.hi && clustering >= std::string_view(*interval_.hi)) {
            done_ = true;
            break;
        }
        if (slice_.reversed && clustering < std::string_view(interval_.lo)) {
            done_ = true;
            break;
        }
        const DeletionTime covering =
            max_deletion(header_.partition_deletion, range_index_.covering(clustering));
        const bool live = materialize(clustering, view(it_->value()), covering, out);
        if (!status_.is_ok()) return false;
        if (slice_.reversed) {
            it_->Prev();
        } else {
            it_->Next();
        }
        if (live) return true;
    }
    if (!it_->status().ok()) return fail("Failed to read partition: " + it_->status().ToString());
    done_ = true;
    return false;
}

bool PartitionReader::materialize(std::string_view clustering, std::string_view value,
                                  const DeletionTime& covering, Row* out) {
    RowValue& rv = scratch_;  // reused from row to row
    if (!decode_row(value, &rv)) return fail("Corrupted row in table storage");
    ++rows_scanned_;
    RowFragment& frag = rv.row;
    if (!frag.deletion.is_live()) ++tombstones_scanned_;
    const DeletionTime deletion = max_deletion(covering, frag.deletion);

    out->clustering.assign(clustering);
    out->marker = {};
    out->cells.clear();
    const LivenessInfo& m = frag.marker;
    if (!m.is_empty() && !deletion.deletes(m.timestamp)) {
        if (expired(m.expiry, now_)) {
            ++tombstones_scanned_;
        } else {
            out->marker = m;
        }
    }
    for (const auto& cd : frag.complex_deletions) {
        if (!deletion.deletes(cd.deletion.timestamp)) ++tombstones_scanned_;
    }
    out->cells.reserve(frag.cells.size());
    for (auto& c : frag.cells) {
        if (deletion.deletes(c.timestamp)) continue;
        if (!c.path.empty() && !frag.complex_deletions.empty()) {
            bool shadowed = false;
            for (const auto& cd : frag.complex_deletions) {
                if (cd.column_id == c.column_id) shadowed = cd.deletion.deletes(c.timestamp);
            }
            if (shadowed) continue;
        }
        if (c.kind == Cell::Kind::kTombstone || expired(c.expiry, now_)) {
            ++tombstones_scanned_;
            continue;
        }
        if (c.kind == Cell::Kind::kCounterDelta) c.kind = Cell::Kind::kLive;
        if (c.kind == Cell::Kind::kCounterShards) {
            c.kind = Cell::Kind::kLive;
            c.value = encode_counter(counter_shards_total(c.value));
        }
        out->cells.push_back(std::move(c));
    }
    return !out->marker.is_empty() || !out->cells.empty();
}

}  // namespace tessel::storage
