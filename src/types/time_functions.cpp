#include "types/time_functions.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <random>

#include "types/bytes_util.h"
#include "types/timeutil.h"
#include "types/uuid.h"

namespace tessel::timefn {
namespace {

constexpr int64_t kTicksPerMilli = 10000;

std::mt19937_64& rng() {
    static std::mt19937_64 gen([] {
        std::random_device rd;
        return (static_cast<uint64_t>(rd()) << 32) ^ rd();
    }());
    return gen;
}
std::mutex& rng_mutex() {
    static std::mutex m;
    return m;
}
uint64_t random64() {
    std::lock_guard<std::mutex> lock(rng_mutex());
    return rng()();
}

// Clock sequence (with the RFC 4122 variant bits) and node, fixed per process.
uint64_t process_lsb() {
    static const uint64_t lsb = [] {
        uint64_t r = random64();
        uint64_t clock_seq = (r >> 48) & 0x3FFF;
        uint64_t node = (r & 0xFFFFFFFFFFFFULL) | 0x010000000000ULL;  // multicast bit
        return (uint64_t{0x8000} | clock_seq) << 48 | node;
    }();
    return lsb;
}

uint64_t ticks_of_millis(int64_t ms) {
    // Unsigned arithmetic: out-of-range instants wrap instead of overflowing.
    return static_cast<uint64_t>(ms) * kTicksPerMilli +
           static_cast<uint64_t>(uuid::kGregorianOffset);
}

Result<int64_t> input_millis(TimeInput kind, std::string_view v) {
    switch (kind) {
        case TimeInput::kTimeuuid:
            return timeuuid_to_millis(v);
        case TimeInput::kTimestamp:
            return timestamp_millis(v);
        case TimeInput::kDate:
            return date_to_millis(v);
    }
    return Status::invalid("Unsupported time input");
}

}  // namespace

int64_t current_millis() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

std::string make_timeuuid(uint64_t ticks, uint64_t lsb) {
    ticks &= 0x0FFFFFFFFFFFFFFFULL;
    uint64_t reordered = (uint64_t{1} << 60) | ticks;  // version 1 in the top nibble
    return bytes::be_bytes(uuid::msb_from_reordered(reordered), 8) + bytes::be_bytes(lsb, 8);
}

std::string now_timeuuid() {
    static std::atomic<uint64_t> last{0};
    uint64_t candidate = ticks_of_millis(current_millis());
    uint64_t prev = last.load();
    uint64_t next;
    do {
        next = candidate > prev ? candidate : prev + 1;
    } while (!last.compare_exchange_weak(prev, next));
    return make_timeuuid(next, process_lsb());
}

std::string random_uuid() {
    uint64_t msb = random64(), lsb = random64();
    msb = (msb & ~0xF000ULL) | 0x4000ULL;
    lsb = (lsb & 0x3FFFFFFFFFFFFFFFULL) | 0x8000000000000000ULL;
    return bytes::be_bytes(msb, 8) + bytes::be_bytes(lsb, 8);
}

// Under TimeUUIDType's signed byte order, 0x80 bytes are the smallest and 0x7f the largest.
std::string min_timeuuid(int64_t ms) {
    return make_timeuuid(ticks_of_millis(ms), 0x8080808080808080ULL);
}

std::string max_timeuuid(int64_t ms) {
    return make_timeuuid(ticks_of_millis(ms + 1) - 1, 0x7F7F7F7F7F7F7F7FULL);
}

Result<int64_t> timeuuid_to_millis(std::string_view u) {
    if (u.size() != 16 || uuid::version(u) != 1) {
        return Status::invalid("Expected a version 1 (time-based) UUID");
    }
    int64_t ticks = static_cast<int64_t>(uuid::v1_timestamp(u));
    return timeutil::floor_div(ticks - uuid::kGregorianOffset, kTicksPerMilli);
}

std::string timestamp_value(int64_t ms) {
    return bytes::i64_bytes(ms);
}

Result<int64_t> timestamp_millis(std::string_view v) {
    if (v.size() != 8) return Status::invalid("Expected an 8 byte timestamp");
    return bytes::read_i64(v);
}

std::string date_from_millis(int64_t ms) {
    int64_t days = timeutil::floor_div(ms, timeutil::kMillisPerDay);
    return bytes::be_bytes(static_cast<uint32_t>(days + timeutil::kEpochDay), 4);
}

Result<int64_t> date_to_millis(std::string_view v) {
    if (v.size() != 4) return Status::invalid("Expected a 4 byte date");
    return timeutil::date_days(bytes::read_u32(v)) * timeutil::kMillisPerDay;
}

std::string bigint_value(int64_t v) {
    return bytes::i64_bytes(v);
}

Result<std::string> to_date(TimeInput kind, std::string_view value) {
    if (kind == TimeInput::kDate) return std::string(value);
    TESSEL_ASSIGN_OR_RETURN(int64_t ms, input_millis(kind, value));
    return date_from_millis(ms);
}

Result<std::string> to_timestamp(TimeInput kind, std::string_view value) {
    TESSEL_ASSIGN_OR_RETURN(int64_t ms, input_millis(kind, value));
    return timestamp_value(ms);
}

Result<std::string> to_unix_timestamp(TimeInput kind, std::string_view value) {
    TESSEL_ASSIGN_OR_RETURN(int64_t ms, input_millis(kind, value));
    return bigint_value(ms);
}

std::string current_timestamp() {
    return timestamp_value(current_millis());
}
std::string current_date() {
    return date_from_millis(current_millis());
}

std::string current_time() {
    using namespace std::chrono;
    int64_t ns = duration_cast<nanoseconds>(system_clock::now().time_since_epoch()).count();
    return bytes::i64_bytes(timeutil::floor_mod(ns, timeutil::kNanosPerDay));
}

}  // namespace tessel::timefn
