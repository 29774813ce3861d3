// Write sharding and time bucketing below the CQL layer: hidden key
// components, the shard and bucket functions, the k-way merge of shard
// streams and the routing of mutations to physical partitions.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "partition/murmur3.h"
#include "partition/sharding.h"
#include "partition/time_bucket.h"
#include "partition/token.h"
#include "query/key_codec.h"
#include "query/shard_router.h"
#include "query/sharded_source.h"
#include "storage/clustering_range.h"
#include "types/bytes_util.h"

namespace tessel::query {
namespace {

std::string i32(int32_t v) {
    return bytes::i32_bytes(v);
}
std::string i64(int64_t v) {
    return bytes::i64_bytes(v);
}

// A physical table in memory: partitions of rows sorted by clustering.
class MemSource final : public TableSource {
  public:
    std::map<std::string, std::vector<storage::Row>> parts;
    std::map<std::string, storage::Row> statics;

    class Stream final : public PartitionStream {
      public:
        Stream(std::string key, std::vector<storage::Row> rows, std::optional<storage::Row> st)
            : key_(std::move(key)), rows_(std::move(rows)), static_(std::move(st)) {}
        const std::string& partition_key() const override { return key_; }
        const std::optional<storage::Row>& static_row() const override { return static_; }
        bool next(storage::Row* out) override {
            if (pos_ >= rows_.size()) return false;
            *out = rows_[pos_++];
            return true;
        }
        Status status() const override { return Status::ok(); }

      private:
        std::string key_;
        std::vector<storage::Row> rows_;
        std::optional<storage::Row> static_;
        size_t pos_ = 0;
    };
    class Cursor final : public PartitionCursor {
      public:
        explicit Cursor(MemSource* s) : s_(s), it_(s->parts.begin()) {}
        bool next() override {
            if (started_ && it_ != s_->parts.end()) ++it_;
            started_ = true;
            return it_ != s_->parts.end();
        }
        const std::string& partition_key() const override { return it_->first; }
        Task<Result<std::unique_ptr<PartitionStream>>> read(const SliceSpec& slice) override {
            return s_->read(it_->first, slice);
        }
        Status status() const override { return Status::ok(); }

      private:
        MemSource* s_;
        std::map<std::string, std::vector<storage::Row>>::iterator it_;
        bool started_ = false;
    };

    Task<Result<std::unique_ptr<PartitionStream>>> read(const std::string& key,
                                                        const SliceSpec& slice) override {
        std::vector<storage::Row> rows;
        auto iv = storage::to_interval(slice.start, slice.end);
        auto it = parts.find(key);
        if (it != parts.end()) {
            for (const auto& r : it->second) {
                if (iv.contains(r.clustering)) rows.push_back(r);
            }
        }
        if (slice.reversed) std::reverse(rows.begin(), rows.end());
        std::optional<storage::Row> st;
        if (slice.include_static && statics.count(key)) st = statics[key];
        co_return std::unique_ptr<PartitionStream>(new Stream(key, std::move(rows), st));
    }
    Task<Result<std::unique_ptr<PartitionCursor>>> scan(const KeyRange&) override {
        co_return std::unique_ptr<PartitionCursor>(new Cursor(this));
    }

    // The buckets of a logical partition, found by scanning this source.
    BucketFinder buckets(const cql::TableInfo& t) {
        return [this, layout = layout_of(t)](const std::vector<std::string>& comps) {
            return sync_wait([&] { return discover_buckets(*this, layout, comps); });
        };
    }

    // Applies the rows of routed mutations (live cells only; enough here).
    void apply(const storage::PartitionMutation& m) {
        auto& rows = parts[m.partition_key];
        for (const auto& [ck, frag] : m.rows) {
            storage::Row r;
            r.clustering = ck;
            r.marker = frag.marker;
            r.cells = frag.cells;
            rows.push_back(r);
        }
        std::sort(rows.begin(), rows.end(),
                  [](const auto& a, const auto& b) { return a.clustering < b.clustering; });
    }
};

cql::TableInfo table(int32_t shards, bool calculated, bool desc = false, int64_t bucket_ms = 0) {
    cql::TableInfo t;
    t.keyspace = "ks";
    t.name = "t";
    t.columns.push_back(
        {"k", native_type(TypeKind::kInt), cql::ColumnKind::kPartitionKey, 0, false, 0});
    t.columns.push_back({"c", native_type(bucket_ms ? TypeKind::kTimestamp : TypeKind::kInt),
                         cql::ColumnKind::kClustering, 0, desc, 1});
    t.columns.push_back({"v", native_type(TypeKind::kInt), cql::ColumnKind::kRegular, 0, false, 2});
    t.partition_key = {0};
    t.clustering = {1};
    t.shards = shards;
    t.shard_calculated = calculated;
    if (calculated) t.shard_columns = {1};
    if (bucket_ms) {
        t.bucket_column = 1;
        t.bucket_width_ms = bucket_ms;
    }
    return t;
}

storage::PartitionMutation insert(const cql::TableInfo& t, int32_t k,
                                  const std::vector<std::pair<std::string, int32_t>>& rows,
                                  int64_t ts = 1) {
    KeyLayout l = layout_of(t);
    storage::PartitionMutation m;
    m.partition_key = *encode_partition_key(l, {i32(k)});
    for (const auto& [c, v] : rows) {
        storage::RowFragment f;
        f.marker.timestamp = ts;
        storage::Cell cell;
        cell.column_id = 2;
        cell.timestamp = ts;
        cell.value = i32(v);
        f.cells.push_back(cell);
        m.rows.emplace_back(encode_clustering(l, {c}), f);
    }
    return m;
}

std::vector<int32_t> read_values(TableSource& src, const cql::TableInfo& t, int32_t k,
                                 SliceSpec slice = {}) {
    KeyLayout l = layout_of(t);
    const std::string key = *encode_partition_key(l, {i32(k)});
    auto s = sync_wait([&] { return src.read(key, slice); });
    EXPECT_TRUE(s.is_ok());
    std::vector<int32_t> out;
    storage::Row r;
    while (sync_wait([&] { return next_row(**s, &r); }))
        out.push_back(bytes::read_i32(r.cells.at(0).value));
    return out;
}

TEST(HiddenKey, ShardsGetTheirOwnTokensAndDecodeToTheLogicalKey) {
    KeyLayout l;
    l.partition_types = {native_type(TypeKind::kInt)};
    l.shards = 8;
    std::set<std::string> tokens;
    for (int32_t s = 0; s < 8; ++s) {
        auto key = encode_physical_key(l, {i32(5)}, {s, 0});
        ASSERT_TRUE(key.is_ok());
        tokens.insert(key->substr(0, 8));
        EXPECT_EQ(*decode_partition_key(l, *key), std::vector<std::string>{i32(5)});
        EXPECT_EQ(decode_hidden_key(l, *key)->shard, s);
        // The token hashes the composite (logical key, shard int).
        std::vector<std::string> parts{i32(5), i32(s)};
        std::vector<std::string_view> views(parts.begin(), parts.end());
        EXPECT_EQ(key->substr(0, 8),
                  encode_token_prefix(murmur3_token(serialize_partition_key(views))));
    }
    EXPECT_EQ(tokens.size(), 8u);
    EXPECT_EQ(*encode_partition_key(l, {i32(5)}), *encode_physical_key(l, {i32(5)}, {0, 0}));
}

TEST(HiddenKey, NegativeBucketsRoundTrip) {
    KeyLayout l;
    l.partition_types = {native_type(TypeKind::kInt)};
    l.shards = 2;
    l.bucket_width_ms = 1000;
    auto key = encode_physical_key(l, {i32(1)}, {1, -42});
    ASSERT_TRUE(key.is_ok());
    auto h = decode_hidden_key(l, *key);
    ASSERT_TRUE(h.is_ok());
    EXPECT_EQ(h->shard, 1);
    EXPECT_EQ(h->bucket, -42);
}

TEST(TimeBucket, FloorAtEdgesAndRanges) {
    EXPECT_EQ(bucket_of(0, 3600000), 0);
    EXPECT_EQ(bucket_of(3599999, 3600000), 0);
    EXPECT_EQ(bucket_of(3600000, 3600000), 1);  // exactly on an edge: the later bucket
    EXPECT_EQ(bucket_of(-1, 3600000), -1);
    EXPECT_EQ(bucket_of(-3600000, 3600000), -1);
    EXPECT_EQ(bucket_of(-3600001, 3600000), -2);
    auto b = buckets_between(3599999, 3600000 * 3, 3600000);
    ASSERT_TRUE(b.is_ok());
    EXPECT_EQ(*b, (std::vector<int64_t>{0, 1, 2, 3}));
    EXPECT_TRUE(buckets_between(5, 4, 10)->empty());
    auto too_many = buckets_between(0, 1000 * 20000, 1000);
    ASSERT_FALSE(too_many.is_ok());
    EXPECT_NE(too_many.status().message().find("more than 10000 time buckets"), std::string::npos);
}

TEST(Sharding, CalculatedShardIsStableAndSpreads) {
    std::set<int32_t> seen;
    for (int i = 0; i < 200; ++i) {
        std::string v = i32(i);
        const int32_t s = calculated_shard({v}, 16);
        EXPECT_EQ(s, calculated_shard({v}, 16));
        EXPECT_GE(s, 0);
        EXPECT_LT(s, 16);
        seen.insert(s);
    }
    EXPECT_EQ(seen.size(), 16u);
    EXPECT_NE(calculated_shard({"ab", "c"}, 1 << 30), calculated_shard({"a", "bc"}, 1 << 30));
}

TEST(ShardRouter, RandomSuffixPutsOneStatementInOneShardAndSpreadsStatements) {
    const auto t = table(8, false);
    MemSource src;
    std::set<std::string> keys;
    for (int i = 0; i < 64; ++i) {
        auto routed =
            route_mutations(t, {insert(t, 1, {{i32(i), i}, {i32(i + 100), i}})}, src.buckets(t));
        ASSERT_TRUE(routed.is_ok());
        ASSERT_EQ(routed->size(), 1u);  // one statement, one shard
        EXPECT_EQ((*routed)[0].rows.size(), 2u);
        keys.insert((*routed)[0].partition_key);
    }
    EXPECT_GT(keys.size(), 4u);  // 64 statements over 8 shards
}

TEST(ShardRouter, RowDeletionOfRandomSuffixReachesEveryShard) {
    const auto t = table(4, false);
    MemSource src;
    storage::PartitionMutation m;
    m.partition_key = *encode_partition_key(layout_of(t), {i32(1)});
    storage::RowFragment f;
    f.deletion.timestamp = 10;
    m.rows.emplace_back(encode_clustering(layout_of(t), {i32(3)}), f);
    m.partition_deletion.timestamp = 9;
    auto routed = route_mutations(t, {m}, src.buckets(t));
    ASSERT_TRUE(routed.is_ok());
    ASSERT_EQ(routed->size(), 4u);
    for (const auto& pm : *routed) {
        EXPECT_EQ(pm.rows.size(), 1u);
        EXPECT_EQ(pm.partition_deletion.timestamp, 9);
    }
}

TEST(ShardRouter, CalculatedSuffixFollowsTheColumn) {
    const auto t = table(8, true);
    MemSource src;
    auto a = route_mutations(t, {insert(t, 1, {{i32(7), 1}})}, src.buckets(t));
    auto b = route_mutations(t, {insert(t, 1, {{i32(7), 2}})}, src.buckets(t));
    ASSERT_TRUE(a.is_ok() && b.is_ok());
    EXPECT_EQ((*a)[0].partition_key, (*b)[0].partition_key);
    EXPECT_EQ(decode_hidden_key(layout_of(t), (*a)[0].partition_key)->shard,
              calculated_shard({i32(7)}, 8));
}

TEST(ShardedSource, MergesShardsInClusteringOrderBothWays) {
    for (bool desc : {false, true}) {
        const auto t = table(4, false, desc);
        MemSource src;
        for (int i = 0; i < 40; ++i) {
            auto routed = route_mutations(t, {insert(t, 1, {{i32(i), i}})}, src.buckets(t));
            ASSERT_TRUE(routed.is_ok());
            for (const auto& pm : *routed)
                src.apply(pm);
        }
        EXPECT_GT(src.parts.size(), 1u);
        auto sharded = make_sharded_source(std::make_unique<MemSource>(src), t);
        std::vector<int32_t> asc(40), dsc(40);
        for (int i = 0; i < 40; ++i) {
            asc[i] = i;
            dsc[i] = 39 - i;
        }
        SliceSpec fwd, rev;
        rev.reversed = true;
        EXPECT_EQ(read_values(*sharded, t, 1, fwd), desc ? dsc : asc);
        EXPECT_EQ(read_values(*sharded, t, 1, rev), desc ? asc : dsc);
    }
}

TEST(ShardedSource, SameRowInTwoShardsIsReconciledLastWriteWins) {
    const auto t = table(2, false);
    MemSource src;
    KeyLayout l = layout_of(t);
    auto m0 = insert(t, 1, {{i32(5), 100}}, 1);
    auto m1 = insert(t, 1, {{i32(5), 200}}, 2);
    m0.partition_key = *encode_physical_key(l, {i32(1)}, {0, 0});
    m1.partition_key = *encode_physical_key(l, {i32(1)}, {1, 0});
    src.apply(m1);
    src.apply(m0);
    auto sharded = make_sharded_source(std::make_unique<MemSource>(src), t);
    EXPECT_EQ(read_values(*sharded, t, 1), std::vector<int32_t>{200});
}

TEST(ShardedSource, BucketsStreamInOrderAndRespectTheSlice) {
    for (bool desc : {false, true}) {
        const int64_t hour = 3600000;
        const auto t = table(2, false, desc, hour);
        MemSource src;
        const KeyLayout l = layout_of(t);
        // Rows every 30 minutes over 5 hours, including exact bucket edges.
        for (int i = 0; i <= 10; ++i) {
            auto routed =
                route_mutations(t, {insert(t, 1, {{i64(i * hour / 2), i}})}, src.buckets(t));
            ASSERT_TRUE(routed.is_ok());
            ASSERT_EQ(routed->size(), 1u);
            EXPECT_EQ(decode_hidden_key(l, (*routed)[0].partition_key)->bucket, i / 2);
            for (const auto& pm : *routed)
                src.apply(pm);
        }
        auto sharded = make_sharded_source(std::make_unique<MemSource>(src), t);
        // [1h, 3h] inclusive: rows 2..6.
        std::string lo = encode_clustering(l, {i64(hour)});
        std::string hi = encode_clustering(l, {i64(3 * hour)});
        SliceSpec s;
        if (desc) std::swap(lo, hi);
        s.start = {lo, true};
        s.end = {hi, true};
        auto iv = storage::to_interval(s.start, s.end);
        s.start = {iv.lo, true};
        s.end = {*iv.hi, false};
        std::vector<int32_t> want{2, 3, 4, 5, 6};
        if (desc) std::reverse(want.begin(), want.end());
        EXPECT_EQ(read_values(*sharded, t, 1, s), want) << "desc=" << desc;
        s.reversed = true;
        std::reverse(want.begin(), want.end());
        EXPECT_EQ(read_values(*sharded, t, 1, s), want) << "desc=" << desc;
        // No bound on the time column: every bucket, found by a scan.
        std::vector<int32_t> all;
        for (int i = 0; i <= 10; ++i)
            all.push_back(desc ? 10 - i : i);
        EXPECT_EQ(read_values(*sharded, t, 1), all);
    }
}

}  // namespace
}  // namespace tessel::query
