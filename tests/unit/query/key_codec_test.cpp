#include "query/key_codec.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "partition/murmur3.h"
#include "partition/token.h"
#include "types/bytes_util.h"

namespace tessel::query {
namespace {

std::string int_value(int32_t v) {
    return bytes::i32_bytes(v);
}

TEST(KeyCodec, HashKeyStartsWithTokenAndRoundTrips) {
    KeyLayout l;
    l.partition_types = {native_type(TypeKind::kInt), native_type(TypeKind::kVarchar)};
    std::vector<std::string> comps{int_value(7), "abc"};
    auto key = encode_partition_key(l, comps);
    ASSERT_TRUE(key.is_ok());
    std::vector<std::string_view> views(comps.begin(), comps.end());
    const int64_t token = murmur3_token(serialize_partition_key(views));
    EXPECT_EQ(key->substr(0, 8), encode_token_prefix(token));
    EXPECT_EQ(partition_token(comps), token);
    auto back = decode_partition_key(l, *key);
    ASSERT_TRUE(back.is_ok());
    EXPECT_EQ(*back, comps);
    auto t = token_of_physical_key(l, *key);
    ASSERT_TRUE(t.is_ok());
    EXPECT_EQ(*t, token);
}

TEST(KeyCodec, OrderedKeysSortByValue) {
    KeyLayout l;
    l.hashed = false;
    l.partition_types = {native_type(TypeKind::kInt)};
    std::vector<std::string> keys;
    for (int v : {5, -3, 100, 0, -100})
        keys.push_back(*encode_partition_key(l, {int_value(v)}));
    std::sort(keys.begin(), keys.end());
    std::vector<int> order;
    for (const auto& k : keys)
        order.push_back(bytes::read_i32(decode_partition_key(l, k)->at(0)));
    EXPECT_EQ(order, (std::vector<int>{-100, -3, 0, 5, 100}));
}

TEST(KeyCodec, EmptyKeyIsRefused) {
    KeyLayout l;
    l.partition_types = {native_type(TypeKind::kVarchar)};
    auto key = encode_partition_key(l, {""});
    ASSERT_FALSE(key.is_ok());
    EXPECT_EQ(key.status().message(), "Key may not be empty");
}

TEST(KeyCodec, DescendingClusteringInvertsOrder) {
    KeyLayout l;
    l.clustering_types = {native_type(TypeKind::kInt), native_type(TypeKind::kInt)};
    l.clustering_descending = {true, false};
    const std::string a = encode_clustering(l, {int_value(1), int_value(5)});
    const std::string b = encode_clustering(l, {int_value(2), int_value(1)});
    const std::string c = encode_clustering(l, {int_value(2), int_value(3)});
    EXPECT_LT(b, a);  // 2 sorts before 1 under DESC
    EXPECT_LT(b, c);  // second column ASC
    // A prefix's encoding is a prefix of the full encoding.
    EXPECT_EQ(c.substr(0, encode_clustering(l, {int_value(2)}).size()),
              encode_clustering(l, {int_value(2)}));
    auto back = decode_clustering(l, c);
    ASSERT_TRUE(back.is_ok());
    EXPECT_EQ(*back, (std::vector<std::string>{int_value(2), int_value(3)}));
}

}  // namespace
}  // namespace tessel::query
