// Builders for the encoded cell values the system tables return.
//
// The system tables produce a handful of types (text, int, boolean, double,
// uuid, inet, and text collections); these helpers write their native
// protocol encodings (native_protocol_v4.spec §6) without going through a
// CqlType, so a row is cheap to build on every read.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::system {

using Cell = std::optional<std::string>;

inline Cell text_cell(std::string_view s) {
    return std::string(s);
}
Cell int_cell(int32_t v);
Cell bool_cell(bool v);
Cell double_cell(double v);
// `raw` must be 16 bytes; anything else gives null (never a malformed uuid).
Cell uuid_cell(std::string_view raw);
// A textual IPv4/IPv6 address; null when it does not parse.
Cell inet_cell(std::string_view address);
// The 4 or 16 address bytes of a textual address, or nullopt.
std::optional<std::string> inet_bytes(std::string_view address);
inline Cell blob_cell(std::string_view raw) {
    return std::string(raw);
}

// Collections: [int] n then n x [bytes] elements (maps: key then value).
// Sets are written sorted (text compares bytewise, like Cassandra's UTF8Type).
Cell text_list_cell(const std::vector<std::string>& items);
Cell text_set_cell(std::vector<std::string> items);
Cell text_map_cell(const std::map<std::string, std::string>& entries);

// "550e8400-e29b-41d4-a716-446655440000" for 16 raw bytes.
std::string uuid_to_string(std::string_view raw);

}  // namespace tessel::system
