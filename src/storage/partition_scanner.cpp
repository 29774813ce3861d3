#include "storage/partition_scanner.h"

#include "storage/row_codec.h"
#include "storage/table_handle.h"

namespace tessel::storage {
namespace {

std::string_view view(const rocksdb::Slice& s) {
    return {s.data(), s.size()};
}

}  // namespace

Result<std::unique_ptr<PartitionScanner>> PartitionScanner::open(
    std::shared_ptr<const TableHandle> table, const KeyRange& range, int64_t now_seconds) {
    return std::unique_ptr<PartitionScanner>(
        new PartitionScanner(std::move(table), range, now_seconds));
}

PartitionScanner::PartitionScanner(std::shared_ptr<const TableHandle> table, const KeyRange& range,
                                   int64_t now_seconds)
    : table_(std::move(table)),
      range_(to_interval({range.start_key, range.start_inclusive},
                         {range.end_key, range.end_inclusive})),
      now_(now_seconds) {
    done_ = range_.empty;
    if (done_) return;
    rocksdb::ReadOptions ro;
    if (!range_.lo.empty()) {
        lower_bound_ = range_.lo;
        lower_slice_ = lower_bound_;
        ro.iterate_lower_bound = &lower_slice_;
    }
    if (range_.hi) {
        upper_bound_ = *range_.hi;
        upper_slice_ = upper_bound_;
        ro.iterate_upper_bound = &upper_slice_;
    }
    it_.reset(table_->db->NewIterator(ro, table_->cf));
}

PartitionScanner::~PartitionScanner() {
    primed_.reset();
    it_.reset();
}

bool PartitionScanner::next() {
    primed_.reset();
    while (!done_) {
        if (!started_) {
            started_ = true;
            it_->Seek(lower_bound_);
        } else {
            it_->Seek(partition_key_ + kEndMarker);
        }
        if (!it_->Valid()) {
            if (!it_->status().ok()) {
                status_ = Status::server("Failed to scan table: " + it_->status().ToString());
            }
            done_ = true;
            break;
        }
        auto prefix = peek_record(view(it_->value()));
        std::string_view key = view(it_->key());
        if (!prefix || prefix->pk_length >= key.size()) {
            status_ = Status::server("Corrupted record in table storage");
            done_ = true;
            break;
        }
        partition_key_.assign(key.substr(0, prefix->pk_length));
        if (!range_.contains(partition_key_)) {
            // Only a bound that extends a stored key gets here: keep going
            // until past the range (checked by the iterator's bounds).
            if (range_.hi && partition_key_ >= *range_.hi) {
                done_ = true;
                break;
            }
            continue;
        }
        ++partitions_scanned_;
        auto reader = PartitionReader::open(table_, partition_key_, SliceSpec{}, now_);
        if (!reader.is_ok()) {
            status_ = reader.status();
            done_ = true;
            break;
        }
        const bool live = (*reader)->has_live_data();
        rows_scanned_ += (*reader)->rows_scanned();
        tombstones_scanned_ += (*reader)->tombstones_scanned();
        if (!(*reader)->status().is_ok()) {
            status_ = (*reader)->status();
            done_ = true;
            break;
        }
        if (live) {
            primed_ = std::move(*reader);
            return true;
        }
    }
    return false;
}

Result<std::unique_ptr<PartitionReader>> PartitionScanner::read(const SliceSpec& slice) {
    if (primed_ && slice.is_full_forward()) return std::move(primed_);
    return PartitionReader::open(table_, partition_key_, slice, now_);
}

}  // namespace tessel::storage
