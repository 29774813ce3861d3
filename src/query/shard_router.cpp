#include "query/shard_router.h"

#include <map>

#include "partition/sharding.h"
#include "partition/time_bucket.h"
#include "query/key_codec.h"
#include "query/sharded_source.h"
#include "types/bytes_util.h"

namespace tessel::query {
namespace {

bool deletes_something(const storage::RowFragment& f) {
    if (!f.deletion.is_live() || !f.complex_deletions.empty()) return true;
    for (const auto& c : f.cells) {
        if (c.kind == storage::Cell::Kind::kTombstone) return true;
    }
    return false;
}

class Router {
  public:
    Router(const cql::TableInfo& t, const BucketFinder& buckets)
        : t_(t), layout_(layout_of(t)), buckets_(buckets) {
        shards_ = t.sharded() ? t.shards : 1;
        random_shard_ = t.sharded() && !t.shard_calculated ? random_shard(shards_) : 0;
    }

    // Moves m's rows into their physical mutations.
    Status route(storage::PartitionMutation& m) {
        TESSEL_ASSIGN_OR_RETURN(comps_, decode_partition_key(layout_, m.partition_key));
        wide_buckets_.reset();
        if (!m.partition_deletion.is_live()) {
            TESSEL_ASSIGN_OR_RETURN(auto buckets, all_buckets());
            for (int64_t b : buckets) {
                for (int32_t s = 0; s < shards_; ++s) {
                    TESSEL_ASSIGN_OR_RETURN(auto* pm, target(s, b));
                    pm->partition_deletion = m.partition_deletion;
                }
            }
        }
        for (const auto& rt : m.range_tombstones) {
            TESSEL_ASSIGN_OR_RETURN(auto buckets, tombstone_buckets(rt));
            for (int64_t b : buckets) {
                for (int32_t s = 0; s < shards_; ++s) {
                    TESSEL_ASSIGN_OR_RETURN(auto* pm, target(s, b));
                    pm->range_tombstones.push_back(rt);
                }
            }
        }
        if (m.static_row) {
            const bool everywhere = t_.sharded() && deletes_something(*m.static_row);
            for (int32_t s = 0; s < shards_; ++s) {
                if (!everywhere && s != random_shard_) continue;
                TESSEL_ASSIGN_OR_RETURN(auto* pm, target(s, 0));
                pm->static_row = m.static_row;
            }
        }
        for (auto& [clustering, frag] : m.rows) {
            TESSEL_RETURN_IF_ERROR(route_row(clustering, frag));
        }
        return Status::ok();
    }

    std::vector<storage::PartitionMutation> take() {
        std::vector<storage::PartitionMutation> out;
        for (auto& [_, pm] : out_)
            out.push_back(std::move(pm));
        out_.clear();
        return out;
    }

  private:
    Status route_row(const std::string& clustering, storage::RowFragment& frag) {
        // The clustering values matter only for the bucket and a calculated shard.
        std::vector<std::string> ck;
        if (t_.bucketed() || (t_.sharded() && t_.shard_calculated)) {
            TESSEL_ASSIGN_OR_RETURN(ck, decode_clustering(layout_, clustering));
        }
        int64_t bucket = 0;
        if (t_.bucketed()) {
            const size_t k = static_cast<size_t>(layout_.bucket_clustering);
            if (k >= ck.size() || ck[k].size() != 8) {
                return Status::invalid("Missing value for time-bucket column " +
                                       t_.columns[t_.bucket_column].name);
            }
            bucket = bucket_of(bytes::read_i64(ck[k]), t_.bucket_width_ms);
        }
        constexpr int32_t kAllShards = -1;
        int32_t shard = random_shard_;
        if (t_.sharded() && t_.shard_calculated) {
            shard = calculated(ck, frag).value_or(kAllShards);
            if (shard == kAllShards && !deletes_something(frag)) {
                return Status::invalid("Table " + t_.keyspace + "." + t_.name +
                                       " computes its write shard from columns " +
                                       shard_column_names() +
                                       ": every write of a row must give them a value");
            }
        } else if (t_.sharded() && deletes_something(frag)) {
            shard = kAllShards;  // random suffix: the row may live in any shard
        }
        for (int32_t s = 0; s < shards_; ++s) {
            if (shard != kAllShards && s != shard) continue;
            TESSEL_ASSIGN_OR_RETURN(auto* pm, target(s, bucket));
            // The last (usually the only) copy takes the fragment over.
            const bool last = shard != kAllShards || s == shards_ - 1;
            pm->rows.emplace_back(clustering, last ? std::move(frag) : frag);
        }
        return Status::ok();
    }

    // The calculated shard of a row, when the write carries every shard column.
    std::optional<int32_t> calculated(const std::vector<std::string>& ck,
                                      const storage::RowFragment& frag) const {
        std::vector<std::string_view> values;
        for (int idx : t_.shard_columns) {
            const cql::ColumnInfo& col = t_.columns[idx];
            if (col.kind == cql::ColumnKind::kClustering) {
                if (static_cast<size_t>(col.position) >= ck.size()) return std::nullopt;
                values.emplace_back(ck[col.position]);
                continue;
            }
            const storage::Cell* found = nullptr;
            for (const auto& c : frag.cells) {
                if (c.column_id == col.id && c.path.empty() &&
                    c.kind == storage::Cell::Kind::kLive) {
                    found = &c;
                }
            }
            if (!found) return std::nullopt;
            values.emplace_back(found->value);
        }
        return calculated_shard(values, shards_);
    }

    std::string shard_column_names() const {
        std::string out;
        for (int idx : t_.shard_columns) {
            if (!out.empty()) out += ", ";
            out += t_.columns[idx].name;
        }
        return out;
    }

    Result<std::vector<int64_t>> all_buckets() {
        if (!t_.bucketed()) return std::vector<int64_t>{0};
        if (!wide_buckets_) {
            TESSEL_ASSIGN_OR_RETURN(auto found, buckets_(comps_));
            bool home = false;
            for (int64_t b : found)
                home = home || b == 0;
            if (!home) found.insert(found.begin(), 0);
            wide_buckets_ = std::move(found);
        }
        return *wide_buckets_;
    }

    Result<std::vector<int64_t>> tombstone_buckets(const storage::RangeTombstone& rt) {
        if (!t_.bucketed()) return std::vector<int64_t>{0};
        auto a = bucket_column_bound(layout_, rt.start.prefix);
        auto b = bucket_column_bound(layout_, rt.end.prefix);
        if (a && b) {
            return buckets_between(std::min(*a, *b), std::max(*a, *b), t_.bucket_width_ms);
        }
        return all_buckets();
    }

    Result<storage::PartitionMutation*> target(int32_t shard, int64_t bucket) {
        auto it = out_.find({shard, bucket});
        if (it != out_.end()) return &it->second;
        TESSEL_ASSIGN_OR_RETURN(auto key, encode_physical_key(layout_, comps_, {shard, bucket}));
        storage::PartitionMutation pm;
        pm.partition_key = std::move(key);
        return &out_.emplace(std::make_pair(shard, bucket), std::move(pm)).first->second;
    }

    const cql::TableInfo& t_;
    KeyLayout layout_;
    const BucketFinder& buckets_;
    int32_t shards_ = 1;
    int32_t random_shard_ = 0;
    std::vector<std::string> comps_;
    std::optional<std::vector<int64_t>> wide_buckets_;
    // Keyed by (shard, bucket) of the current logical partition; a batch of
    // several partitions keeps them apart through the key in each mutation.
    std::map<std::pair<int32_t, int64_t>, storage::PartitionMutation> out_;
};

}  // namespace

Result<std::vector<storage::PartitionMutation>> route_mutations(
    const cql::TableInfo& table, std::vector<storage::PartitionMutation> logical,
    const BucketFinder& buckets) {
    std::vector<storage::PartitionMutation> out;
    Router router(table, buckets);
    for (auto& m : logical) {
        TESSEL_RETURN_IF_ERROR(router.route(m));
        for (auto& pm : router.take())
            out.push_back(std::move(pm));
    }
    return out;
}

}  // namespace tessel::query
