#include "values.h"

#include <bit>
#include <cstring>
#include <numeric>

namespace tessel::bench {
namespace {

// Days and microseconds between 1970-01-01 and PostgreSQL's epoch 2000-01-01.
constexpr int64_t kPgEpochDays = 10957;
constexpr int64_t kPgEpochMicros = kPgEpochDays * 86400LL * 1000000LL;
// 100 ns intervals between the Gregorian epoch (1582-10-15) and 1970-01-01.
constexpr uint64_t kUuidEpochOffset = 0x01B21DD213814000ULL;

uint64_t splitmix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

}  // namespace

void put_be64(std::string* out, uint64_t v) {
    for (int shift = 56; shift >= 0; shift -= 8)
        out->push_back(static_cast<char>((v >> shift) & 0xff));
}

void put_be32(std::string* out, uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8)
        out->push_back(static_cast<char>((v >> shift) & 0xff));
}

uint64_t get_be64(std::string_view in) {
    uint64_t v = 0;
    for (size_t i = 0; i < 8 && i < in.size(); ++i)
        v = (v << 8) | static_cast<uint8_t>(in[i]);
    return v;
}

std::string encode_cql(const Value& v) {
    std::string out;
    switch (v.type) {
        case ValueType::kBigint:
        case ValueType::kTimestamp:
            put_be64(&out, static_cast<uint64_t>(v.i));
            break;
        case ValueType::kInt:
            put_be32(&out, static_cast<uint32_t>(static_cast<int32_t>(v.i)));
            break;
        case ValueType::kDate:
            put_be32(&out, static_cast<uint32_t>((int64_t{1} << 31) + v.i));
            break;
        case ValueType::kDouble:
            put_be64(&out, std::bit_cast<uint64_t>(v.d));
            break;
        case ValueType::kText:
        case ValueType::kBlob:
        case ValueType::kTimeuuid:
            out = v.s;
            break;
    }
    return out;
}

std::string encode_pg_binary(const Value& v) {
    std::string out;
    switch (v.type) {
        case ValueType::kBigint:
            put_be64(&out, static_cast<uint64_t>(v.i));
            break;
        case ValueType::kTimestamp:
            put_be64(&out, static_cast<uint64_t>(v.i * 1000 - kPgEpochMicros));
            break;
        case ValueType::kInt:
            put_be32(&out, static_cast<uint32_t>(static_cast<int32_t>(v.i)));
            break;
        case ValueType::kDate:
            put_be32(&out, static_cast<uint32_t>(static_cast<int32_t>(v.i - kPgEpochDays)));
            break;
        case ValueType::kDouble:
            put_be64(&out, std::bit_cast<uint64_t>(v.d));
            break;
        case ValueType::kText:
        case ValueType::kBlob:
        case ValueType::kTimeuuid:
            out = v.s;
            break;
    }
    return out;
}

std::string_view pg_type_name(ValueType type) {
    switch (type) {
        case ValueType::kBigint:
            return "bigint";
        case ValueType::kInt:
            return "integer";
        case ValueType::kText:
            return "text";
        case ValueType::kBlob:
            return "bytea";
        case ValueType::kTimestamp:
            return "timestamp";
        case ValueType::kDate:
            return "date";
        case ValueType::kDouble:
            return "double precision";
        case ValueType::kTimeuuid:
            return "uuid";
    }
    return "bytea";
}

std::string make_timeuuid(int64_t unix_ms, uint32_t seq, uint64_t node) {
    // 100 ns ticks: the millisecond plus up to 10,000 sub-ticks from `seq`.
    uint64_t ticks = static_cast<uint64_t>(unix_ms) * 10000 + kUuidEpochOffset + (seq % 10000);
    uint32_t time_low = static_cast<uint32_t>(ticks & 0xffffffff);
    uint16_t time_mid = static_cast<uint16_t>((ticks >> 32) & 0xffff);
    uint16_t time_hi = static_cast<uint16_t>(((ticks >> 48) & 0x0fff) | 0x1000);
    // The clock sequence carries what the tick counter could not (seq / 10000)
    // so that more than 10,000 UUIDs per millisecond stay distinct.
    uint16_t clock = static_cast<uint16_t>((((seq / 10000) ^ (node >> 48)) & 0x3fff) | 0x8000);
    std::string out;
    put_be32(&out, time_low);
    out.push_back(static_cast<char>(time_mid >> 8));
    out.push_back(static_cast<char>(time_mid & 0xff));
    out.push_back(static_cast<char>(time_hi >> 8));
    out.push_back(static_cast<char>(time_hi & 0xff));
    out.push_back(static_cast<char>(clock >> 8));
    out.push_back(static_cast<char>(clock & 0xff));
    for (int shift = 40; shift >= 0; shift -= 8)
        out.push_back(static_cast<char>((node >> shift) & 0xff));
    return out;
}

KeyScatter::KeyScatter(uint64_t n) : n_(n ? n : 1) {
    // A multiplier near n * golden ratio, moved to the next value coprime to n.
    a_ = static_cast<uint64_t>(static_cast<double>(n_) * 0.6180339887) | 1;
    while (std::gcd(a_, n_) != 1)
        ++a_;
}

uint64_t KeyScatter::operator()(uint64_t seq) const {
    unsigned __int128 x = static_cast<unsigned __int128>(seq % n_) * a_ + 12345;
    return static_cast<uint64_t>(x % n_);
}

std::string payload_for(uint64_t key, size_t size) {
    std::string out(size, '\0');
    uint64_t state = key;
    for (size_t i = 0; i < size; i += 8) {
        state = splitmix(state);
        size_t n = std::min<size_t>(8, size - i);
        std::memcpy(out.data() + i, &state, n);
    }
    return out;
}

}  // namespace tessel::bench
