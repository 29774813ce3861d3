// Advisor: from a table's partition statistics to what its owner should
// change, with the numbers behind every line.
//
// A pure function: advise() reads only its arguments, so it is tested on
// numbers alone and the server feeds it from HotPartitions, storage partition
// statistics and the tablet map (see system.partition_advice).
//
// Rules:
//  - Write sharding. The hottest partition's write rate r against the
//    per-partition budget b: shards = the next power of two >= ceil(r / b),
//    at most max_shards, never fewer than the table already has. Power-of-two
//    counts keep later raises even (each old shard splits into whole new ones).
//  - Time bucketing. A partition growing g bytes/s that would reach the size
//    warn threshold T within the horizon gets the widest bucket w from the
//    ladder 1m, 5m, 15m, 1h, 6h, 1d, 7d with g * w <= target_fraction * T.
//  - Partition-key cardinality. Fewer distinct partition keys than
//    max(min_distinct_partitions, distinct_per_tablet * tablets) cannot spread
//    over the tablets whatever the partitioner does.
//  - Otherwise one "no change needed" line with the numbers that were checked.
//
// Statements: ALTER TABLE may raise the shard count of a write-sharded table,
// so that is what a sharded table is told to run. Adding write_sharding to an
// unsharded table, or adding or changing time_bucket, would move stored rows
// and ALTER refuses it: the statement is then the CREATE TABLE of a new table
// (the current definition, renamed <table>_v2, with the option) to migrate the
// data to.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::diagnostics {

struct PartitionWriteRate {
    std::string partition_key;  // display form
    double writes_per_sec = 0;
};

struct PartitionGrowth {
    std::string partition_key;  // display form
    double bytes_per_sec = 0;   // bytes written per second
    uint64_t size_bytes = 0;    // current size
};

// What the server knows about one table. Rates are per logical partition
// (the key a client writes, before write sharding or time bucketing).
struct TableStatistics {
    std::string keyspace;
    std::string table;
    std::vector<PartitionWriteRate> hot_writes;  // the top partitions by write rate
    std::vector<PartitionGrowth> growth;         // the top partitions by bytes written
    uint64_t distinct_partitions = 0;            // 0: unknown (not checked)
    uint64_t tablets = 1;
    // The table's timestamp clustering column, if any (time_bucket needs one).
    std::optional<std::string> timestamp_clustering_column;
    // Reads name single rows: a calculated suffix on these columns (a
    // comma-separated list) sends each such read to one shard.
    bool reads_hit_single_rows = false;
    std::string calculated_columns;
    bool write_sharded = false;                     // the table has write_sharding
    int current_shards = 1;                         // its shard count (1: none)
    std::optional<int64_t> current_bucket_seconds;  // time_bucket width in place
    uint64_t partition_size_warn_threshold = 100 * 1024 * 1024;
    // The table's CREATE TABLE statement (DESCRIBE's text; empty: unknown):
    // the base of the new table to migrate to when ALTER cannot apply a
    // change (see below).
    std::string create_statement;
};

struct AdvisorConfig {
    double partition_write_budget = 1000;  // writes/s one partition should take
    int max_shards = 256;
    double bucket_target_fraction = 0.5;  // of the size warn threshold
    double growth_horizon_days = 90;      // only partitions crossing sooner matter
    uint64_t min_distinct_partitions = 100;
    uint64_t distinct_per_tablet = 10;
};

enum class RecommendationKind { kWriteSharding, kTimeBucket, kPartitionKey, kNoChange };
// "write_sharding", "time_bucket", "partition_key", "no_change" (the `kind`
// column of system.partition_advice).
std::string_view recommendation_kind_name(RecommendationKind kind);

struct Recommendation {
    RecommendationKind kind;
    std::string message;    // the advice and its numbers
    std::string statement;  // the CQL to apply it; empty when there is none
};

std::vector<Recommendation> advise(const TableStatistics& stats, const AdvisorConfig& config = {});

// The next power of two >= ceil(rate / budget), within [1, max_shards].
int recommended_shards(double writes_per_sec, double budget, int max_shards);

// Widths of the time_bucket ladder, in seconds, and their option text.
struct BucketWidth {
    int64_t seconds;
    std::string_view text;  // "1m", "5m", "15m", "1h", "6h", "1d", "7d"
};
const std::vector<BucketWidth>& bucket_ladder();

// "Advice for ks.t:" then one numbered line per recommendation, each
// statement indented under its line.
std::string render_advice(std::string_view keyspace, std::string_view table,
                          const std::vector<Recommendation>& recommendations);

// The CREATE TABLE statement `create_statement` renamed to keyspace.new_table
// and with `option` ("write_sharding = {...}") added to its WITH clause.
// Without a statement to start from, a skeleton naming the option.
std::string migration_statement(const TableStatistics& stats, std::string_view option);

// `name` as CQL needs it: unchanged when lower-case [a-z][a-z0-9_]*, else
// double-quoted with quotes doubled.
std::string cql_identifier(std::string_view name);

}  // namespace tessel::diagnostics
