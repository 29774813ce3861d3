#include "schema/uuid.h"

#include <mutex>
#include <random>

namespace tessel {
namespace {

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

Uuid Uuid::random() {
    // One generator seeded once; DDL is rare, so a mutex costs nothing measurable.
    static std::mutex mu;
    static std::mt19937_64 gen{std::random_device{}()};
    Uuid u;
    {
        std::lock_guard<std::mutex> lock(mu);
        uint64_t hi = gen();
        uint64_t lo = gen();
        for (int i = 0; i < 8; ++i) {
            u.bytes[i] = static_cast<uint8_t>(hi >> (56 - 8 * i));
            u.bytes[8 + i] = static_cast<uint8_t>(lo >> (56 - 8 * i));
        }
    }
    u.bytes[6] = static_cast<uint8_t>((u.bytes[6] & 0x0F) | 0x40);  // version 4
    u.bytes[8] = static_cast<uint8_t>((u.bytes[8] & 0x3F) | 0x80);  // IETF variant
    return u;
}

std::optional<Uuid> Uuid::parse(std::string_view text) {
    if (text.size() != 36) return std::nullopt;
    Uuid u;
    size_t b = 0;
    for (size_t i = 0; i < text.size();) {
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (text[i] != '-') return std::nullopt;
            ++i;
            continue;
        }
        int h = hex_digit(text[i]);
        int l = hex_digit(text[i + 1]);
        if (h < 0 || l < 0) return std::nullopt;
        u.bytes[b++] = static_cast<uint8_t>(h * 16 + l);
        i += 2;
    }
    return u;
}

std::string Uuid::hex() const {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    out.reserve(32);
    for (uint8_t v : bytes) {
        out.push_back(kDigits[v >> 4]);
        out.push_back(kDigits[v & 0x0F]);
    }
    return out;
}

std::string Uuid::to_string() const {
    std::string h = hex();
    return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) +
           "-" + h.substr(20);
}

bool Uuid::is_nil() const {
    for (uint8_t v : bytes) {
        if (v != 0) return false;
    }
    return true;
}

}  // namespace tessel
