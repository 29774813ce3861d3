// ReplicaService::lead_counter: the counter leader's read-modify-write of
// its own shards (see counter_shards.h and proxy_counter.cpp).
#include <functional>

#include "cluster/replica_service.h"
#include "storage/counter_shards.h"
#include "storage/store.h"

namespace tessel::cluster {
namespace {

using storage::Cell;

bool has_deltas(const storage::RowFragment& f) {
    for (const auto& c : f.cells) {
        if (c.kind == Cell::Kind::kCounterDelta) return true;
    }
    return false;
}

// Turns the deltas of `f` into this node's next shards, given what the row
// holds (`stored`, null when nothing).
void to_shards(storage::RowFragment* f, const storage::RowFragment* stored,
               const std::string& self) {
    for (auto& c : f->cells) {
        if (c.kind != Cell::Kind::kCounterDelta) continue;
        storage::CounterShard own;
        if (stored) {
            for (const auto& s : stored->cells) {
                if (s.column_id != c.column_id || s.path != c.path) continue;
                if (s.kind == Cell::Kind::kCounterShards) {
                    own = storage::find_counter_shard(s.value, self).value_or(own);
                }
            }
        }
        own.clock += 1;
        own.value = static_cast<int64_t>(static_cast<uint64_t>(own.value) +
                                         static_cast<uint64_t>(storage::decode_counter(c.value)));
        c.kind = Cell::Kind::kCounterShards;
        c.value = storage::encode_counter_shard(self, own);
    }
}

}  // namespace

Result<storage::PartitionMutation> ReplicaService::lead_counter(
    const std::string& table_id, const storage::PartitionMutation& deltas,
    const std::string& self) {
    const size_t stripe = std::hash<std::string>{}(table_id + '/' + deltas.partition_key);
    std::lock_guard lock(counter_stripes_[stripe % kCounterStripes]);
    storage::PartitionMutation out = deltas;
    if (out.static_row && has_deltas(*out.static_row)) {
        // An empty clustering range: the static row alone.
        const storage::ClusteringBound none_start{std::string(1, '\0'), true};
        const storage::ClusteringBound none_end{std::string(1, '\0'), false};
        TESSEL_ASSIGN_OR_RETURN(auto stored, store_->read_raw(table_id, deltas.partition_key,
                                                              none_start, none_end, true));
        to_shards(&*out.static_row, stored.static_row ? &*stored.static_row : nullptr, self);
    }
    for (auto& [clustering, f] : out.rows) {
        if (!has_deltas(f)) continue;
        const storage::ClusteringBound at{clustering, true};
        TESSEL_ASSIGN_OR_RETURN(auto stored,
                                store_->read_raw(table_id, deltas.partition_key, at, at, false));
        const storage::RowFragment* row = nullptr;
        for (const auto& [c, sf] : stored.rows) {
            if (c == clustering) row = &sf;
        }
        to_shards(&f, row, self);
    }
    TESSEL_RETURN_IF_ERROR(store_->apply(table_id, out));
    return out;
}

}  // namespace tessel::cluster
