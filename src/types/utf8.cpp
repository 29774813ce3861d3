#include "types/utf8.h"

#include <cstdint>

namespace tessel::utf8 {

size_t sequence_length(std::string_view s, size_t i) {
    uint8_t c = static_cast<uint8_t>(s[i]);
    if (c < 0x80) return 1;
    size_t n = 0;
    uint32_t cp = 0, min = 0;
    if ((c & 0xE0) == 0xC0) {
        n = 1, cp = c & 0x1F, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        n = 2, cp = c & 0x0F, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        n = 3, cp = c & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (i + n >= s.size()) return 0;
    for (size_t k = 1; k <= n; ++k) {
        uint8_t cc = static_cast<uint8_t>(s[i + k]);
        if ((cc & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (cc & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n + 1;
}

bool valid(std::string_view s) {
    for (size_t i = 0; i < s.size();) {
        const size_t n = sequence_length(s, i);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

std::string repair(std::string_view s) {
    if (valid(s)) return std::string(s);
    std::string out;
    out.reserve(s.size() + 8);
    for (size_t i = 0; i < s.size();) {
        const size_t n = sequence_length(s, i);
        if (n == 0) {
            out.append("\xEF\xBF\xBD");
            ++i;
        } else {
            out.append(s.substr(i, n));
            i += n;
        }
    }
    return out;
}

size_t boundary_at_most(std::string_view s, size_t max) {
    if (s.size() <= max) return s.size();
    size_t n = max;
    // Back off continuation bytes (10xxxxxx) to the start of their sequence.
    while (n > 0 && (static_cast<uint8_t>(s[n]) & 0xC0) == 0x80)
        --n;
    return n;
}

}  // namespace tessel::utf8
