// TableOptions: the WITH properties of a table, Cassandra's and Tessel's own.
//
// Defaults are what Cassandra 3.11 reports in system_schema.tables for a table
// created without options. Maps are stored normalised (full class names,
// defaulted sub-options), exactly as system_schema and DESCRIBE show them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "schema/option_value.h"

namespace tessel {

using StringMap = std::map<std::string, std::string>;

// Where partitions live: Murmur3 token order (Cassandra) or partition-key order.
enum class Distribution : uint8_t { kHash = 0, kOrdered = 1 };

enum class ShardSuffix : uint8_t { kRandom = 0, kCalculated = 1 };

// write_sharding = {'shards': N, 'suffix': 'random'|'calculated', 'columns': 'c1,c2'}:
// each logical partition is spread over `shards` physical partitions.
struct WriteSharding {
    int32_t shards = 1;
    ShardSuffix suffix = ShardSuffix::kRandom;
    // Calculated suffix only: the clustering/regular columns hashed into the shard.
    std::vector<std::string> columns;

    friend bool operator==(const WriteSharding&, const WriteSharding&) = default;
};

// time_bucket = {'column': 'ts', 'width': '1h'}: a hidden bucket of a timestamp
// clustering column joins the physical partition key.
struct TimeBucket {
    std::string column;
    int64_t width_ms = 0;

    friend bool operator==(const TimeBucket&, const TimeBucket&) = default;
};

struct TableOptions {
    double bloom_filter_fp_chance = 0.01;
    StringMap caching{{"keys", "ALL"}, {"rows_per_partition", "NONE"}};
    std::string comment;
    StringMap compaction{
        {"class", "org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy"},
        {"max_threshold", "32"},
        {"min_threshold", "4"}};
    StringMap compression{{"chunk_length_in_kb", "64"},
                          {"class", "org.apache.cassandra.io.compress.LZ4Compressor"}};
    double crc_check_chance = 1.0;
    double dclocal_read_repair_chance = 0.1;
    int32_t default_time_to_live = 0;
    StringMap extensions;
    int32_t gc_grace_seconds = 864000;
    int32_t max_index_interval = 2048;
    int32_t memtable_flush_period_in_ms = 0;
    int32_t min_index_interval = 128;
    double read_repair_chance = 0.0;
    std::string speculative_retry = "99PERCENTILE";

    // Tessel's physical-layout options. They decide where rows are stored, so
    // they are fixed when the table is created (ALTER refuses to change them).
    Distribution distribution = Distribution::kHash;
    std::optional<WriteSharding> write_sharding;
    std::optional<TimeBucket> time_bucket;

    friend bool operator==(const TableOptions&, const TableOptions&) = default;
};

// Sets one property on `opts` after parsing and range-checking its value.
// Errors, as Cassandra reports them:
//   unknown name                   -> Syntax_error "Unknown property 'foo'"
//   map given for a scalar or back -> Syntax_error "Invalid value for property ..."
//   unparsable number              -> Syntax_error "Invalid integer value x for 'name'"
//   out of range / bad sub-option  -> Config_error, e.g. "default_time_to_live must be
//                                     greater than or equal to 0 (got -1)"
// On error `opts` is unchanged. Column references inside write_sharding and
// time_bucket are checked against the table by the catalog, not here. The
// CREATE TABLE property `id` is not a table option: the CQL layer puts it in
// TableSpec::id.
Status apply_table_option(TableOptions& opts, std::string_view name, const OptionValue& value);

// Checks that involve more than one property (min/max_index_interval).
// Config_error on failure.
Status validate_table_options(const TableOptions& opts);

// True when `name` is a physical-layout option (distribution, write_sharding, time_bucket).
bool is_layout_option(std::string_view name);

// "30m" / "1h" / "1d" / "500ms" / "10s" -> milliseconds; nullopt when malformed or not > 0.
std::optional<int64_t> parse_bucket_width(std::string_view text);
// Milliseconds -> the largest exact unit: 3600000 -> "1h", 90000 -> "90s".
std::string format_bucket_width(int64_t width_ms);

// A double the way Cassandra and cqlsh print option values: 0.01, 1.0, 0.1, 1e-05.
std::string format_option_double(double v);

std::string_view distribution_name(Distribution d);  // "hash" | "ordered"
std::string_view shard_suffix_name(ShardSuffix s);   // "random" | "calculated"

// Tessel's options as map<text, text> (the form DESCRIBE and system tables show):
// {'columns': 'a,b', 'shards': '8', 'suffix': 'calculated'} and {'column': 'ts', 'width': '1h'}.
StringMap write_sharding_map(const WriteSharding& ws);
StringMap time_bucket_map(const TimeBucket& tb);

}  // namespace tessel
