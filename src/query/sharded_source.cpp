#include "query/sharded_source.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "partition/time_bucket.h"
#include "storage/clustering_range.h"
#include "types/bytes_util.h"
#include "types/value.h"

namespace tessel::query {
namespace {

// The bucketed column's value bounded by an encoded clustering bound, or
// nullopt when the bound does not reach that column. A successor prefix
// (exclusive or inclusive-end bounds) may be truncated: padding the column
// with zero bytes then yields a value on the safe side, so the bucket range
// is a superset of the rows the slice admits.
std::optional<int64_t> bound_ts(const KeyLayout& l, std::string_view prefix) {
    const int k = l.bucket_clustering;
    for (int i = 0; i < k; ++i) {
        auto r = decode_key(*l.clustering_types[i], &prefix, l.clustering_descending[i]);
        if (!r.is_ok()) return std::nullopt;
    }
    if (prefix.empty()) return std::nullopt;
    // A timestamp key component is a tag byte (0x00 empty, 0x01 present)
    // then 8 big-endian bytes with the sign bit flipped; every byte is
    // complemented for a DESC column.
    std::string b(prefix.substr(0, 9));
    b.resize(9, '\0');
    if (l.clustering_descending[k]) {
        for (char& c : b)
            c = static_cast<char>(~c);
    }
    const auto tag = static_cast<uint8_t>(b[0]);
    if (tag == 0) return std::numeric_limits<int64_t>::min();
    if (tag > 1) return std::numeric_limits<int64_t>::max();
    uint64_t v = 0;
    for (size_t i = 1; i < 9; ++i)
        v = (v << 8) | static_cast<uint8_t>(b[i]);
    return static_cast<int64_t>(v ^ (uint64_t{1} << 63));
}

bool less_cell(const storage::Cell& a, const storage::Cell& b) {
    return a.column_id != b.column_id ? a.column_id < b.column_id : a.path < b.path;
}

class MergedStream final : public PartitionStream {
  public:
    // `groups` are read one after the other; the physical partitions of one
    // group are merged.
    MergedStream(TableSource* src, std::string key, std::vector<std::vector<std::string>> groups,
                 SliceSpec slice, bool counters)
        : src_(src),
          key_(std::move(key)),
          groups_(std::move(groups)),
          slice_(std::move(slice)),
          counters_(counters) {}

    // Opens the first group; the static row comes from it unless
    // `static_row` is given (bucketed tables: the home bucket's).
    Task<Status> start(std::optional<storage::Row> static_row, bool static_given) {
        TESSEL_CO_RETURN_IF_ERROR(co_await open_group());
        if (static_given) {
            static_ = std::move(static_row);
        } else if (slice_.include_static) {
            for (const auto& s : streams_) {
                if (s->static_row()) static_ = merge_opt(static_, *s->static_row());
            }
        }
        co_return Status::ok();
    }

    const std::string& partition_key() const override { return key_; }
    const std::optional<storage::Row>& static_row() const override { return static_; }
    Status status() const override { return status_; }
    uint64_t tombstones_scanned() const override {
        uint64_t n = closed_tombstones_;
        for (const auto& s : streams_)
            n += s->tombstones_scanned();
        return n;
    }
    bool needs_fetch() const override { return next_group_ || !starved_.empty(); }

    // Refills the shards whose rows ran out (all at once), or opens the next
    // group once this one is done.
    Task<Status> fetch() override {
        if (next_group_) {
            next_group_ = false;
            ++group_;
            status_ = co_await open_group();
            co_return status_;
        }
        std::vector<size_t> starved = std::move(starved_);
        starved_.clear();
        std::vector<Task<Status>> fetches;
        for (size_t i : starved)
            fetches.push_back(streams_[i]->fetch());
        for (auto& f : fetches) {
            Status st = co_await std::move(f);
            if (!st.is_ok() && status_.is_ok()) status_ = st;
        }
        if (!status_.is_ok()) co_return status_;
        if (streams_.size() > 1) {
            for (size_t i : starved)
                advance(i);
        }
        co_return Status::ok();
    }

    bool next(storage::Row* out) override {
        if (!status_.is_ok() || needs_fetch()) return false;
        if (streams_.size() == 1) {
            // One physical partition in this group (a bucket of an unsharded
            // table): its rows pass straight through, into the caller's
            // reused row.
            if (streams_[0]->next(out)) return true;
            if (streams_[0]->needs_fetch()) {
                starved_.push_back(0);
                return false;
            }
            status_ = streams_[0]->status();
            if (status_.is_ok() && group_ + 1 < groups_.size()) next_group_ = true;
            return false;
        }
        int best = -1;
        for (size_t i = 0; i < heads_.size(); ++i) {
            if (!heads_[i]) continue;
            if (best < 0 || before(heads_[i]->clustering, heads_[best]->clustering)) {
                best = static_cast<int>(i);
            }
        }
        if (best < 0) {
            if (group_ + 1 < groups_.size()) next_group_ = true;
            return false;
        }
        storage::Row row = std::move(*heads_[best]);
        advance(best);
        for (size_t i = 0; i < heads_.size(); ++i) {
            if (heads_[i] && heads_[i]->clustering == row.clustering) {
                row = reconcile_rows(row, *heads_[i], counters_);
                advance(i);
            }
        }
        *out = std::move(row);
        // A shard that ran out of fetched rows may still hold rows that sort
        // before the next head: nothing more is returned until it is refilled.
        return true;
    }

  private:
    bool before(const std::string& a, const std::string& b) const {
        return slice_.reversed ? a > b : a < b;
    }

    std::optional<storage::Row> merge_opt(const std::optional<storage::Row>& a,
                                          const storage::Row& b) const {
        if (!a) return b;
        return reconcile_rows(*a, b, counters_);
    }

    void advance(size_t i) {
        storage::Row r;
        if (streams_[i]->next(&r)) {
            heads_[i] = std::move(r);
            return;
        }
        heads_[i].reset();
        if (streams_[i]->needs_fetch()) {
            starved_.push_back(i);
        } else if (!streams_[i]->status().is_ok() && status_.is_ok()) {
            status_ = streams_[i]->status();
        }
    }

    Task<Status> open_group() {
        for (const auto& s : streams_)
            closed_tombstones_ += s->tombstones_scanned();
        streams_.clear();
        heads_.clear();
        starved_.clear();
        if (group_ >= groups_.size()) co_return Status::ok();
        const bool merged = groups_[group_].size() > 1;
        // Every shard of the group is opened at once: on a cluster their
        // replicas answer in parallel.
        std::vector<Task<Result<std::unique_ptr<PartitionStream>>>> opens;
        for (const auto& key : groups_[group_])
            opens.push_back(src_->read(key, slice_));
        for (auto& o : opens) {
            auto s = co_await std::move(o);
            if (!s.is_ok()) {
                if (status_.is_ok()) status_ = s.status();
                continue;
            }
            streams_.push_back(std::move(s).value());
            heads_.emplace_back();
        }
        if (!status_.is_ok()) co_return status_;
        // A group of one is read through directly (next()), not merged.
        if (merged) {
            for (size_t i = 0; i < streams_.size(); ++i)
                advance(i);
        }
        co_return status_;
    }

    TableSource* src_;
    std::string key_;
    std::vector<std::vector<std::string>> groups_;
    SliceSpec slice_;
    bool counters_;
    size_t group_ = 0;
    std::vector<std::unique_ptr<PartitionStream>> streams_;
    std::vector<std::optional<storage::Row>> heads_;
    std::vector<size_t> starved_;  // shards to refill before the next merge step
    bool next_group_ = false;      // the group is done; fetch() opens the next
    std::optional<storage::Row> static_;
    Status status_;
    uint64_t closed_tombstones_ = 0;
};

class ShardedSource;

// The scan of a bucketed table: each logical partition once, named by its
// representative key (shard 0, bucket 0) and read across every bucket the
// scan found it in. A logical partition's buckets are spread over the key
// space (over the token ring for hash tables), so the cursor collects, with
// one scan of the physical partitions, the kBatch smallest representative
// keys in the range with their buckets, yields them in key order, and scans
// again for the next kBatch: memory stays bounded, at the cost of a
// physical scan per kBatch logical partitions.
class BucketedCursor final : public PartitionCursor {
  public:
    static constexpr size_t kBatch = 1000;

    BucketedCursor(ShardedSource* owner, storage::ClusteringInterval range)
        : owner_(owner), range_(std::move(range)) {}
    bool next() override;
    const std::string& partition_key() const override { return current_->first; }
    Task<Result<std::unique_ptr<PartitionStream>>> read(const SliceSpec& slice) override;
    Status status() const override { return status_; }
    bool needs_fetch() const override { return needs_fill_; }
    Task<Status> fetch() override;

  private:
    struct Logical {
        std::vector<std::string> comps;
        std::set<int64_t> buckets;
    };
    using Batch = std::map<std::string, Logical>;

    ShardedSource* owner_;
    storage::ClusteringInterval range_;
    Batch batch_;
    Batch::iterator current_;
    bool has_current_ = false;
    std::optional<std::string> after_;  // the last key yielded
    bool exhausted_ = false;
    bool needs_fill_ = false;
    Status status_;
};

// The scan of a write-sharded table: each logical partition (of each
// bucket) at its first shard holding data. Whether an earlier shard holds
// data is a read, so the cursor finds its next partition in fetch().
class ShardedCursor final : public PartitionCursor {
  public:
    ShardedCursor(ShardedSource* owner, std::unique_ptr<PartitionCursor> inner)
        : owner_(owner), inner_(std::move(inner)) {}
    bool next() override;
    const std::string& partition_key() const override { return key_; }
    Task<Result<std::unique_ptr<PartitionStream>>> read(const SliceSpec& slice) override;
    Status status() const override { return status_.is_ok() ? inner_->status() : status_; }
    bool needs_fetch() const override { return searching_; }
    Task<Status> fetch() override;

  private:
    ShardedSource* owner_;
    std::unique_ptr<PartitionCursor> inner_;
    std::string key_;
    std::vector<std::string> comps_;
    HiddenKey hidden_;
    bool found_ = false;      // fetch() found the partition next() yields
    bool searching_ = false;  // next() needs fetch() to find the next partition
    bool done_ = false;
    Status status_;
};

class ShardedSource final : public TableSource {
  public:
    ShardedSource(std::unique_ptr<TableSource> physical, const cql::TableInfo& table)
        : physical_(std::move(physical)), table_(table), layout_(layout_of(table)) {}

    Task<Result<std::unique_ptr<PartitionStream>>> read(const std::string& key,
                                                        const SliceSpec& slice) override {
        TESSEL_CO_ASSIGN_OR_RETURN(auto comps, decode_partition_key(layout_, key));
        co_return co_await read_logical(key, comps, nullptr, slice);
    }

    // The merged read of a logical partition; `known` (may be null) lists the
    // buckets holding its data when a scan found them.
    Task<Result<std::unique_ptr<PartitionStream>>> read_logical(
        const std::string& key, const std::vector<std::string>& comps,
        const std::vector<int64_t>* known, const SliceSpec& slice) {
        std::vector<int64_t> buckets{0};
        if (table_.bucketed()) {
            TESSEL_CO_ASSIGN_OR_RETURN(buckets, co_await buckets_of(comps, slice, known));
            const bool desc = layout_.clustering_descending[layout_.bucket_clustering];
            if (desc != slice.reversed) std::reverse(buckets.begin(), buckets.end());
        }
        std::vector<std::vector<std::string>> groups;
        const bool sequential = !table_.bucketed() || layout_.bucket_clustering == 0;
        for (int64_t b : buckets) {
            if (groups.empty() || sequential) groups.emplace_back();
            TESSEL_CO_ASSIGN_OR_RETURN(auto keys, shard_keys(comps, b));
            for (auto& k : keys)
                groups.back().push_back(std::move(k));
        }
        SliceSpec rows_slice = slice;
        std::optional<storage::Row> static_row;
        if (table_.bucketed()) {
            rows_slice.include_static = false;
            if (slice.include_static) {
                TESSEL_CO_ASSIGN_OR_RETURN(static_row, co_await home_static(comps));
            }
        }
        auto s = std::make_unique<MergedStream>(physical_.get(), key, std::move(groups), rows_slice,
                                                table_.is_counter);
        TESSEL_CO_RETURN_IF_ERROR(co_await s->start(std::move(static_row), table_.bucketed()));
        co_return std::unique_ptr<PartitionStream>(std::move(s));
    }

    Task<Result<std::unique_ptr<PartitionCursor>>> scan(const KeyRange& range) override {
        if (table_.bucketed()) {
            co_return std::unique_ptr<PartitionCursor>(new BucketedCursor(
                this, storage::to_interval({range.start_key, range.start_inclusive},
                                           {range.end_key, range.end_inclusive})));
        }
        TESSEL_CO_ASSIGN_OR_RETURN(auto inner, co_await physical_->scan(range));
        co_return std::unique_ptr<PartitionCursor>(new ShardedCursor(this, std::move(inner)));
    }

    // Every shard's physical key of one bucket of a logical partition.
    Result<std::vector<std::string>> shard_keys(const std::vector<std::string>& comps,
                                                int64_t bucket) const {
        std::vector<std::string> out;
        const int32_t n = table_.sharded() ? table_.shards : 1;
        for (int32_t s = 0; s < n; ++s) {
            TESSEL_ASSIGN_OR_RETURN(auto k, encode_physical_key(layout_, comps, {s, bucket}));
            out.push_back(std::move(k));
        }
        return out;
    }

    // True when the physical partition has live rows or a live static row.
    Task<Result<bool>> has_data(const std::string& key) {
        const SliceSpec whole;
        TESSEL_CO_ASSIGN_OR_RETURN(auto s, co_await physical_->read(key, whole));
        if (s->static_row()) co_return true;
        storage::Row r;
        if (co_await next_row(*s, &r)) co_return true;
        TESSEL_CO_RETURN_IF_ERROR(s->status());
        co_return false;
    }

    Task<Result<std::unique_ptr<PartitionStream>>> read_bucket(
        const std::string& key, const std::vector<std::string>& comps, int64_t bucket,
        const SliceSpec& slice) {
        TESSEL_CO_ASSIGN_OR_RETURN(auto keys, shard_keys(comps, bucket));
        std::vector<std::vector<std::string>> groups{std::move(keys)};
        auto s = std::make_unique<MergedStream>(physical_.get(), key, std::move(groups), slice,
                                                table_.is_counter);
        TESSEL_CO_RETURN_IF_ERROR(co_await s->start(std::nullopt, false));
        co_return std::unique_ptr<PartitionStream>(std::move(s));
    }

    const KeyLayout& layout() const { return layout_; }
    const cql::TableInfo& table() const { return table_; }
    TableSource& physical() { return *physical_; }

  private:
    Task<Result<std::vector<int64_t>>> buckets_of(const std::vector<std::string>& comps,
                                                  const SliceSpec& slice,
                                                  const std::vector<int64_t>* known) {
        std::optional<int64_t> a = bound_ts(layout_, slice.start.prefix);
        std::optional<int64_t> b = bound_ts(layout_, slice.end.prefix);
        if (a && b) {
            co_return buckets_between(std::min(*a, *b), std::max(*a, *b), table_.bucket_width_ms);
        }
        std::vector<int64_t> all;
        if (known) {
            all = *known;
        } else {
            TESSEL_CO_ASSIGN_OR_RETURN(all, co_await discover_buckets(*physical_, layout_, comps));
        }
        // One bound: keep the buckets on its side.
        std::vector<int64_t> out;
        const bool desc = layout_.clustering_descending[layout_.bucket_clustering];
        for (int64_t bk : all) {
            const int64_t lo = bk * table_.bucket_width_ms;
            const int64_t hi = lo + (table_.bucket_width_ms - 1);
            // Storage-order start bounds the column from below when ascending.
            const std::optional<int64_t> low = desc ? b : a;
            const std::optional<int64_t> high = desc ? a : b;
            if (low && hi < *low) continue;
            if (high && lo > *high) continue;
            out.push_back(bk);
        }
        co_return out;
    }

    Task<Result<std::optional<storage::Row>>> home_static(const std::vector<std::string>& comps) {
        TESSEL_CO_ASSIGN_OR_RETURN(auto keys, shard_keys(comps, 0));
        std::optional<storage::Row> out;
        for (const auto& k : keys) {
            SliceSpec spec;
            TESSEL_CO_ASSIGN_OR_RETURN(auto s, co_await physical_->read(k, spec));
            if (!s->static_row()) continue;
            out =
                out ? reconcile_rows(*out, *s->static_row(), table_.is_counter) : *s->static_row();
        }
        co_return out;
    }

    std::unique_ptr<TableSource> physical_;
    const cql::TableInfo& table_;
    KeyLayout layout_;
};

bool ShardedCursor::next() {
    if (found_) {
        found_ = false;
        return true;
    }
    searching_ = !done_ && status_.is_ok();
    return false;
}

Task<Status> ShardedCursor::fetch() {
    searching_ = false;
    while (status_.is_ok()) {
        if (!inner_->next()) {
            if (!inner_->needs_fetch()) {
                done_ = true;
                co_return inner_->status();
            }
            status_ = co_await inner_->fetch();
            continue;
        }
        const std::string key = inner_->partition_key();
        auto comps = decode_partition_key(owner_->layout(), key);
        auto hidden = decode_hidden_key(owner_->layout(), key);
        if (!comps.is_ok() || !hidden.is_ok()) {
            status_ = comps.is_ok() ? hidden.status() : comps.status();
            break;
        }
        // Yield the logical partition (or bucket) at its first shard with data.
        bool first = true;
        if (owner_->table().sharded()) {
            auto keys = owner_->shard_keys(*comps, hidden->bucket);
            if (!keys.is_ok()) {
                status_ = keys.status();
                break;
            }
            for (const auto& k : *keys) {
                if (k >= key) continue;
                auto has = co_await owner_->has_data(k);
                if (!has.is_ok()) {
                    status_ = has.status();
                    co_return status_;
                }
                if (*has) {
                    first = false;
                    break;
                }
            }
        }
        if (!first) continue;
        key_ = key;
        comps_ = std::move(comps).value();
        hidden_ = *hidden;
        found_ = true;
        co_return Status::ok();
    }
    co_return status_;
}

Task<Result<std::unique_ptr<PartitionStream>>> ShardedCursor::read(const SliceSpec& slice) {
    return owner_->read_bucket(key_, comps_, hidden_.bucket, slice);
}

bool BucketedCursor::next() {
    if (!status_.is_ok()) return false;
    if (has_current_) batch_.erase(current_);
    has_current_ = false;
    if (batch_.empty()) {
        needs_fill_ = !exhausted_;
        return false;
    }
    current_ = batch_.begin();
    has_current_ = true;
    after_ = current_->first;
    return true;
}

Task<Status> BucketedCursor::fetch() {
    needs_fill_ = false;
    if (range_.empty) {
        exhausted_ = true;
        co_return Status::ok();
    }
    const KeyLayout& layout = owner_->layout();
    std::optional<std::string> cutoff;  // keys at or past it wait for a later batch
    const KeyRange everything;
    auto cursor = co_await owner_->physical().scan(everything);
    if (!cursor.is_ok()) {
        status_ = cursor.status();
        co_return status_;
    }
    auto& c = *cursor;
    while (true) {
        if (!c->next()) {
            if (!c->needs_fetch()) break;
            status_ = co_await c->fetch();
            if (!status_.is_ok()) co_return status_;
            continue;
        }
        const std::string& key = c->partition_key();
        auto comps = decode_partition_key(layout, key);
        auto hidden = decode_hidden_key(layout, key);
        if (!comps.is_ok() || !hidden.is_ok()) {
            status_ = comps.is_ok() ? hidden.status() : comps.status();
            co_return status_;
        }
        auto rep = encode_physical_key(layout, *comps, {});
        if (!rep.is_ok()) {
            status_ = rep.status();
            co_return status_;
        }
        if (after_ ? *rep <= *after_ : *rep < range_.lo) continue;
        if (range_.hi && *rep >= *range_.hi) continue;
        if (cutoff && *rep >= *cutoff) continue;
        auto [it, added] = batch_.try_emplace(std::move(rep).value());
        if (added) it->second.comps = std::move(comps).value();
        it->second.buckets.insert(hidden->bucket);
        if (batch_.size() > kBatch) {
            auto last = std::prev(batch_.end());
            cutoff = last->first;
            batch_.erase(last);
        }
    }
    status_ = c->status();
    exhausted_ = !cutoff;
    co_return status_;
}

Task<Result<std::unique_ptr<PartitionStream>>> BucketedCursor::read(const SliceSpec& slice) {
    const Logical& l = current_->second;
    if (l.buckets.size() > static_cast<size_t>(kMaxBucketsPerRead)) {
        co_return Status::invalid("The partition has more than " +
                                  std::to_string(kMaxBucketsPerRead) +
                                  " time buckets; restrict the time-bucket column to a range");
    }
    const std::vector<int64_t> buckets(l.buckets.begin(), l.buckets.end());
    co_return co_await owner_->read_logical(current_->first, l.comps, &buckets, slice);
}

}  // namespace

storage::Row reconcile_rows(const storage::Row& a, const storage::Row& b, bool counters) {
    storage::Row out;
    out.clustering = a.clustering;
    out.marker = a.marker.timestamp >= b.marker.timestamp ? a.marker : b.marker;
    size_t i = 0, j = 0;
    while (i < a.cells.size() || j < b.cells.size()) {
        if (j == b.cells.size() || (i < a.cells.size() && less_cell(a.cells[i], b.cells[j]))) {
            out.cells.push_back(a.cells[i++]);
        } else if (i == a.cells.size() || less_cell(b.cells[j], a.cells[i])) {
            out.cells.push_back(b.cells[j++]);
        } else {
            const storage::Cell& x = a.cells[i++];
            const storage::Cell& y = b.cells[j++];
            if (counters && x.value.size() == 8 && y.value.size() == 8) {
                storage::Cell c = x.timestamp >= y.timestamp ? x : y;
                const uint64_t sum = static_cast<uint64_t>(bytes::read_i64(x.value)) +
                                     static_cast<uint64_t>(bytes::read_i64(y.value));
                c.value.clear();
                for (int k = 7; k >= 0; --k)
                    c.value.push_back(static_cast<char>((sum >> (8 * k)) & 0xff));
                out.cells.push_back(std::move(c));
                continue;
            }
            // Cassandra's tie-break on equal timestamps: the greater value wins.
            const bool take_x =
                x.timestamp != y.timestamp ? x.timestamp > y.timestamp : x.value >= y.value;
            out.cells.push_back(take_x ? x : y);
        }
    }
    return out;
}

Task<Result<std::vector<int64_t>>> discover_buckets(TableSource& physical, const KeyLayout& layout,
                                                    const std::vector<std::string>& components) {
    std::set<int64_t> found;
    const KeyRange everything;
    TESSEL_CO_ASSIGN_OR_RETURN(auto cursor, co_await physical.scan(everything));
    while (true) {
        if (!cursor->next()) {
            if (!cursor->needs_fetch()) break;
            TESSEL_CO_RETURN_IF_ERROR(co_await cursor->fetch());
            continue;
        }
        const std::string& key = cursor->partition_key();
        TESSEL_CO_ASSIGN_OR_RETURN(auto comps, decode_partition_key(layout, key));
        if (comps != components) continue;
        TESSEL_CO_ASSIGN_OR_RETURN(auto h, decode_hidden_key(layout, key));
        found.insert(h.bucket);
        if (found.size() > static_cast<size_t>(kMaxBucketsPerRead)) {
            co_return Status::invalid("The partition has more than " +
                                      std::to_string(kMaxBucketsPerRead) +
                                      " time buckets; restrict the time-bucket column to a range");
        }
    }
    TESSEL_CO_RETURN_IF_ERROR(cursor->status());
    co_return std::vector<int64_t>(found.begin(), found.end());
}

std::optional<int64_t> bucket_column_bound(const KeyLayout& layout, std::string_view prefix) {
    return bound_ts(layout, prefix);
}

std::unique_ptr<TableSource> make_sharded_source(std::unique_ptr<TableSource> physical,
                                                 const cql::TableInfo& table) {
    return std::make_unique<ShardedSource>(std::move(physical), table);
}

}  // namespace tessel::query
