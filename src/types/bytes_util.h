// Big-endian integer access and hex text for encoded values.
//
// Internal to types/ but safe for any module: all readers take a view whose
// size the caller has already checked.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tessel::bytes {

inline uint64_t read_be(std::string_view b, size_t n) {
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i)
        v = (v << 8) | static_cast<uint8_t>(b[i]);
    return v;
}
inline uint16_t read_u16(std::string_view b) {
    return static_cast<uint16_t>(read_be(b, 2));
}
inline uint32_t read_u32(std::string_view b) {
    return static_cast<uint32_t>(read_be(b, 4));
}
inline uint64_t read_u64(std::string_view b) {
    return read_be(b, 8);
}
inline int32_t read_i32(std::string_view b) {
    return static_cast<int32_t>(read_u32(b));
}
inline int64_t read_i64(std::string_view b) {
    return static_cast<int64_t>(read_u64(b));
}

inline void append_be(std::string* out, uint64_t v, size_t n) {
    for (size_t i = n; i-- > 0;)
        out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
inline std::string be_bytes(uint64_t v, size_t n) {
    std::string s;
    append_be(&s, v, n);
    return s;
}
inline std::string i32_bytes(int32_t v) {
    return be_bytes(static_cast<uint32_t>(v), 4);
}
inline std::string i64_bytes(int64_t v) {
    return be_bytes(static_cast<uint64_t>(v), 8);
}

// Lowercase hex without prefix.
inline std::string to_hex(std::string_view b) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string s;
    s.reserve(b.size() * 2);
    for (unsigned char c : b) {
        s.push_back(kDigits[c >> 4]);
        s.push_back(kDigits[c & 0xF]);
    }
    return s;
}

inline int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Hex digits (no prefix, even count) -> bytes; nullopt when malformed.
inline std::optional<std::string> from_hex(std::string_view h) {
    if (h.size() % 2 != 0) return std::nullopt;
    std::string out;
    out.reserve(h.size() / 2);
    for (size_t i = 0; i < h.size(); i += 2) {
        int hi = hex_digit(h[i]), lo = hex_digit(h[i + 1]);
        if (hi < 0 || lo < 0) return std::nullopt;
        out.push_back(static_cast<char>(hi * 16 + lo));
    }
    return out;
}

inline int sign_of(int64_t v) {
    return v < 0 ? -1 : (v > 0 ? 1 : 0);
}

// memcmp-style comparison of two byte strings as unsigned bytes.
inline int compare_bytes(std::string_view a, std::string_view b) {
    int c = a.compare(b);  // char_traits<char>::compare uses unsigned comparison
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

}  // namespace tessel::bytes
