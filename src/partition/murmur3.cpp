#include "partition/murmur3.h"

#include <limits>

namespace tessel {
namespace {

constexpr uint64_t kC1 = 0x87c37b91114253d5ULL;
constexpr uint64_t kC2 = 0x4cf5ad432745937fULL;

inline uint64_t rotl64(uint64_t v, int r) {
    return (v << r) | (v >> (64 - r));
}

inline uint64_t fmix64(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

inline uint64_t load_le64(const unsigned char* p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | p[i];
    return v;
}

// Java's `(long) byte`: the byte is signed, so 0x80..0xff extend with ones.
// Cassandra's tail handling depends on this (the reference C code does not).
inline uint64_t sign_extended(unsigned char b) {
    return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int8_t>(b)));
}

}  // namespace

Murmur3Hash128 murmur3_cassandra_x64_128(std::string_view bytes, uint64_t seed) {
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    const size_t len = bytes.size();
    const size_t nblocks = len / 16;
    uint64_t h1 = seed;
    uint64_t h2 = seed;

    for (size_t i = 0; i < nblocks; ++i) {
        uint64_t k1 = load_le64(data + i * 16);
        uint64_t k2 = load_le64(data + i * 16 + 8);
        k1 *= kC1;
        k1 = rotl64(k1, 31);
        k1 *= kC2;
        h1 ^= k1;
        h1 = rotl64(h1, 27);
        h1 += h2;
        h1 = h1 * 5 + 0x52dce729;
        k2 *= kC2;
        k2 = rotl64(k2, 33);
        k2 *= kC1;
        h2 ^= k2;
        h2 = rotl64(h2, 31);
        h2 += h1;
        h2 = h2 * 5 + 0x38495ab5;
    }

    const unsigned char* tail = data + nblocks * 16;
    const size_t rem = len & 15;
    uint64_t k1 = 0;
    uint64_t k2 = 0;
    for (size_t j = rem; j > 8; --j)
        k2 ^= sign_extended(tail[j - 1]) << (8 * (j - 9));
    if (rem > 8) {
        k2 *= kC2;
        k2 = rotl64(k2, 33);
        k2 *= kC1;
        h2 ^= k2;
    }
    for (size_t j = rem < 8 ? rem : 8; j > 0; --j)
        k1 ^= sign_extended(tail[j - 1]) << (8 * (j - 1));
    if (rem > 0) {
        k1 *= kC1;
        k1 = rotl64(k1, 31);
        k1 *= kC2;
        h1 ^= k1;
    }

    h1 ^= len;
    h2 ^= len;
    h1 += h2;
    h2 += h1;
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 += h2;
    h2 += h1;
    return {h1, h2};
}

int64_t murmur3_token(std::string_view partition_key_bytes) {
    if (partition_key_bytes.empty()) return std::numeric_limits<int64_t>::min();
    const auto token = static_cast<int64_t>(murmur3_cassandra_x64_128(partition_key_bytes).h1);
    if (token == std::numeric_limits<int64_t>::min()) return std::numeric_limits<int64_t>::max();
    return token;
}

}  // namespace tessel
