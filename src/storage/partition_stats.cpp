#include "storage/partition_stats.h"

#include <algorithm>
#include <memory>

#include <rocksdb/write_batch.h>

#include "storage/clustering_range.h"

namespace tessel::storage {
namespace {

void put_varint(std::string* out, uint64_t v) {
    while (v >= 0x80) {
        out->push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out->push_back(static_cast<char>(v));
}

bool get_varint(std::string_view* in, uint64_t* v) {
    uint64_t r = 0;
    for (int shift = 0; shift <= 63 && !in->empty(); shift += 7) {
        auto b = static_cast<uint8_t>(in->front());
        in->remove_prefix(1);
        r |= static_cast<uint64_t>(b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
            *v = r;
            return true;
        }
    }
    return false;
}

void encode_stats(const PartitionStats& s, std::string* out) {
    put_varint(out, s.bytes_written);
    put_varint(out, s.row_writes);
    put_varint(out, s.tombstones_written);
    put_varint(out, static_cast<uint64_t>(s.last_write_time));
}

bool decode_stats(std::string_view in, PartitionStats* s) {
    uint64_t last = 0;
    bool ok = get_varint(&in, &s->bytes_written) && get_varint(&in, &s->row_writes) &&
              get_varint(&in, &s->tombstones_written) && get_varint(&in, &last) && in.empty();
    s->last_write_time = static_cast<int64_t>(last);
    return ok;
}

// Keys: [varint table id length][table id][partition key], so one table's
// partitions are contiguous and in partition key order.
std::string table_prefix(std::string_view table_id) {
    std::string k;
    put_varint(&k, table_id.size());
    k.append(table_id);
    return k;
}

std::string stats_key(std::string_view table_id, std::string_view pk) {
    std::string k = table_prefix(table_id);
    k.append(pk);
    return k;
}

class StatsMergeOperator : public rocksdb::AssociativeMergeOperator {
  public:
    bool Merge(const rocksdb::Slice& /*key*/, const rocksdb::Slice* existing,
               const rocksdb::Slice& value, std::string* new_value,
               rocksdb::Logger* /*logger*/) const override {
        PartitionStats acc, delta;
        if (existing && !decode_stats({existing->data(), existing->size()}, &acc)) return false;
        if (!decode_stats({value.data(), value.size()}, &delta)) return false;
        acc.add(delta);
        new_value->clear();
        encode_stats(acc, new_value);
        return true;
    }
    const char* Name() const override { return "TesselPartitionStatsAdd"; }
};

}  // namespace

void PartitionStats::add(const PartitionStats& o) {
    bytes_written += o.bytes_written;
    row_writes += o.row_writes;
    tombstones_written += o.tombstones_written;
    last_write_time = std::max(last_write_time, o.last_write_time);
}

std::shared_ptr<rocksdb::MergeOperator> make_stats_merge_operator() {
    return std::make_shared<StatsMergeOperator>();
}

PartitionStatsTracker::PartitionStatsTracker(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* cf)
    : db_(db), cf_(cf) {}

PartitionStatsTracker::Shard& PartitionStatsTracker::shard_for(std::string_view key) {
    return shards_[std::hash<std::string_view>{}(key) % kShards];
}

void PartitionStatsTracker::record(std::string_view table_id, std::string_view pk,
                                   const PartitionStats& delta) {
    std::string key = stats_key(table_id, pk);
    Shard& shard = shard_for(key);
    std::lock_guard lock(shard.mu);
    shard.pending[std::move(key)].add(delta);
}

Result<PartitionStats> PartitionStatsTracker::get(std::string_view table_id, std::string_view pk) {
    std::string key = stats_key(table_id, pk);
    Shard& shard = shard_for(key);
    // Held across the read so a concurrent flush cannot move the pending
    // delta into the family between the two halves (counting it twice).
    std::lock_guard lock(shard.mu);
    PartitionStats total;
    std::string stored;
    auto s = db_->Get(rocksdb::ReadOptions(), cf_, key, &stored);
    if (s.ok()) {
        if (!decode_stats(stored, &total)) {
            return Status::server("Corrupted partition statistics record");
        }
    } else if (!s.IsNotFound()) {
        return Status::server("Failed to read partition statistics: " + s.ToString());
    }
    if (auto it = shard.pending.find(key); it != shard.pending.end()) total.add(it->second);
    return total;
}

Status PartitionStatsTracker::flush_shard(Shard& shard) {
    if (shard.pending.empty()) return Status::ok();
    // In key order: the memtable then inserts each key next to the previous
    // one instead of searching its skip list from the top (the pending map
    // is a hash map, and a flush can hold every partition written lately).
    std::vector<const std::pair<const std::string, PartitionStats>*> sorted;
    sorted.reserve(shard.pending.size());
    for (const auto& entry : shard.pending)
        sorted.push_back(&entry);
    std::sort(sorted.begin(), sorted.end(),
              [](const auto* a, const auto* b) { return a->first < b->first; });
    rocksdb::WriteBatch batch;
    std::string value;
    for (const auto* entry : sorted) {
        value.clear();
        encode_stats(entry->second, &value);
        batch.Merge(cf_, entry->first, value);
    }
    auto s = db_->Write(rocksdb::WriteOptions(), &batch);
    if (!s.ok()) return Status::server("Failed to persist partition statistics: " + s.ToString());
    shard.pending.clear();
    return Status::ok();
}

Status PartitionStatsTracker::flush() {
    Status result;
    for (auto& shard : shards_) {
        std::lock_guard lock(shard.mu);
        Status s = flush_shard(shard);
        if (!s.is_ok() && result.is_ok()) result = s;
    }
    return result;
}

std::string PartitionStatsTracker::key_of(std::string_view table_id,
                                          std::string_view partition_key) {
    return stats_key(table_id, partition_key);
}

std::string PartitionStatsTracker::table_end(std::string_view table_id) {
    return prefix_successor(table_prefix(table_id)).value_or(std::string());
}

Status PartitionStatsTracker::for_each(
    std::string_view table_id,
    const std::function<void(std::string_view, const PartitionStats&)>& fn) {
    TESSEL_RETURN_IF_ERROR(flush());
    const std::string prefix = table_prefix(table_id);
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), cf_));
    for (it->Seek(prefix); it->Valid(); it->Next()) {
        std::string_view key(it->key().data(), it->key().size());
        if (!key.starts_with(prefix)) break;
        PartitionStats stats;
        if (!decode_stats({it->value().data(), it->value().size()}, &stats)) {
            return Status::server("Corrupted partition statistics record");
        }
        fn(key.substr(prefix.size()), stats);
    }
    if (!it->status().ok()) {
        return Status::server("Failed to scan partition statistics: " + it->status().ToString());
    }
    return Status::ok();
}

Status PartitionStatsTracker::drop_table(std::string_view table_id) {
    return drop_range(table_id, "", "");
}

Status PartitionStatsTracker::drop_range(std::string_view table_id, std::string_view start,
                                         std::string_view end) {
    const std::string prefix = table_prefix(table_id);
    const std::string first = stats_key(table_id, start);
    // Empty when nothing follows the table's keys (its prefix is all 0xff).
    const std::string stop = end.empty() ? table_end(table_id) : stats_key(table_id, end);
    auto in_range = [&](std::string_view key) {
        return key >= first && (stop.empty() ? key.starts_with(prefix) : key < stop);
    };
    for (auto& shard : shards_) {
        std::lock_guard lock(shard.mu);
        std::erase_if(shard.pending, [&](const auto& kv) { return in_range(kv.first); });
    }
    rocksdb::Status s;
    if (!stop.empty()) {
        if (first < stop) s = db_->DeleteRange(rocksdb::WriteOptions(), cf_, first, stop);
    } else {
        rocksdb::WriteBatch batch;
        std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), cf_));
        for (it->Seek(first); it->Valid() && in_range({it->key().data(), it->key().size()});
             it->Next()) {
            batch.Delete(cf_, it->key());
        }
        s = it->status().ok() ? db_->Write(rocksdb::WriteOptions(), &batch) : it->status();
    }
    if (!s.ok()) return Status::server("Failed to drop partition statistics: " + s.ToString());
    return Status::ok();
}

}  // namespace tessel::storage
