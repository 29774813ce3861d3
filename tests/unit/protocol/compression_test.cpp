#include "protocol/compression.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace tessel::protocol {
namespace {

using namespace std::string_literals;

std::string random_bytes(std::mt19937& rng, size_t n) {
    std::string s(n, '\0');
    for (auto& c : s)
        c = static_cast<char>(rng());
    return s;
}

TEST(CompressionTest, Names) {
    EXPECT_EQ(compression_from_name("lz4"), Compression::kLz4);
    EXPECT_EQ(compression_from_name("LZ4"), Compression::kLz4);
    EXPECT_EQ(compression_from_name("snappy"), Compression::kSnappy);
    EXPECT_FALSE(compression_from_name("zstd").has_value());
    EXPECT_FALSE(compression_from_name("").has_value());
    EXPECT_EQ(compression_name(Compression::kLz4), "lz4");
}

TEST(CompressionTest, RoundTrips) {
    std::mt19937 rng(3);
    const std::string inputs[] = {"", "a", std::string(100000, 'z'), random_bytes(rng, 4096),
                                  "SELECT * FROM system.local WHERE key='local'"};
    for (Compression c : {Compression::kLz4, Compression::kSnappy, Compression::kNone}) {
        for (const std::string& in : inputs) {
            auto packed = compress_body(c, in);
            ASSERT_TRUE(packed.is_ok());
            auto back = decompress_body(c, *packed);
            ASSERT_TRUE(back.is_ok()) << back.status().message();
            EXPECT_EQ(*back, in);
        }
    }
}

TEST(CompressionTest, Lz4HasBigEndianLengthPrefix) {
    auto packed = compress_body(Compression::kLz4, std::string(300, 'x'));
    ASSERT_TRUE(packed.is_ok());
    EXPECT_EQ(packed->substr(0, 4), "\x00\x00\x01\x2C"s);
    EXPECT_LT(packed->size(), 300u);
}

TEST(CompressionTest, HighlyCompressibleInputDecompresses) {
    const std::string zeros(1 << 20, '\0');
    for (Compression c : {Compression::kLz4, Compression::kSnappy}) {
        auto packed = compress_body(c, zeros);
        ASSERT_TRUE(packed.is_ok());
        auto back = decompress_body(c, *packed);
        ASSERT_TRUE(back.is_ok()) << back.status().message();
        EXPECT_EQ(back->size(), zeros.size());
    }
}

TEST(CompressionTest, SizeLimitIsEnforced) {
    const std::string in(5000, 'y');
    for (Compression c : {Compression::kLz4, Compression::kSnappy, Compression::kNone}) {
        auto packed = compress_body(c, in);
        ASSERT_TRUE(packed.is_ok());
        auto back = decompress_body(c, *packed, 4999);
        ASSERT_FALSE(back.is_ok());
        EXPECT_EQ(back.status().code(), ErrorCode::kProtocolError);
        EXPECT_TRUE(decompress_body(c, *packed, 5000).is_ok());
    }
}

TEST(CompressionTest, LyingLz4LengthIsRejectedBeforeAllocating) {
    // Claims 200 MB from a 5-byte block.
    auto r = decompress_body(Compression::kLz4, "\x0C\x00\x00\x00\x10\x61\x00\x00\x00"s);
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.status().code(), ErrorCode::kProtocolError);
    // Wrong claimed size for a valid block.
    auto packed = compress_body(Compression::kLz4, "hello world hello world");
    ASSERT_TRUE(packed.is_ok());
    std::string wrong = *packed;
    wrong[3] = static_cast<char>(wrong[3] + 1);
    EXPECT_FALSE(decompress_body(Compression::kLz4, wrong).is_ok());
    wrong[3] = static_cast<char>(wrong[3] - 2);
    EXPECT_FALSE(decompress_body(Compression::kLz4, wrong).is_ok());
    EXPECT_FALSE(decompress_body(Compression::kLz4, "\x00\x00"s).is_ok());
}

TEST(CompressionTest, CorruptInputIsAProtocolError) {
    std::mt19937 rng(99);
    const std::string text = "the quick brown fox jumps over the lazy dog, again and again";
    for (Compression c : {Compression::kLz4, Compression::kSnappy}) {
        auto packed = compress_body(c, text);
        ASSERT_TRUE(packed.is_ok());
        // Truncations.
        for (size_t n = 0; n < packed->size(); ++n) {
            auto r = decompress_body(c, packed->substr(0, n));
            if (r.is_ok()) {
                EXPECT_NE(*r, text);
            } else {
                EXPECT_EQ(r.status().code(), ErrorCode::kProtocolError);
            }
        }
        // Random garbage and bit flips: any outcome but a crash; errors are Protocol_error.
        for (int i = 0; i < 2000; ++i) {
            std::string junk = i % 2 ? random_bytes(rng, rng() % 64) : *packed;
            if (i % 2 == 0) junk[rng() % junk.size()] ^= static_cast<char>(1 + rng() % 255);
            auto r = decompress_body(c, junk, 1 << 16);
            if (r.is_ok()) {
                EXPECT_LE(r->size(), size_t{1} << 16);
            } else {
                EXPECT_EQ(r.status().code(), ErrorCode::kProtocolError);
            }
        }
    }
}

}  // namespace
}  // namespace tessel::protocol
