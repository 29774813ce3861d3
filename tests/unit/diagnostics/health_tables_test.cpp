#include "diagnostics/health_tables.h"

#include <gtest/gtest.h>

#include <string>

namespace tessel::diagnostics {
namespace {

int64_t decode_bigint(const std::optional<std::string>& cell) {
    EXPECT_TRUE(cell.has_value());
    EXPECT_EQ(cell->size(), 8u);
    uint64_t v = 0;
    for (unsigned char c : *cell)
        v = (v << 8) | c;
    return static_cast<int64_t>(v);
}

int32_t decode_int(const std::optional<std::string>& cell) {
    EXPECT_TRUE(cell.has_value());
    EXPECT_EQ(cell->size(), 4u);
    uint32_t v = 0;
    for (unsigned char c : *cell)
        v = (v << 8) | c;
    return static_cast<int32_t>(v);
}

TEST(HealthTables, Encodings) {
    EXPECT_EQ(encode_bigint(1), std::string("\0\0\0\0\0\0\0\x01", 8));
    EXPECT_EQ(encode_bigint(-2), std::string("\xff\xff\xff\xff\xff\xff\xff\xfe", 8));
    EXPECT_EQ(encode_int(0x01020304), std::string("\x01\x02\x03\x04", 4));
    EXPECT_EQ(encode_timestamp(1714521600000), encode_bigint(1714521600000));
}

TEST(HealthTables, GrowingPartitionAppearsInLargePartitions) {
    LargePartitionThresholds th;
    th.partition_size_warn_threshold = 1 * kMiB;
    LargePartitionTracker tracker(th);
    auto table = make_large_partitions_table(tracker);
    EXPECT_EQ(table->keyspace(), "system");
    EXPECT_EQ(table->name(), "large_partitions");
    EXPECT_EQ(table->schema_cql(),
              "CREATE TABLE system.large_partitions (keyspace_name text, table_name text, "
              "partition_key text, partition_size bigint, rows bigint, tombstones bigint, "
              "first_seen timestamp, last_seen timestamp, "
              "PRIMARY KEY ((keyspace_name, table_name), partition_key))");

    // One user's partition grows by 10 KB rows, as the write path reports it.
    uint64_t size = 0;
    uint64_t rows = 0;
    int warnings = 0;
    TimeMs first_over = 0;
    for (int i = 0; i < 150; ++i) {
        size += 10 * 1024;
        ++rows;
        TimeMs now = 1714521600000 + i * 1000;
        Observation o = tracker.observe("app", "events", "user42", size, rows, 2, now);
        if (o.warn_crossed) {
            ++warnings;
            first_over = now;
        }
        tracker.observe("app", "events", "user" + std::to_string(i % 7), 100, 1, 0, now);
        auto result = table->rows();
        ASSERT_TRUE(result.is_ok());
        EXPECT_EQ(result->size(), size >= kMiB ? 1u : 0u) << i;
    }
    EXPECT_EQ(warnings, 1);
    auto rows_now = table->rows();
    ASSERT_TRUE(rows_now.is_ok());
    ASSERT_EQ(rows_now->size(), 1u);
    const query::VirtualRow& r = (*rows_now)[0];
    ASSERT_EQ(r.size(), 8u);
    EXPECT_EQ(r[0], "app");
    EXPECT_EQ(r[1], "events");
    EXPECT_EQ(r[2], "user42");
    EXPECT_EQ(decode_bigint(r[3]), 150 * 10 * 1024);
    EXPECT_EQ(decode_bigint(r[4]), 150);
    EXPECT_EQ(decode_bigint(r[5]), 2);
    EXPECT_EQ(decode_bigint(r[6]), first_over);
    EXPECT_EQ(decode_bigint(r[7]), 1714521600000 + 149 * 1000);
}

TEST(HealthTables, HotPartitionsRows) {
    HotPartitionsOptions o;
    o.window_ms = 10000;
    o.stripes = 2;
    HotPartitionsRegistry registry(o);
    auto hot = registry.get_or_create("shop", "orders");
    for (int i = 0; i < 5; ++i)
        hot->record_write("d1", "2024-05-01", 100, 3000);
    hot->record_write("d0", "2024-04-30", 10, 3000);
    hot->record_read(std::string("\x00\xff", 2), "", 3000);  // no display form
    for (int i = 0; i < 2; ++i)
        hot->record_write("d1", "2024-05-01", 100, 12000);
    TimeMs now = 15000;
    auto table = make_hot_partitions_table(
        registry, [&] { return now; }, 10);
    EXPECT_EQ(table->name(), "hot_partitions");
    auto result = table->rows();
    ASSERT_TRUE(result.is_ok());
    // current: writes d1, bytes d1; previous: reads 1, writes 2, bytes 2.
    ASSERT_EQ(result->size(), 7u);
    auto find = [&](const std::string& kind, const std::string& window, int rank) {
        for (const auto& row : *result) {
            if (row[2] == kind && row[3] == window && decode_int(row[4]) == rank) return row;
        }
        ADD_FAILURE() << kind << " " << window << " " << rank;
        return query::VirtualRow(11);
    };
    auto w1 = find("writes", "previous", 1);
    EXPECT_EQ(w1[0], "shop");
    EXPECT_EQ(w1[1], "orders");
    EXPECT_EQ(w1[5], "2024-05-01");
    EXPECT_EQ(decode_bigint(w1[6]), 5);
    EXPECT_EQ(decode_bigint(w1[7]), 0);
    EXPECT_EQ(decode_bigint(w1[8]), 0);
    EXPECT_EQ(decode_bigint(w1[9]), 0);
    EXPECT_EQ(decode_bigint(w1[10]), 10000);
    auto w2 = find("writes", "previous", 2);
    EXPECT_EQ(w2[5], "2024-04-30");
    auto b1 = find("bytes", "previous", 1);
    EXPECT_EQ(decode_bigint(b1[6]), 500);
    auto cur = find("writes", "current", 1);
    EXPECT_EQ(decode_bigint(cur[6]), 2);
    EXPECT_EQ(decode_bigint(cur[9]), 10000);
    EXPECT_EQ(decode_bigint(cur[10]), 15000);
    auto read = find("reads", "previous", 1);
    EXPECT_EQ(read[5], "0x00ff");
}

TEST(HealthTables, PartitionAdviceRows) {
    auto table = make_partition_advice_table([]() -> Result<std::vector<TableStatistics>> {
        TableStatistics daily;
        daily.keyspace = "shop";
        daily.table = "orders_by_day";
        daily.hot_writes = {{"2024-05-01", 20000}};
        daily.distinct_partitions = 3;
        daily.write_sharded = true;
        daily.tablets = 4;
        TableStatistics quiet;
        quiet.keyspace = "shop";
        quiet.table = "users";
        return std::vector<TableStatistics>{daily, quiet};
    });
    EXPECT_EQ(table->schema_cql(),
              "CREATE TABLE system.partition_advice (keyspace_name text, table_name text, "
              "rank int, kind text, message text, statement text, "
              "PRIMARY KEY ((keyspace_name, table_name), rank))");
    auto result = table->rows();
    ASSERT_TRUE(result.is_ok());
    ASSERT_EQ(result->size(), 3u);
    EXPECT_EQ((*result)[0][1], "orders_by_day");
    EXPECT_EQ(decode_int((*result)[0][2]), 1);
    EXPECT_EQ((*result)[0][3], "write_sharding");
    EXPECT_EQ((*result)[0][5],
              "ALTER TABLE shop.orders_by_day WITH write_sharding = {'shards': 32, 'suffix': "
              "'random'};");
    EXPECT_EQ(decode_int((*result)[1][2]), 2);
    EXPECT_EQ((*result)[1][3], "partition_key");
    EXPECT_FALSE((*result)[1][5].has_value());  // null statement
    EXPECT_EQ((*result)[2][1], "users");
    EXPECT_EQ((*result)[2][3], "no_change");

    auto failing = make_partition_advice_table(
        []() -> Result<std::vector<TableStatistics>> { return Status::server("stats offline"); });
    auto r = failing->rows();
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.status().message(), "stats offline");
}

}  // namespace
}  // namespace tessel::diagnostics
