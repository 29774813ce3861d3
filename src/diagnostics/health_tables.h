// The partition-health system tables, as query::VirtualTable implementations
// over the diagnostics components:
//
//   system.large_partitions   one row per partition over a size/rows warn
//                             threshold (LargePartitionTracker)
//   system.hot_partitions     the top partitions per table for reads, writes
//                             and bytes written, in the current and the
//                             previous window (HotPartitionsRegistry)
//   system.partition_advice   the Advisor's recommendations per table
//
// Each table reads its source on every rows() call (the sources are
// thread-safe), so a row appears within one request of the event behind it.
// The sources must outlive the tables. Values are native protocol encodings:
// text as UTF-8, bigint and timestamp (ms since the epoch) as 8 bytes and int
// as 4 bytes, big-endian.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "diagnostics/advisor.h"
#include "diagnostics/clock.h"
#include "diagnostics/hot_partitions.h"
#include "diagnostics/large_partitions.h"
#include "query/virtual_table.h"

namespace tessel::diagnostics {

// Encoders for the cells these tables return.
std::string encode_bigint(int64_t v);
std::string encode_int(int32_t v);
inline std::string encode_timestamp(TimeMs ms) {
    return encode_bigint(ms);
}
inline std::string encode_text(std::string_view s) {
    return std::string(s);
}

// CREATE TABLE system.large_partitions (keyspace_name text, table_name text,
//   partition_key text, partition_size bigint, rows bigint, tombstones bigint,
//   first_seen timestamp, last_seen timestamp,
//   PRIMARY KEY ((keyspace_name, table_name), partition_key))
std::unique_ptr<query::VirtualTable> make_large_partitions_table(
    const LargePartitionTracker& tracker);

// CREATE TABLE system.hot_partitions (keyspace_name text, table_name text,
//   kind text, window text, rank int, partition_key text, count bigint,
//   error bigint, unlisted_max bigint, window_start timestamp,
//   window_end timestamp,
//   PRIMARY KEY ((keyspace_name, table_name), kind, window, rank))
// kind: 'reads' | 'writes' | 'bytes'; window: 'current' (from window_start to
// now, still open) | 'previous' (the last complete window). count is an upper
// bound of the key's true count in the window, count - error a lower bound; a
// key not listed occurred at most unlisted_max times. rank starts at 1. At
// most `top_k` rows per (table, kind, window).
std::unique_ptr<query::VirtualTable> make_hot_partitions_table(
    const HotPartitionsRegistry& registry, Clock clock = now_ms, size_t top_k = 128);

// CREATE TABLE system.partition_advice (keyspace_name text, table_name text,
//   rank int, kind text, message text, statement text,
//   PRIMARY KEY ((keyspace_name, table_name), rank))
// kind: 'write_sharding' | 'time_bucket' | 'partition_key' | 'no_change';
// statement is null when there is nothing to run. `statistics` returns the
// current statistics of every table to advise on (see advisor_inputs.h); it
// runs on every read of the table. A failed Result fails the read with it.
using StatisticsProvider = std::function<Result<std::vector<TableStatistics>>()>;
std::unique_ptr<query::VirtualTable> make_partition_advice_table(StatisticsProvider statistics,
                                                                 AdvisorConfig config = {});

}  // namespace tessel::diagnostics
