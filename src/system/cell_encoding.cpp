#include "system/cell_encoding.h"

#include <arpa/inet.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "types/bytes_util.h"

namespace tessel::system {
namespace {

void append_element(std::string* out, std::string_view element) {
    bytes::append_be(out, static_cast<uint32_t>(element.size()), 4);
    out->append(element);
}

}  // namespace

Cell int_cell(int32_t v) {
    return bytes::i32_bytes(v);
}

Cell bool_cell(bool v) {
    return std::string(1, v ? '\x01' : '\x00');
}

Cell double_cell(double v) {
    return bytes::be_bytes(std::bit_cast<uint64_t>(v), 8);
}

Cell uuid_cell(std::string_view raw) {
    if (raw.size() != 16) return std::nullopt;
    return std::string(raw);
}

std::optional<std::string> inet_bytes(std::string_view address) {
    std::string text(address);
    unsigned char buf[16];
    if (inet_pton(AF_INET, text.c_str(), buf) == 1) {
        return std::string(reinterpret_cast<const char*>(buf), 4);
    }
    if (inet_pton(AF_INET6, text.c_str(), buf) == 1) {
        return std::string(reinterpret_cast<const char*>(buf), 16);
    }
    return std::nullopt;
}

Cell inet_cell(std::string_view address) {
    return inet_bytes(address);
}

Cell text_list_cell(const std::vector<std::string>& items) {
    std::string out;
    bytes::append_be(&out, static_cast<uint32_t>(items.size()), 4);
    for (const auto& item : items)
        append_element(&out, item);
    return out;
}

Cell text_set_cell(std::vector<std::string> items) {
    std::sort(items.begin(), items.end());
    items.erase(std::unique(items.begin(), items.end()), items.end());
    return text_list_cell(items);
}

Cell text_map_cell(const std::map<std::string, std::string>& entries) {
    std::string out;
    bytes::append_be(&out, static_cast<uint32_t>(entries.size()), 4);
    for (const auto& [k, v] : entries) {
        append_element(&out, k);
        append_element(&out, v);
    }
    return out;
}

std::string uuid_to_string(std::string_view raw) {
    std::string hex = bytes::to_hex(raw);
    if (hex.size() != 32) return hex;
    return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
           hex.substr(16, 4) + "-" + hex.substr(20);
}

}  // namespace tessel::system
