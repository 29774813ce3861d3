// Uuid: the 16-byte identifiers the schema hands out (table ids, schema versions).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tessel {

struct Uuid {
    std::array<uint8_t, 16> bytes{};

    // A random (version 4) UUID. Thread-safe.
    static Uuid random();
    // Parses the canonical 8-4-4-4-12 form (any case); nullopt when malformed.
    static std::optional<Uuid> parse(std::string_view text);

    // 32 lowercase hex digits without dashes: a name usable for storage families.
    std::string hex() const;
    // The canonical 8-4-4-4-12 lowercase form, as cqlsh prints uuids.
    std::string to_string() const;
    // The 16 raw bytes, which is also the uuid's CQL value encoding.
    std::string raw() const { return std::string(bytes.begin(), bytes.end()); }
    bool is_nil() const;

    friend bool operator==(const Uuid&, const Uuid&) = default;
};

}  // namespace tessel
