#include "types/inet.h"

#include <arpa/inet.h>

#include <fmt/format.h>

#include "types/bytes_util.h"

namespace tessel::inet {

std::optional<std::string> parse(std::string_view text) {
    std::string s(text);
    unsigned char buf[16];
    if (inet_pton(AF_INET, s.c_str(), buf) == 1) {
        return std::string(reinterpret_cast<char*>(buf), 4);
    }
    if (inet_pton(AF_INET6, s.c_str(), buf) == 1) {
        return std::string(reinterpret_cast<char*>(buf), 16);
    }
    return std::nullopt;
}

std::string format(std::string_view b) {
    char buf[INET6_ADDRSTRLEN];
    int af = b.size() == 4 ? AF_INET : AF_INET6;
    if (inet_ntop(af, b.data(), buf, sizeof(buf)) == nullptr) return "0x" + bytes::to_hex(b);
    return buf;
}

std::string format_java(std::string_view b) {
    if (b.size() != 16) return format(b);
    std::string out;
    for (size_t i = 0; i < 16; i += 2) {
        if (i > 0) out.push_back(':');
        out += fmt::format("{:x}", bytes::read_u16(b.substr(i, 2)));
    }
    return out;
}

}  // namespace tessel::inet
