#include "partition/token.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace tessel {
namespace {

TEST(TokenTest, SingleComponentKeyIsRawBytes) {
    const std::string v("\x00\x00\x00\x01", 4);
    EXPECT_EQ(serialize_partition_key({v}), v);
}

TEST(TokenTest, CompositeKeyLayout) {
    const std::string key = serialize_partition_key({"ab", "", "c"});
    EXPECT_EQ(key, std::string("\x00\x02"
                               "ab\x00"
                               "\x00\x00\x00"
                               "\x00\x01"
                               "c\x00",
                               12));
    auto parts = split_partition_key(key, 3);
    ASSERT_TRUE(parts.is_ok());
    ASSERT_EQ(parts->size(), 3u);
    EXPECT_EQ((*parts)[0], "ab");
    EXPECT_EQ((*parts)[1], "");
    EXPECT_EQ((*parts)[2], "c");
}

TEST(TokenTest, SplitRejectsMalformedKeys) {
    const std::string key = serialize_partition_key({"ab", "c"});
    for (size_t n = 0; n < key.size(); ++n) {
        EXPECT_FALSE(split_partition_key(key.substr(0, n), 2).is_ok()) << n;
    }
    EXPECT_FALSE(split_partition_key(key + "x", 2).is_ok());
    std::string bad_eoc = key;
    bad_eoc[4] = 1;
    EXPECT_FALSE(split_partition_key(bad_eoc, 2).is_ok());
    EXPECT_FALSE(split_partition_key(key, 3).is_ok());
    EXPECT_FALSE(split_partition_key(key, 0).is_ok());
}

TEST(TokenTest, ComponentSizeLimit) {
    const std::string big(70000, 'x');
    Status st = check_partition_key_components({"a", big});
    ASSERT_FALSE(st.is_ok());
    EXPECT_EQ(st.code(), ErrorCode::kInvalid);
    EXPECT_EQ(st.message(), "Key length of 70000 is longer than maximum of 65535");
    EXPECT_TRUE(check_partition_key_components({"a", std::string(65535, 'x')}).is_ok());
}

TEST(TokenTest, PrefixEncoding) {
    EXPECT_EQ(encode_token_prefix(0), std::string("\x80\0\0\0\0\0\0\0", 8));
    EXPECT_EQ(encode_token_prefix(-1), std::string("\x7f\xff\xff\xff\xff\xff\xff\xff", 8));
    EXPECT_EQ(encode_token_prefix(std::numeric_limits<int64_t>::min()), std::string(8, '\0'));
    EXPECT_EQ(encode_token_prefix(std::numeric_limits<int64_t>::max()), std::string(8, '\xff'));
    EXPECT_EQ(encode_token_prefix(0x0102030405060708LL), "\x81\x02\x03\x04\x05\x06\x07\x08");
}

TEST(TokenTest, PrefixRoundTripAndOrder) {
    std::mt19937_64 rng(42);
    std::vector<int64_t> tokens = {std::numeric_limits<int64_t>::min(),
                                   std::numeric_limits<int64_t>::max(), -1, 0, 1};
    for (int i = 0; i < 1000; ++i)
        tokens.push_back(static_cast<int64_t>(rng()));
    for (int64_t t : tokens) {
        auto d = decode_token_prefix(encode_token_prefix(t) + "suffix");
        ASSERT_TRUE(d.is_ok());
        EXPECT_EQ(*d, t);
    }
    std::vector<std::string> encoded;
    for (int64_t t : tokens)
        encoded.push_back(encode_token_prefix(t));
    std::sort(tokens.begin(), tokens.end());
    std::sort(encoded.begin(), encoded.end());
    for (size_t i = 0; i < tokens.size(); ++i)
        EXPECT_EQ(*decode_token_prefix(encoded[i]), tokens[i]);
}

TEST(TokenTest, DecodePrefixNeedsEightBytes) {
    auto d = decode_token_prefix("1234567");
    ASSERT_FALSE(d.is_ok());
    EXPECT_EQ(d.status().code(), ErrorCode::kServerError);
}

}  // namespace
}  // namespace tessel
