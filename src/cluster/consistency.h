// Consistency levels, with the native protocol's codes and names.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace tessel::cluster {

enum class Consistency : uint16_t {
    kAny = 0x0000,
    kOne = 0x0001,
    kTwo = 0x0002,
    kThree = 0x0003,
    kQuorum = 0x0004,
    kAll = 0x0005,
    kLocalQuorum = 0x0006,
    kEachQuorum = 0x0007,
    kSerial = 0x0008,
    kLocalSerial = 0x0009,
    kLocalOne = 0x000A,
};

// The level of a protocol code; nullopt for a code the protocol does not define.
std::optional<Consistency> consistency_from_code(uint16_t code);

// "ONE", "LOCAL_QUORUM", ... as Cassandra prints them in error messages.
std::string_view consistency_name(Consistency c);

inline bool is_serial(Consistency c) {
    return c == Consistency::kSerial || c == Consistency::kLocalSerial;
}

}  // namespace tessel::cluster
