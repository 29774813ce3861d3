// Values: the workloads' column values in a neutral form, and their encodings
// for each system under test (CQL native protocol values and PostgreSQL's
// binary parameter format), so that every system stores the same rows.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::bench {

enum class ValueType { kBigint, kInt, kText, kBlob, kTimestamp, kDate, kDouble, kTimeuuid };

// One bound value. Integer-like types use `i` (kTimestamp: milliseconds since
// the epoch, kDate: days since the epoch), kDouble uses `d`, kText, kBlob and
// kTimeuuid (16 bytes) use `s`.
struct Value {
    ValueType type = ValueType::kBigint;
    int64_t i = 0;
    double d = 0;
    std::string s;

    static Value bigint(int64_t v) { return {ValueType::kBigint, v, 0, {}}; }
    static Value int32(int32_t v) { return {ValueType::kInt, v, 0, {}}; }
    static Value text(std::string v) { return {ValueType::kText, 0, 0, std::move(v)}; }
    static Value blob(std::string v) { return {ValueType::kBlob, 0, 0, std::move(v)}; }
    static Value timestamp_ms(int64_t v) { return {ValueType::kTimestamp, v, 0, {}}; }
    static Value date_days(int64_t v) { return {ValueType::kDate, v, 0, {}}; }
    static Value float64(double v) { return {ValueType::kDouble, 0, v, {}}; }
    static Value timeuuid(std::string bytes16) {
        return {ValueType::kTimeuuid, 0, 0, std::move(bytes16)};
    }
};

// The CQL native protocol encoding of `v` (the [bytes] content, without the
// length): big-endian integers, the date as an unsigned day count centred on
// 2^31, the timestamp as milliseconds.
std::string encode_cql(const Value& v);

// PostgreSQL's binary send format for `v` (what PQexecPrepared takes with
// paramFormats = 1): int8/int4/float8 big-endian, timestamp as microseconds
// and date as days since 2000-01-01, uuid as its 16 bytes.
std::string encode_pg_binary(const Value& v);

// The PostgreSQL type name of `type` (for CREATE TABLE and casts).
std::string_view pg_type_name(ValueType type);

// A version 1 (time-based) UUID for `unix_ms` plus a sub-millisecond counter,
// with `node` as the clock sequence and node bits: distinct (unix_ms, seq,
// node) give distinct UUIDs, which sort in time order under CQL's timeuuid
// comparison.
std::string make_timeuuid(int64_t unix_ms, uint32_t seq, uint64_t node);

// Big-endian helpers shared by the encoders and the tests.
void put_be64(std::string* out, uint64_t v);
void put_be32(std::string* out, uint32_t v);
uint64_t get_be64(std::string_view in);

// The bijection of [0, n) the writers walk so that the first n writes touch
// n distinct keys in a scattered order (an affine step with a multiplier
// coprime to n). n = 0 is treated as 1.
class KeyScatter {
  public:
    explicit KeyScatter(uint64_t n);
    uint64_t operator()(uint64_t seq) const;
    uint64_t size() const { return n_; }

  private:
    uint64_t n_;
    uint64_t a_;
};

// Deterministic filler bytes for the value of `key` (same key, same bytes on
// every system).
std::string payload_for(uint64_t key, size_t size);

}  // namespace tessel::bench
