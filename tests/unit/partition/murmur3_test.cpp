#include "partition/murmur3.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "partition/token.h"

namespace tessel {
namespace {

std::string from_hex(std::string_view hex) {
    std::string out;
    for (size_t i = 0; i + 1 < hex.size(); i += 2) {
        out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
    }
    return out;
}

std::string repeat(std::string_view s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i)
        out += s;
    return out;
}

struct Vector {
    std::string key;
    int64_t token;
};

// Reference §4.3 group A: python-driver tests/unit/test_metadata.py.
TEST(Murmur3Test, PythonDriverVectors) {
    const Vector vectors[] = {
        {"123", -7468325962851647638LL},
        {repeat(from_hex("00ff10fa99"), 10), 5837342703291459765LL},
        {repeat(from_hex("fe"), 8), -8927430733708461935LL},
        {repeat(from_hex("10"), 8), 1446172840243228796LL},
        {"9223372036854775807", 7162290910810015547LL},
    };
    for (const auto& v : vectors)
        EXPECT_EQ(murmur3_token(v.key), v.token) << v.key.size();
}

// Reference §4.3 group B: nodejs-driver test/unit/tokenizer-tests.js.
TEST(Murmur3Test, NodeDriverVectors) {
    const Vector vectors[] = {
        {from_hex("0102030405060708090a0b0c0d0e0f10"), -5563837382979743776LL},
        {from_hex("ffffffffffffffffffffffffffffffff"), -2824192546314762522LL},
        {repeat(from_hex("fe"), 17), -1672437813826982685LL},
        {from_hex("fefefefe"), 4566408979886474012LL},
        {from_hex("00000000"), -3485513579396041028LL},
        {from_hex("00017f7f"), 6573459401642635627LL},
        {from_hex("e2e7e2e7e2e701"), 2222373981930033306LL},
        {from_hex("0000000000000080"), 78142285821850151LL},
    };
    for (const auto& v : vectors)
        EXPECT_EQ(murmur3_token(v.key), v.token) << v.key.size();
}

// Reference §4.3 group C: typed keys.
TEST(Murmur3Test, TypedKeyVectors) {
    EXPECT_EQ(murmur3_token(from_hex("00000001")), -4069959284402364209LL);         // int 1
    EXPECT_EQ(murmur3_token(from_hex("0000000000000001")), 6292367497774912474LL);  // bigint 1
    EXPECT_EQ(murmur3_token("a"), -8839064797231613815LL);
    const std::string int1 = from_hex("00000001");
    const std::string key = serialize_partition_key({int1, "abc"});
    EXPECT_EQ(key, from_hex("00040000000100"
                            "000361626300"));
    EXPECT_EQ(murmur3_token(key), 8771735466527499816LL);
}

// The unsigned-tail (reference C) variant gives these; Cassandra must not.
TEST(Murmur3Test, TailBytesAreSignExtended) {
    EXPECT_NE(murmur3_token(from_hex("fefefefe")), 7934100349153615916LL);
    EXPECT_NE(murmur3_token(repeat(from_hex("fe"), 8)), -3927725473986473217LL);
}

TEST(Murmur3Test, EmptyKeyIsMinimumToken) {
    EXPECT_EQ(murmur3_token(""), std::numeric_limits<int64_t>::min());
}

TEST(Murmur3Test, EveryTailLengthIsDeterministicAndDistinct) {
    // Lengths 0..47 cover every tail size with 0, 1 and 2 blocks; the tokens
    // must be stable and (for this input) pairwise different.
    std::string data;
    for (int i = 0; i < 48; ++i)
        data.push_back(static_cast<char>(0x80 + i));
    std::vector<int64_t> tokens;
    for (size_t n = 1; n <= data.size(); ++n) {
        const int64_t t = murmur3_token(std::string_view(data).substr(0, n));
        EXPECT_EQ(t, murmur3_token(std::string(data.substr(0, n))));
        EXPECT_NE(t, std::numeric_limits<int64_t>::min());
        for (int64_t prev : tokens)
            EXPECT_NE(prev, t);
        tokens.push_back(t);
    }
}

}  // namespace
}  // namespace tessel
