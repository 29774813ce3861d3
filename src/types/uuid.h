// UUID text form and the fields of version-1 (time-based) UUIDs.
// UUIDs are held as their 16 wire bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tessel::uuid {

// "8-4-4-4-12" hex (any case) -> 16 bytes; nullopt when malformed.
std::optional<std::string> parse(std::string_view text);
// 16 bytes -> lowercase "8-4-4-4-12". Precondition: bytes.size() == 16.
std::string format(std::string_view bytes);
// The version nibble (bits 4..7 of byte 6). Precondition: 16 bytes.
int version(std::string_view bytes);

// 100-nanosecond intervals between 1582-10-15 (the UUID epoch) and 1970-01-01.
inline constexpr int64_t kGregorianOffset = 0x01B21DD213814000LL;

// The 60-bit timestamp of a version-1 UUID (100ns units since 1582-10-15).
uint64_t v1_timestamp(std::string_view bytes);
// The most significant 8 bytes reordered so the timestamp comes first
// (Cassandra's TimeUUIDType.reorderTimestampBytes): compares as the time order.
uint64_t reordered_msb(std::string_view bytes);
// Inverse of reordered_msb.
uint64_t msb_from_reordered(uint64_t reordered);

}  // namespace tessel::uuid
