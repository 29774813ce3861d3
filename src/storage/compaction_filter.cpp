#include "storage/compaction_filter.h"

#include <string>

#include "storage/clustering_range.h"
#include "storage/reconcile.h"
#include "storage/row_codec.h"

namespace tessel::storage {
namespace {

class TableCompactionFilter : public rocksdb::CompactionFilter {
  public:
    TableCompactionFilter(int64_t now, int32_t gc_grace) : now_(now), gc_before_(now - gc_grace) {}

    Decision FilterV2(int /*level*/, const rocksdb::Slice& key, ValueType type,
                      const rocksdb::Slice& existing, std::string* new_value,
                      std::string* /*skip_until*/) const override {
        if (type != ValueType::kValue && type != ValueType::kMergeOperand) return Decision::kKeep;
        // A merge operand may sit above older versions this compaction does
        // not see, so only changes that are right whatever those versions
        // hold apply to it; purging tombstones past gc grace is not one.
        const bool resolved = type == ValueType::kValue;
        std::string_view value(existing.data(), existing.size());
        auto prefix = peek_record(value);
        if (!prefix || prefix->pk_length >= key.size()) return Decision::kKeep;
        std::string_view k(key.data(), key.size());
        std::string_view pk = k.substr(0, prefix->pk_length);
        if (prefix->type == RecordType::kHeader) {
            remember_header(pk, value);
            return Decision::kKeep;
        }
        RowValue row;
        if (!decode_row(value, &row)) return Decision::kKeep;
        bool changed = false;
        if (pk == header_pk_) {
            DeletionTime d = header_.partition_deletion;
            if (k[pk.size()] == kRowMarker) {
                d = max_deletion(d, header_index_.covering(k.substr(pk.size() + 1)));
            }
            changed |= purge_shadowed_by(d, &row.row);
        }
        changed |= expire_cells(&row.row);
        if (resolved) changed |= purge_past_gc_grace(&row.row);
        const RowFragment& r = row.row;
        if (r.marker.is_empty() && r.deletion.is_live() && r.complex_deletions.empty() &&
            r.cells.empty()) {
            // An empty operand changes nothing, so it may go as well.
            return Decision::kRemove;
        }
        if (!changed) return Decision::kKeep;
        encode_row(row.pk_length, row.row, new_value);
        return Decision::kChangeValue;
    }

    const char* Name() const override { return "TesselTableCompactionFilter"; }

  private:
    // Header deletions only grow as operands merge, so any version of the
    // header, operand or value, may be used to purge what it shadows.
    void remember_header(std::string_view pk, std::string_view value) const {
        HeaderValue h;
        if (!decode_header(value, &h)) return;
        if (pk == header_pk_) {
            merge_header(&header_, std::move(h));
        } else {
            header_pk_.assign(pk);
            header_ = std::move(h);
        }
        header_index_ = RangeTombstoneIndex(header_.range_tombstones);
    }

    static bool purge_shadowed_by(const DeletionTime& d, RowFragment* row) {
        if (d.is_live()) return false;
        bool changed = false;
        if (!row->marker.is_empty() && d.deletes(row->marker.timestamp)) {
            row->marker = {};
            changed = true;
        }
        if (!row->deletion.is_live() && d.deletes(row->deletion.timestamp)) {
            row->deletion = {};
            changed = true;
        }
        changed |= std::erase_if(row->complex_deletions, [&](const ComplexDeletion& cd) {
                       return d.deletes(cd.deletion.timestamp);
                   }) > 0;
        changed |=
            std::erase_if(row->cells, [&](const Cell& c) { return d.deletes(c.timestamp); }) > 0;
        return changed;
    }

    bool purgeable(int64_t local_deletion_time) const { return local_deletion_time < gc_before_; }

    // An expired cell is a tombstone from its expiry on (as in Cassandra).
    bool expire_cells(RowFragment* row) const {
        bool changed = false;
        for (auto& c : row->cells) {
            if (c.kind == Cell::Kind::kLive && c.expiry != 0 && c.expiry <= now_) {
                c.kind = Cell::Kind::kTombstone;
                c.ttl = 0;
                c.value.clear();
                changed = true;
            }
        }
        return changed;
    }

    bool purge_past_gc_grace(RowFragment* row) const {
        bool changed = false;
        const LivenessInfo& m = row->marker;
        if (!m.is_empty() && m.expiry != 0 && m.expiry <= now_ && purgeable(m.expiry)) {
            row->marker = {};
            changed = true;
        }
        if (!row->deletion.is_live() && purgeable(row->deletion.local_deletion_time)) {
            row->deletion = {};
            changed = true;
        }
        changed |= std::erase_if(row->complex_deletions, [&](const ComplexDeletion& cd) {
                       return purgeable(cd.deletion.local_deletion_time);
                   }) > 0;
        changed |= std::erase_if(row->cells, [&](const Cell& c) {
                       return c.kind == Cell::Kind::kTombstone && purgeable(c.expiry);
                   }) > 0;
        return changed;
    }

    const int64_t now_;
    const int64_t gc_before_;
    // The last header seen in this compaction; keys arrive in order, and a
    // partition's header sorts before its rows. FilterV2 is const in the
    // RocksDB interface, but a filter instance serves one compaction thread.
    mutable std::string header_pk_;
    mutable HeaderValue header_;
    mutable RangeTombstoneIndex header_index_;
};

class TableCompactionFilterFactory : public rocksdb::CompactionFilterFactory {
  public:
    explicit TableCompactionFilterFactory(std::shared_ptr<TableGcSettings> s)
        : settings_(std::move(s)) {}

    std::unique_ptr<rocksdb::CompactionFilter> CreateCompactionFilter(
        const rocksdb::CompactionFilter::Context& /*context*/) override {
        return std::make_unique<TableCompactionFilter>(settings_->clock(),
                                                       settings_->gc_grace_seconds.load());
    }

    const char* Name() const override { return "TesselTableCompactionFilterFactory"; }

  private:
    std::shared_ptr<TableGcSettings> settings_;
};

}  // namespace

std::shared_ptr<rocksdb::CompactionFilterFactory> make_table_compaction_filter_factory(
    std::shared_ptr<TableGcSettings> settings) {
    return std::make_shared<TableCompactionFilterFactory>(std::move(settings));
}

}  // namespace tessel::storage
