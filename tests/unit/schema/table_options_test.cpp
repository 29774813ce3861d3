#include "schema/table_options.h"

#include <gtest/gtest.h>

#include "schema_test_util.h"

namespace tessel {
namespace {

using testing::expect_error;

Status apply(TableOptions& o, const std::string& name, const std::string& text) {
    return apply_table_option(o, name, OptionValue::string(text));
}
Status apply_map(TableOptions& o, const std::string& name, StringMap m) {
    return apply_table_option(o, name, OptionValue::of_map(std::move(m)));
}

TEST(TableOptions, DefaultsAreCassandra311s) {
    TableOptions o;
    EXPECT_EQ(o.bloom_filter_fp_chance, 0.01);
    EXPECT_EQ(o.caching, (StringMap{{"keys", "ALL"}, {"rows_per_partition", "NONE"}}));
    EXPECT_EQ(o.compaction.at("class"),
              "org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy");
    EXPECT_EQ(o.compaction.at("max_threshold"), "32");
    EXPECT_EQ(o.compression.at("class"), "org.apache.cassandra.io.compress.LZ4Compressor");
    EXPECT_EQ(o.compression.at("chunk_length_in_kb"), "64");
    EXPECT_EQ(o.gc_grace_seconds, 864000);
    EXPECT_EQ(o.dclocal_read_repair_chance, 0.1);
    EXPECT_EQ(o.speculative_retry, "99PERCENTILE");
    EXPECT_EQ(o.distribution, Distribution::kHash);
    EXPECT_FALSE(o.write_sharding.has_value());
    EXPECT_FALSE(o.time_bucket.has_value());
}

TEST(TableOptions, UnknownPropertyIsASyntaxError) {
    TableOptions o;
    Status s = apply(o, "foo", "1");
    expect_error(s, ErrorCode::kSyntaxError, "Unknown property 'foo'");
    EXPECT_EQ(static_cast<int>(s.code()), 0x2000);
    EXPECT_EQ(o, TableOptions{});
}

TEST(TableOptions, ScalarOptions) {
    TableOptions o;
    ASSERT_TRUE(apply_table_option(o, "gc_grace_seconds", OptionValue::number("3600")).is_ok());
    ASSERT_TRUE(apply_table_option(o, "comment", OptionValue::string("it's")).is_ok());
    ASSERT_TRUE(
        apply_table_option(o, "bloom_filter_fp_chance", OptionValue::number("0.1")).is_ok());
    ASSERT_TRUE(
        apply_table_option(o, "default_time_to_live", OptionValue::number("86400")).is_ok());
    ASSERT_TRUE(apply_table_option(o, "read_repair_chance", OptionValue::number("1")).is_ok());
    EXPECT_EQ(o.gc_grace_seconds, 3600);
    EXPECT_EQ(o.comment, "it's");
    EXPECT_EQ(o.bloom_filter_fp_chance, 0.1);
    EXPECT_EQ(o.default_time_to_live, 86400);
    EXPECT_EQ(o.read_repair_chance, 1.0);
}

TEST(TableOptions, BadValues) {
    TableOptions o;
    expect_error(apply_table_option(o, "default_time_to_live", OptionValue::number("-1")),
                 ErrorCode::kConfigError,
                 "default_time_to_live must be greater than or equal to 0 (got -1)");
    expect_error(apply(o, "default_time_to_live", "630720001"), ErrorCode::kConfigError,
                 "default_time_to_live must be less than or equal to 630720000 (got 630720001)");
    expect_error(apply(o, "gc_grace_seconds", "abc"), ErrorCode::kSyntaxError,
                 "Invalid integer value abc for 'gc_grace_seconds'");
    expect_error(apply(o, "gc_grace_seconds", "1.5"), ErrorCode::kSyntaxError,
                 "Invalid integer value 1.5 for 'gc_grace_seconds'");
    expect_error(apply(o, "crc_check_chance", "x"), ErrorCode::kSyntaxError,
                 "Invalid double value x for 'crc_check_chance'");
    expect_error(apply(o, "read_repair_chance", "1.5"), ErrorCode::kConfigError,
                 "read_repair_chance must be larger than or equal to 0 and smaller than or equal "
                 "to 1.0 (got 1.5)");
    expect_error(apply(o, "bloom_filter_fp_chance", "0"), ErrorCode::kConfigError,
                 "bloom_filter_fp_chance must be larger than 6.710886400000001E-5 and less than "
                 "or equal to 1.0 (got 0.0)");
    expect_error(apply(o, "min_index_interval", "0"), ErrorCode::kConfigError,
                 "min_index_interval must be greater than or equal to 1 (got 0)");
    expect_error(apply(o, "caching", "ALL"), ErrorCode::kSyntaxError,
                 "Invalid value for property 'caching'. It should be a map.");
    expect_error(apply_map(o, "comment", {{"a", "b"}}), ErrorCode::kSyntaxError,
                 "Invalid value for property 'comment'. It should be a string");
    EXPECT_EQ(o, TableOptions{}) << "failed options leave the struct unchanged";
}

TEST(TableOptions, IndexIntervalsAreCheckedTogether) {
    TableOptions o;
    ASSERT_TRUE(apply(o, "max_index_interval", "64").is_ok());
    expect_error(validate_table_options(o), ErrorCode::kConfigError,
                 "max_index_interval must be greater than or equal to min_index_interval (128) "
                 "(got 64)");
    ASSERT_TRUE(apply(o, "min_index_interval", "64").is_ok());
    EXPECT_TRUE(validate_table_options(o).is_ok());
}

TEST(TableOptions, Caching) {
    TableOptions o;
    ASSERT_TRUE(apply_map(o, "caching", {{"keys", "none"}, {"rows_per_partition", "100"}}).is_ok());
    EXPECT_EQ(o.caching, (StringMap{{"keys", "NONE"}, {"rows_per_partition", "100"}}));
    expect_error(apply_map(o, "caching", {{"keys", "SOME"}}), ErrorCode::kConfigError,
                 "Invalid value 'SOME' for caching sub-option 'keys': only 'ALL' and 'NONE' are "
                 "allowed");
    expect_error(apply_map(o, "caching", {{"rows_per_partition", "x"}}), ErrorCode::kConfigError,
                 "Invalid value 'x' for caching sub-option 'rows_per_partition': only 'ALL', "
                 "'NONE', and integer values are allowed");
    expect_error(apply_map(o, "caching", {{"keys", "ALL"}, {"foo", "1"}}), ErrorCode::kConfigError,
                 "Invalid caching sub-options [foo]: only 'keys' and 'rows_per_partition' are "
                 "allowed");
}

TEST(TableOptions, Compaction) {
    TableOptions o;
    ASSERT_TRUE(apply_map(o, "compaction",
                          {{"class", "LeveledCompactionStrategy"}, {"sstable_size_in_mb", "160"}})
                    .is_ok());
    EXPECT_EQ(o.compaction,
              (StringMap{{"class", "org.apache.cassandra.db.compaction.LeveledCompactionStrategy"},
                         {"max_threshold", "32"},
                         {"min_threshold", "4"},
                         {"sstable_size_in_mb", "160"}}));
    expect_error(apply_map(o, "compaction", {{"max_threshold", "8"}}), ErrorCode::kConfigError,
                 "Missing sub-option 'class' for the 'compaction' option");
    expect_error(apply_map(o, "compaction", {{"class", "Nope"}}), ErrorCode::kConfigError,
                 "Unable to find compaction strategy class "
                 "'org.apache.cassandra.db.compaction.Nope'");
    expect_error(
        apply_map(o, "compaction", {{"class", "SizeTieredCompactionStrategy"}, {"foo", "1"}}),
        ErrorCode::kConfigError,
        "Properties specified [foo] are not understood by SizeTieredCompactionStrategy");
    expect_error(apply_map(o, "compaction",
                           {{"class", "SizeTieredCompactionStrategy"}, {"min_threshold", "1"}}),
                 ErrorCode::kConfigError, "Min compaction threshold cannot be less than 2 (got 1)");
}

TEST(TableOptions, Compression) {
    TableOptions o;
    ASSERT_TRUE(
        apply_map(o, "compression", {{"class", "SnappyCompressor"}, {"chunk_length_in_kb", "16"}})
            .is_ok());
    EXPECT_EQ(o.compression,
              (StringMap{{"chunk_length_in_kb", "16"},
                         {"class", "org.apache.cassandra.io.compress.SnappyCompressor"}}));
    ASSERT_TRUE(apply_map(o, "compression", {{"enabled", "false"}}).is_ok());
    EXPECT_EQ(o.compression, (StringMap{{"enabled", "false"}}));
    expect_error(apply_map(o, "compression", {{"chunk_length_in_kb", "16"}}),
                 ErrorCode::kConfigError,
                 "Missing sub-option 'class' for the 'compression' option.");
    expect_error(
        apply_map(o, "compression", {{"class", "LZ4Compressor"}, {"chunk_length_in_kb", "3"}}),
        ErrorCode::kConfigError, "chunk_length_in_kb must be a power of 2");
}

TEST(TableOptions, SpeculativeRetryIsNormalised) {
    TableOptions o;
    ASSERT_TRUE(apply(o, "speculative_retry", "99.0percentile").is_ok());
    EXPECT_EQ(o.speculative_retry, "99PERCENTILE");
    ASSERT_TRUE(apply(o, "speculative_retry", "10ms").is_ok());
    EXPECT_EQ(o.speculative_retry, "10.0ms");
    ASSERT_TRUE(apply(o, "speculative_retry", "ALWAYS").is_ok());
    EXPECT_EQ(o.speculative_retry, "ALWAYS");
    expect_error(apply(o, "speculative_retry", "sometimes"), ErrorCode::kConfigError,
                 "Invalid value sometimes for option 'speculative_retry'");
    expect_error(apply(o, "speculative_retry", "101PERCENTILE"), ErrorCode::kConfigError,
                 "Invalid value 101PERCENTILE for PERCENTILE option 'speculative_retry': must be "
                 "between 0.0 and 100.0");
}

TEST(TableOptions, Distribution) {
    TableOptions o;
    ASSERT_TRUE(apply(o, "distribution", "ORDERED").is_ok());
    EXPECT_EQ(o.distribution, Distribution::kOrdered);
    expect_error(apply(o, "distribution", "range"), ErrorCode::kConfigError,
                 "Invalid value 'range' for option 'distribution': only 'hash' and 'ordered' are "
                 "allowed");
}

TEST(TableOptions, WriteSharding) {
    TableOptions o;
    ASSERT_TRUE(apply_map(o, "write_sharding", {{"shards", "8"}}).is_ok());
    EXPECT_EQ(o.write_sharding, (WriteSharding{8, ShardSuffix::kRandom, {}}));
    ASSERT_TRUE(
        apply_map(o, "write_sharding",
                  {{"shards", "4"}, {"suffix", "calculated"}, {"columns", "Device, \"Id\""}})
            .is_ok());
    EXPECT_EQ(o.write_sharding, (WriteSharding{4, ShardSuffix::kCalculated, {"device", "Id"}}));
    EXPECT_EQ(write_sharding_map(*o.write_sharding),
              (StringMap{{"columns", "device,Id"}, {"shards", "4"}, {"suffix", "calculated"}}));

    expect_error(apply_map(o, "write_sharding", {{"suffix", "random"}}), ErrorCode::kConfigError,
                 "Missing sub-option 'shards' for the 'write_sharding' option");
    expect_error(
        apply_map(o, "write_sharding", {{"shards", "0"}}), ErrorCode::kConfigError,
        "write_sharding sub-option 'shards' must be an integer between 1 and 1024 (got 0)");
    expect_error(apply_map(o, "write_sharding", {{"shards", "2"}, {"suffix", "hashed"}}),
                 ErrorCode::kConfigError,
                 "Invalid value 'hashed' for write_sharding sub-option 'suffix': only 'random' and "
                 "'calculated' are allowed");
    expect_error(apply_map(o, "write_sharding", {{"shards", "2"}, {"suffix", "calculated"}}),
                 ErrorCode::kConfigError,
                 "write_sharding with suffix 'calculated' requires sub-option 'columns'");
    expect_error(apply_map(o, "write_sharding", {{"shards", "2"}, {"columns", "a"}}),
                 ErrorCode::kConfigError,
                 "write_sharding sub-option 'columns' is only allowed with suffix 'calculated'");
    expect_error(apply_map(o, "write_sharding", {{"shards", "2"}, {"bogus", "a"}}),
                 ErrorCode::kConfigError,
                 "Invalid write_sharding sub-options [bogus]: only 'shards', 'suffix' and "
                 "'columns' are allowed");
    expect_error(apply(o, "write_sharding", "8"), ErrorCode::kSyntaxError,
                 "Invalid value for property 'write_sharding'. It should be a map.");
}

TEST(TableOptions, TimeBucket) {
    TableOptions o;
    ASSERT_TRUE(apply_map(o, "time_bucket", {{"column", "ts"}, {"width", "1h"}}).is_ok());
    EXPECT_EQ(o.time_bucket, (TimeBucket{"ts", 3'600'000}));
    EXPECT_EQ(time_bucket_map(*o.time_bucket), (StringMap{{"column", "ts"}, {"width", "1h"}}));
    expect_error(apply_map(o, "time_bucket", {{"column", "ts"}, {"width", "1w"}}),
                 ErrorCode::kConfigError,
                 "Invalid value '1w' for time_bucket sub-option 'width': expected a positive "
                 "duration such as '30m', '1h' or '1d'");
    expect_error(apply_map(o, "time_bucket", {{"width", "1h"}}), ErrorCode::kConfigError,
                 "Missing sub-option 'column' for the 'time_bucket' option");
}

TEST(TableOptions, BucketWidths) {
    EXPECT_EQ(parse_bucket_width("30m"), 1'800'000);
    EXPECT_EQ(parse_bucket_width("1d"), 86'400'000);
    EXPECT_EQ(parse_bucket_width("250ms"), 250);
    EXPECT_EQ(parse_bucket_width("10S"), 10'000);
    EXPECT_FALSE(parse_bucket_width("0h"));
    EXPECT_FALSE(parse_bucket_width("h"));
    EXPECT_FALSE(parse_bucket_width("-1h"));
    EXPECT_FALSE(parse_bucket_width("1.5h"));
    EXPECT_EQ(format_bucket_width(86'400'000), "1d");
    EXPECT_EQ(format_bucket_width(5'400'000), "90m");
    EXPECT_EQ(format_bucket_width(1500), "1500ms");
}

TEST(TableOptions, DoublesPrintLikeCqlsh) {
    EXPECT_EQ(format_option_double(0.01), "0.01");
    EXPECT_EQ(format_option_double(1.0), "1.0");
    EXPECT_EQ(format_option_double(0.0), "0.0");
    EXPECT_EQ(format_option_double(0.1), "0.1");
}

}  // namespace
}  // namespace tessel
