#include "console/tablet_snapshot.h"

#include <gtest/gtest.h>

#include <limits>

namespace tessel::console {
namespace {

std::string be32(int32_t v) {
    std::string out;
    for (int s = 24; s >= 0; s -= 8)
        out.push_back(static_cast<char>((static_cast<uint32_t>(v) >> s) & 0xFF));
    return out;
}

TEST(TabletSnapshot, TokensAsFractionsOfTheRing) {
    EXPECT_DOUBLE_EQ(token_fraction(std::numeric_limits<int64_t>::min()), 0.0);
    EXPECT_DOUBLE_EQ(token_fraction(0), 0.5);
    EXPECT_DOUBLE_EQ(
        token_fraction(static_cast<long double>(std::numeric_limits<int64_t>::max()) + 1), 1.0);
    EXPECT_DOUBLE_EQ(token_fraction(-4611686018427387904LL), 0.25);
}

TEST(TabletSnapshot, ParsesTokensOnly) {
    EXPECT_EQ(parse_token("-9223372036854775808").value_or(0), std::numeric_limits<int64_t>::min());
    EXPECT_EQ(parse_token("42").value_or(0), 42);
    EXPECT_FALSE(parse_token("").has_value());
    EXPECT_FALSE(parse_token("'a'").has_value());
    EXPECT_FALSE(parse_token("12 shard 3").has_value());
}

TEST(TabletSnapshot, DecodesCells) {
    EXPECT_EQ(cell_int(be32(-7)), -7);
    EXPECT_EQ(cell_int(std::nullopt), 0);
    EXPECT_EQ(cell_bigint(std::string("\x00\x00\x00\x00\x00\x00\x01\x00", 8)), 256);
    EXPECT_DOUBLE_EQ(cell_double(std::string("\x3f\xf8\x00\x00\x00\x00\x00\x00", 8)), 1.5);
    EXPECT_EQ(cell_text_list(be32(2) + be32(1) + "a" + be32(2) + "bc"),
              (std::vector<std::string>{"a", "bc"}));
    EXPECT_TRUE(cell_text_list(be32(3) + be32(50) + "a").empty());  // truncated: nothing past it
    EXPECT_EQ(cell_inet(std::string("\x7f\x00\x00\x01", 4)), "127.0.0.1");
    EXPECT_EQ(cell_uuid(std::string(
                  "\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff", 16)),
              "00112233-4455-6677-8899-aabbccddeeff");
    EXPECT_EQ(cell_uuid(std::string("x")), "");
}

}  // namespace
}  // namespace tessel::console
