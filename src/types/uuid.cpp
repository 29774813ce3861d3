#include "types/uuid.h"

#include "types/bytes_util.h"

namespace tessel::uuid {

std::optional<std::string> parse(std::string_view text) {
    if (text.size() != 36) return std::nullopt;
    std::string hex;
    for (size_t i = 0; i < text.size(); ++i) {
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (text[i] != '-') return std::nullopt;
        } else {
            hex.push_back(text[i]);
        }
    }
    return bytes::from_hex(hex);
}

std::string format(std::string_view b) {
    std::string h = bytes::to_hex(b);
    return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) +
           "-" + h.substr(20);
}

int version(std::string_view b) {
    return (static_cast<uint8_t>(b[6]) >> 4) & 0x0F;
}

uint64_t reordered_msb(std::string_view b) {
    uint64_t msb = bytes::read_u64(b);
    return (msb << 48) | ((msb << 16) & 0xFFFF00000000ULL) | (msb >> 32);
}

uint64_t msb_from_reordered(uint64_t r) {
    // r = time_hi_and_version(16) | time_mid(16) | time_low(32)
    uint64_t time_hi = r >> 48;
    uint64_t time_mid = (r >> 32) & 0xFFFF;
    uint64_t time_low = r & 0xFFFFFFFFULL;
    return (time_low << 32) | (time_mid << 16) | time_hi;
}

uint64_t v1_timestamp(std::string_view b) {
    return reordered_msb(b) & 0x0FFFFFFFFFFFFFFFULL;
}

}  // namespace tessel::uuid
