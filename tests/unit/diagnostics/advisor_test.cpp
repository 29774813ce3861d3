#include "diagnostics/advisor.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "diagnostics/advisor_inputs.h"
#include "diagnostics/tablet_load.h"

namespace tessel::diagnostics {
namespace {

// The seed's daily hot partition: every write of the day goes to today's
// date partition.
TableStatistics daily_workload() {
    TableStatistics s;
    s.keyspace = "shop";
    s.table = "orders_by_day";
    s.hot_writes = {{"2024-05-01", 20000}, {"2024-04-30", 3}};
    s.distinct_partitions = 365;
    s.tablets = 8;
    s.create_statement =
        "CREATE TABLE shop.orders_by_day (\n    day date,\n    id int,\n    PRIMARY KEY (day, "
        "id)\n) WITH comment = ''\n    AND gc_grace_seconds = 864000;";
    return s;
}

// The same table already write-sharded (4 shards): ALTER may raise the count.
TableStatistics sharded_daily_workload() {
    TableStatistics s = daily_workload();
    s.write_sharded = true;
    s.current_shards = 4;
    return s;
}

TEST(Advisor, RecommendedShardsArePowersOfTwo) {
    EXPECT_EQ(recommended_shards(1000, 1000, 256), 1);
    EXPECT_EQ(recommended_shards(1001, 1000, 256), 2);
    EXPECT_EQ(recommended_shards(3000, 1000, 256), 4);
    EXPECT_EQ(recommended_shards(4000, 1000, 256), 4);
    EXPECT_EQ(recommended_shards(20000, 1000, 256), 32);  // ceil(20) -> 32
    EXPECT_EQ(recommended_shards(1e9, 1000, 256), 256);
    EXPECT_EQ(recommended_shards(5000, 0, 256), 1);  // no budget: no advice
}

TEST(Advisor, DailyHotPartitionGetsWriteSharding) {
    // 20000 writes/s against 1000 writes/s per partition: ceil(20000/1000) =
    // 20 shards at least; the next power of two is 32, 625 writes/s each.
    // The table is not sharded: ALTER cannot add write_sharding (it would
    // move stored rows), so the advice is a new table to migrate to.
    auto recs = advise(daily_workload());
    ASSERT_EQ(recs.size(), 1u);
    EXPECT_EQ(recs[0].kind, RecommendationKind::kWriteSharding);
    EXPECT_EQ(recs[0].statement,
              "CREATE TABLE shop.orders_by_day_v2 (\n    day date,\n    id int,\n    PRIMARY KEY "
              "(day, id)\n) WITH comment = ''\n    AND gc_grace_seconds = 864000\n    AND "
              "write_sharding = {'shards': 32, 'suffix': 'random'};");
    EXPECT_EQ(recs[0].message,
              "Partition '2024-05-01' takes 20000 writes/s, over the per-partition budget of "
              "1000 writes/s: ceil(20000 / 1000) = 20, rounded up to a power of two = 32 shards "
              "(625 writes/s per shard); a random suffix spreads writes evenly and reads fan out "
              "to every shard; ALTER TABLE cannot add write_sharding to the unsharded table "
              "shop.orders_by_day (it would move stored rows): create shop.orders_by_day_v2 "
              "with it, copy the data and switch the clients");
}

TEST(Advisor, ShardedTableRaisesItsShardCountWithAlter) {
    auto recs = advise(sharded_daily_workload());
    ASSERT_EQ(recs.size(), 1u);
    EXPECT_EQ(recs[0].kind, RecommendationKind::kWriteSharding);
    EXPECT_EQ(recs[0].statement,
              "ALTER TABLE shop.orders_by_day WITH write_sharding = {'shards': 32, 'suffix': "
              "'random'};");
    EXPECT_NE(recs[0].message.find("(with 4 shards now)"), std::string::npos);
}

TEST(Advisor, MigrationReplacesAnExistingOptionOrFallsBackToASkeleton) {
    TableStatistics s;
    s.keyspace = "m";
    s.table = "p";
    s.create_statement =
        "CREATE TABLE m.p (\n    k int,\n    ts timestamp,\n    PRIMARY KEY (k, ts)\n) WITH "
        "comment = ''\n    AND time_bucket = {'column': 'ts', 'width': '1d'}\n    AND "
        "write_sharding = {'shards': 4, 'suffix': 'random'};";
    EXPECT_EQ(migration_statement(s, "time_bucket = {'column': 'ts', 'width': '6h'}"),
              "CREATE TABLE m.p_v2 (\n    k int,\n    ts timestamp,\n    PRIMARY KEY (k, ts)\n) "
              "WITH comment = ''\n    AND write_sharding = {'shards': 4, 'suffix': "
              "'random'}\n    AND time_bucket = {'column': 'ts', 'width': '6h'};");
    s.create_statement.clear();
    EXPECT_EQ(migration_statement(s, "write_sharding = {'shards': 8}"),
              "CREATE TABLE m.p_v2 (<the columns and primary key of m.p>) WITH write_sharding = "
              "{'shards': 8};");
}

TEST(Advisor, CalculatedSuffixWhenReadsHitSingleRows) {
    TableStatistics s = sharded_daily_workload();
    s.reads_hit_single_rows = true;
    s.calculated_columns = "order_id";
    auto recs = advise(s);
    ASSERT_EQ(recs.size(), 1u);
    EXPECT_EQ(recs[0].statement,
              "ALTER TABLE shop.orders_by_day WITH write_sharding = {'shards': 32, 'suffix': "
              "'calculated', 'columns': 'order_id'};");
}

TEST(Advisor, ShardsAreCappedAndNeverLowered) {
    TableStatistics s = daily_workload();
    s.hot_writes = {{"d", 1000000}};
    auto capped = advise(s);
    ASSERT_EQ(capped[0].kind, RecommendationKind::kWriteSharding);
    EXPECT_NE(capped[0].statement.find("'shards': 256"), std::string::npos);
    EXPECT_NE(capped[0].message.find("capped at 256 shards"), std::string::npos);

    s.hot_writes = {{"d", 20000}};
    s.current_shards = 32;  // already enough: 625 writes/s per shard
    auto ok = advise(s);
    ASSERT_EQ(ok.size(), 1u);
    EXPECT_EQ(ok[0].kind, RecommendationKind::kNoChange);
    EXPECT_NE(ok[0].message.find("takes 20000 writes/s over 32 shards (budget 1000 writes/s)"),
              std::string::npos);

    s.hot_writes = {{"d", 40000}};
    s.current_shards = 16;  // 2500/shard: raise to 64
    auto raise = advise(s);
    ASSERT_EQ(raise[0].kind, RecommendationKind::kWriteSharding);
    EXPECT_NE(raise[0].statement.find("'shards': 64"), std::string::npos);
}

TEST(Advisor, TimeBucketFromGrowthRate) {
    TableStatistics s;
    s.keyspace = "metrics";
    s.table = "points";
    s.timestamp_clustering_column = "ts";
    // 2000 bytes/s: half of 100 MB lasts 52428800 / 2000 = 26214 s (7.3 h),
    // so 6h buckets (43.2 MB, 41.2% of the threshold) are the widest that fit;
    // from 10 MB it reaches 100 MB in (104857600 - 10485760) / 2000 s = 13.1 h.
    s.growth = {{"cpu:host1", 2000, 10 * 1024 * 1024}};
    auto recs = advise(s);
    ASSERT_EQ(recs.size(), 1u);
    EXPECT_EQ(recs[0].kind, RecommendationKind::kTimeBucket);
    EXPECT_EQ(recs[0].statement,
              "CREATE TABLE metrics.points_v2 (<the columns and primary key of metrics.points>) "
              "WITH time_bucket = {'column': 'ts', 'width': '6h'};");
    EXPECT_EQ(recs[0].message,
              "Partition 'cpu:host1' grows 2000 bytes/s and would reach the "
              "partition_size_warn_threshold of 100 MB in 13.1 hours: 6h buckets hold 2000 x "
              "21600 = 43200000 bytes, 41.2% of the threshold (target: at most 50%); ALTER "
              "TABLE cannot add time_bucket (it would move stored rows): create "
              "metrics.points_v2 with it, copy the data and switch the clients");
}

TEST(Advisor, SlowGrowthBeyondTheHorizonNeedsNothing) {
    TableStatistics s;
    s.keyspace = "metrics";
    s.table = "points";
    s.timestamp_clustering_column = "ts";
    s.growth = {{"cpu:host1", 10, 0}};  // 100 MB in 121 days
    auto recs = advise(s);
    ASSERT_EQ(recs.size(), 1u);
    EXPECT_EQ(recs[0].kind, RecommendationKind::kNoChange);
    EXPECT_EQ(recs[0].message,
              "No change needed for metrics.points: fastest-growing partition 'cpu:host1' adds "
              "10 bytes/s and would reach 100 MB in 121.4 days (beyond the 90-day horizon)");
}

TEST(Advisor, ExistingBucketTooWide) {
    TableStatistics s;
    s.keyspace = "m";
    s.table = "p";
    s.timestamp_clustering_column = "ts";
    s.current_bucket_seconds = 86400;
    s.growth = {{"k", 1000, 0}};  // 86.4 MB a day: over half of 100 MB
    auto recs = advise(s);
    ASSERT_EQ(recs[0].kind, RecommendationKind::kTimeBucket);
    // 52428800 / 1000 = 52428 s: 6h (21.6 MB) is the widest that fits.
    EXPECT_EQ(recs[0].statement,
              "CREATE TABLE m.p_v2 (<the columns and primary key of m.p>) WITH time_bucket = "
              "{'column': 'ts', 'width': '6h'};");
    EXPECT_NE(recs[0].message.find("ALTER TABLE cannot change time_bucket"), std::string::npos);
}

TEST(Advisor, NoTimestampColumnMeansANewTable) {
    TableStatistics s;
    s.keyspace = "ks";
    s.table = "events";
    s.growth = {{"user1", 5000, 90 * 1024 * 1024}};
    auto recs = advise(s);
    ASSERT_EQ(recs.size(), 1u);
    EXPECT_EQ(recs[0].kind, RecommendationKind::kTimeBucket);
    EXPECT_TRUE(recs[0].statement.empty());
    EXPECT_NE(recs[0].message.find("no timestamp clustering column"), std::string::npos);
}

TEST(Advisor, PartitionAboutToCross) {
    TableStatistics s;
    s.keyspace = "ks";
    s.table = "events";
    s.timestamp_clustering_column = "ts";
    s.growth = {{"user1", 4000000, 100 * 1024 * 1024 - 1000}};
    auto recs = advise(s);
    ASSERT_EQ(recs[0].kind, RecommendationKind::kTimeBucket);
    EXPECT_NE(recs[0].message.find("would reach the partition_size_warn_threshold of 100 MB in "
                                   "under a second: 1m buckets"),
              std::string::npos)
        << recs[0].message;
    EXPECT_NE(recs[0].message.find("even the narrowest bucket is over the target"),
              std::string::npos);
}

TEST(Advisor, TooFewDistinctPartitionKeys) {
    TableStatistics s;
    s.keyspace = "ks";
    s.table = "status";
    s.distinct_partitions = 3;
    s.tablets = 16;
    auto recs = advise(s);
    ASSERT_EQ(recs.size(), 1u);
    EXPECT_EQ(recs[0].kind, RecommendationKind::kPartitionKey);
    EXPECT_EQ(recs[0].message,
              "Table ks.status has 3 distinct partition keys for 16 tablets; spreading load needs "
              "at least 160 (max(100, 10 per tablet x 16)): add a higher-cardinality column to "
              "the partition key (a new table, primary keys are immutable) or use write_sharding");
}

TEST(Advisor, NoChangeStatesTheNumbers) {
    TableStatistics s;
    s.keyspace = "ks";
    s.table = "users";
    s.hot_writes = {{"u1", 120}};
    s.distinct_partitions = 5000;
    s.tablets = 4;
    auto recs = advise(s);
    ASSERT_EQ(recs.size(), 1u);
    EXPECT_EQ(recs[0].kind, RecommendationKind::kNoChange);
    EXPECT_EQ(recs[0].message,
              "No change needed for ks.users: hottest partition 'u1' takes 120 writes/s (budget "
              "1000 writes/s); 5000 distinct partition keys for 4 tablets (need 100)");
    EXPECT_EQ(advise(TableStatistics{}).at(0).kind, RecommendationKind::kNoChange);
}

TEST(Advisor, RenderAndQuoting) {
    TableStatistics s = sharded_daily_workload();
    s.table = "OrdersByDay";
    std::string text = render_advice(s.keyspace, s.table, advise(s));
    EXPECT_EQ(text.substr(0, text.find('\n')), "Advice for shop.\"OrdersByDay\":");
    EXPECT_NE(text.find("\n1. [write_sharding] Partition '2024-05-01' takes 20000 writes/s"),
              std::string::npos);
    EXPECT_NE(text.find("\n   ALTER TABLE shop.\"OrdersByDay\" WITH write_sharding"),
              std::string::npos);
    EXPECT_EQ(cql_identifier("a\"b"), "\"a\"\"b\"");
}

// FNV-1a, a stable stand-in for the token of a (key, shard) pair.
uint64_t fnv(const std::string& s) {
    uint64_t h = 1469598103934665603ULL;
    for (unsigned char c : s) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    return h;
}

TEST(Advisor, AppliedShardingFlattensTabletSkew) {
    // One day's partition on one of 8 tablets, then spread over the
    // recommended shards, each hashed to its own tablet.
    constexpr int kTablets = 8;
    const double rate = 20000;
    std::vector<double> before(kTablets, 0.0);
    before[fnv("2024-05-01") % kTablets] = rate;
    SkewStats s_before = skew(before);
    EXPECT_DOUBLE_EQ(s_before.max_over_mean, 8.0);

    const int shards = recommended_shards(rate, 1000, 256);
    ASSERT_EQ(shards, 32);
    std::vector<double> after(kTablets, 0.0);
    for (int i = 0; i < shards; ++i) {
        after[fnv("2024-05-01:" + std::to_string(i)) % kTablets] += rate / shards;
    }
    SkewStats s_after = skew(after);
    EXPECT_LT(s_after.max_over_mean, 2.0);
    EXPECT_LT(s_after.cv, s_before.cv / 3);
}

TEST(AdvisorInputs, RatesFromTheHotPartitionsWindow) {
    HotPartitionsOptions o;
    o.window_ms = 10000;
    o.stripes = 2;
    HotPartitions hot(o);
    // Window [0, 10 s): 20000 writes/s to today's partition, 100-byte rows.
    for (int i = 0; i < 200000; ++i)
        hot.record_write("d1", "2024-05-01", 100, 5000);
    for (int i = 0; i < 30; ++i)
        hot.record_write("d0", "2024-04-30", 100, 5000);
    TableStatistics s;
    s.keyspace = "shop";
    s.table = "orders_by_day";
    s.write_sharded = true;
    fill_partition_rates(s, hot, 12000, 10, [](std::string_view key) -> std::optional<uint64_t> {
        if (key == "d1") return 5000000;
        return std::nullopt;
    });
    ASSERT_EQ(s.hot_writes.size(), 2u);
    EXPECT_EQ(s.hot_writes[0].partition_key, "2024-05-01");
    EXPECT_DOUBLE_EQ(s.hot_writes[0].writes_per_sec, 20000.0);
    ASSERT_FALSE(s.growth.empty());
    EXPECT_DOUBLE_EQ(s.growth[0].bytes_per_sec, 2000000.0);
    EXPECT_EQ(s.growth[0].size_bytes, 5000000u);
    EXPECT_EQ(advise(s).at(0).statement,
              "ALTER TABLE shop.orders_by_day WITH write_sharding = {'shards': 32, 'suffix': "
              "'random'};");
}

TEST(AdvisorInputs, CurrentWindowWhenThePreviousIsEmpty) {
    HotPartitionsOptions o;
    o.window_ms = 60000;
    HotPartitions hot(o);
    for (int i = 0; i < 500; ++i)
        hot.record_write("k", "", 10, 1000);
    TableStatistics s;
    fill_partition_rates(s, hot, 5000);  // 5 s into the first window
    ASSERT_EQ(s.hot_writes.size(), 1u);
    EXPECT_DOUBLE_EQ(s.hot_writes[0].writes_per_sec, 100.0);
}

}  // namespace
}  // namespace tessel::diagnostics
