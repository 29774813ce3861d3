#include "storage/counter_shards.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "storage/row_codec.h"
#include "storage/store.h"

namespace tessel::storage {
namespace {

std::string host(char n) {
    return std::string(15, '\0') + n;
}

TEST(CounterShards, MergeKeepsTheHigherClockPerHostAndSums) {
    const std::string a1 = encode_counter_shard(host(1), {1, 5});
    const std::string a2 = encode_counter_shard(host(1), {2, 7});
    const std::string b1 = encode_counter_shard(host(2), {1, 10});
    const std::string ab = merge_counter_shards(a1, b1);
    ASSERT_TRUE(valid_counter_shards(ab));
    EXPECT_EQ(counter_shards_total(ab), 15);
    // Idempotent and commutative: delivering a shard again changes nothing.
    EXPECT_EQ(merge_counter_shards(ab, a1), ab);
    EXPECT_EQ(merge_counter_shards(b1, a1), ab);
    const std::string newer = merge_counter_shards(ab, a2);
    EXPECT_EQ(counter_shards_total(newer), 17);
    EXPECT_EQ(merge_counter_shards(a2, ab), newer);
    EXPECT_EQ(find_counter_shard(newer, host(1))->clock, 2);
    EXPECT_FALSE(find_counter_shard(newer, host(3)));
    // A single node's delta joins the zero-host shard.
    const std::string with_delta = add_counter_delta(newer, -3);
    ASSERT_TRUE(valid_counter_shards(with_delta));
    EXPECT_EQ(counter_shards_total(with_delta), 14);
    EXPECT_EQ(counter_shards_total(add_counter_delta(with_delta, 3)), 17);
}

TEST(CounterShards, MalformedShardsAreRefused) {
    EXPECT_FALSE(valid_counter_shards(""));
    EXPECT_FALSE(valid_counter_shards(std::string(31, 'x')));
    // Hosts out of order.
    EXPECT_FALSE(valid_counter_shards(encode_counter_shard(host(2), {1, 1}) +
                                      encode_counter_shard(host(1), {1, 1})));
}

TEST(CounterShards, TheStoreMergesShardsAndReadsTheirSum) {
    const auto dir =
        std::filesystem::temp_directory_path() / ("tessel-shards-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    {
        auto store = Store::open(dir.string());
        ASSERT_TRUE(store.is_ok());
        ASSERT_TRUE((*store)->create_table("t").is_ok());
        auto write = [&](const std::string& host_id, CounterShard s) {
            PartitionMutation m;
            m.partition_key = "k";
            RowFragment f;
            Cell c;
            c.column_id = 1;
            c.kind = Cell::Kind::kCounterShards;
            c.timestamp = s.clock;
            c.value = encode_counter_shard(host_id, s);
            f.cells.push_back(c);
            m.rows.emplace_back("", f);
            return (*store)->apply("t", m);
        };
        ASSERT_TRUE(write(host(1), {1, 4}).is_ok());
        ASSERT_TRUE(write(host(2), {1, 6}).is_ok());
        ASSERT_TRUE(write(host(1), {2, 9}).is_ok());
        ASSERT_TRUE(write(host(1), {1, 4}).is_ok());  // an old shard delivered again
        auto reader = (*store)->read_partition("t", "k", SliceSpec{}, 0);
        ASSERT_TRUE(reader.is_ok());
        Row row;
        ASSERT_TRUE((*reader)->next(&row));
        ASSERT_EQ(row.cells.size(), 1u);
        EXPECT_EQ(row.cells[0].kind, Cell::Kind::kLive);
        EXPECT_EQ(decode_counter(row.cells[0].value), 15);
        // Malformed shards are refused before they reach the store.
        PartitionMutation bad;
        bad.partition_key = "k";
        RowFragment f;
        Cell c;
        c.column_id = 1;
        c.kind = Cell::Kind::kCounterShards;
        c.value = "short";
        f.cells.push_back(c);
        bad.rows.emplace_back("", f);
        EXPECT_EQ((*store)->apply("t", bad).code(), ErrorCode::kInvalid);
    }
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tessel::storage
