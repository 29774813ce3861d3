#include "protocol/wire.h"

#include "types/utf8.h"

#include <algorithm>
#include <limits>

namespace tessel::protocol {
namespace {

constexpr size_t kMaxShortLength = std::numeric_limits<uint16_t>::max();

}  // namespace

std::string_view consistency_name(uint16_t code) {
    switch (code) {
        case 0x0000:
            return "ANY";
        case 0x0001:
            return "ONE";
        case 0x0002:
            return "TWO";
        case 0x0003:
            return "THREE";
        case 0x0004:
            return "QUORUM";
        case 0x0005:
            return "ALL";
        case 0x0006:
            return "LOCAL_QUORUM";
        case 0x0007:
            return "EACH_QUORUM";
        case 0x0008:
            return "SERIAL";
        case 0x0009:
            return "LOCAL_SERIAL";
        case 0x000A:
            return "LOCAL_ONE";
        default:
            return "UNKNOWN";
    }
}

// ---------------------------------------------------------------- reader

Status WireReader::need(size_t n, std::string_view what) const {
    if (remaining() >= n) return Status::ok();
    return Status::protocol("Not enough bytes to read " + std::string(what) + " (need " +
                            std::to_string(n) + ", have " + std::to_string(remaining()) + ")");
}

Result<uint8_t> WireReader::read_byte() {
    TESSEL_RETURN_IF_ERROR(need(1, "a [byte]"));
    return static_cast<uint8_t>(data_[pos_++]);
}

Result<uint16_t> WireReader::read_short() {
    TESSEL_RETURN_IF_ERROR(need(2, "a [short]"));
    const auto* p = reinterpret_cast<const unsigned char*>(data_.data() + pos_);
    pos_ += 2;
    return static_cast<uint16_t>((p[0] << 8) | p[1]);
}

Result<int32_t> WireReader::read_int() {
    TESSEL_RETURN_IF_ERROR(need(4, "an [int]"));
    const auto* p = reinterpret_cast<const unsigned char*>(data_.data() + pos_);
    pos_ += 4;
    const uint32_t u =
        (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
    return static_cast<int32_t>(u);
}

Result<int64_t> WireReader::read_long() {
    TESSEL_RETURN_IF_ERROR(need(8, "a [long]"));
    uint64_t u = 0;
    for (int i = 0; i < 8; ++i)
        u = (u << 8) | static_cast<unsigned char>(data_[pos_ + i]);
    pos_ += 8;
    return static_cast<int64_t>(u);
}

Result<std::string_view> WireReader::read_raw(size_t n, std::string_view what) {
    TESSEL_RETURN_IF_ERROR(need(n, what));
    std::string_view v = data_.substr(pos_, n);
    pos_ += n;
    return v;
}

Result<std::string_view> WireReader::read_string() {
    TESSEL_ASSIGN_OR_RETURN(uint16_t n, read_short());
    return read_raw(n, "a [string]");
}

Result<std::string_view> WireReader::read_long_string() {
    TESSEL_ASSIGN_OR_RETURN(int32_t n, read_int());
    if (n < 0) {
        return Status::protocol("Invalid [long string] length " + std::to_string(n));
    }
    return read_raw(static_cast<size_t>(n), "a [long string]");
}

Result<std::optional<std::string_view>> WireReader::read_bytes() {
    TESSEL_ASSIGN_OR_RETURN(int32_t n, read_int());
    if (n < 0) return std::optional<std::string_view>();
    TESSEL_ASSIGN_OR_RETURN(std::string_view v, read_raw(static_cast<size_t>(n), "a [bytes]"));
    return std::optional<std::string_view>(v);
}

Result<BoundValue> WireReader::read_value(uint8_t protocol_version) {
    TESSEL_ASSIGN_OR_RETURN(int32_t n, read_int());
    if (n < 0) {
        if (protocol_version < 4 || n == -1) return BoundValue::null();
        if (n == -2) return BoundValue::unset();
        return Status::protocol("Invalid length for value: " + std::to_string(n));
    }
    TESSEL_ASSIGN_OR_RETURN(std::string_view v, read_raw(static_cast<size_t>(n), "a [value]"));
    return BoundValue::of(v);
}

Result<std::string_view> WireReader::read_short_bytes() {
    TESSEL_ASSIGN_OR_RETURN(uint16_t n, read_short());
    return read_raw(n, "a [short bytes]");
}

Result<std::vector<std::string>> WireReader::read_string_list() {
    TESSEL_ASSIGN_OR_RETURN(uint16_t n, read_short());
    // Each element takes at least its 2-byte length: a lying count fails here
    // instead of reserving memory for elements that are not there.
    TESSEL_RETURN_IF_ERROR(need(size_t{n} * 2, "a [string list]"));
    std::vector<std::string> out;
    out.reserve(n);
    for (uint16_t i = 0; i < n; ++i) {
        TESSEL_ASSIGN_OR_RETURN(std::string_view s, read_string());
        out.emplace_back(s);
    }
    return out;
}

Result<StringMap> WireReader::read_string_map() {
    TESSEL_ASSIGN_OR_RETURN(uint16_t n, read_short());
    TESSEL_RETURN_IF_ERROR(need(size_t{n} * 4, "a [string map]"));
    StringMap out;
    for (uint16_t i = 0; i < n; ++i) {
        TESSEL_ASSIGN_OR_RETURN(std::string_view k, read_string());
        TESSEL_ASSIGN_OR_RETURN(std::string_view v, read_string());
        out.insert_or_assign(std::string(k), std::string(v));
    }
    return out;
}

Result<StringMultimap> WireReader::read_string_multimap() {
    TESSEL_ASSIGN_OR_RETURN(uint16_t n, read_short());
    TESSEL_RETURN_IF_ERROR(need(size_t{n} * 4, "a [string multimap]"));
    StringMultimap out;
    for (uint16_t i = 0; i < n; ++i) {
        TESSEL_ASSIGN_OR_RETURN(std::string_view k, read_string());
        TESSEL_ASSIGN_OR_RETURN(std::vector<std::string> v, read_string_list());
        out.insert_or_assign(std::string(k), std::move(v));
    }
    return out;
}

Result<BytesMap> WireReader::read_bytes_map() {
    TESSEL_ASSIGN_OR_RETURN(uint16_t n, read_short());
    TESSEL_RETURN_IF_ERROR(need(size_t{n} * 6, "a [bytes map]"));
    BytesMap out;
    for (uint16_t i = 0; i < n; ++i) {
        TESSEL_ASSIGN_OR_RETURN(std::string_view k, read_string());
        TESSEL_ASSIGN_OR_RETURN(std::optional<std::string_view> v, read_bytes());
        out.insert_or_assign(std::string(k),
                             v ? std::optional<std::string>(std::string(*v)) : std::nullopt);
    }
    return out;
}

Result<Inet> WireReader::read_inet() {
    TESSEL_ASSIGN_OR_RETURN(uint8_t size, read_byte());
    if (size != 4 && size != 16) {
        return Status::protocol("Invalid IP address length " + std::to_string(size) +
                                " in [inet] (expected 4 or 16)");
    }
    Inet inet;
    TESSEL_ASSIGN_OR_RETURN(std::string_view addr, read_raw(size, "an [inet] address"));
    inet.address = std::string(addr);
    TESSEL_ASSIGN_OR_RETURN(inet.port, read_int());
    return inet;
}

Result<Uuid> WireReader::read_uuid() {
    TESSEL_ASSIGN_OR_RETURN(std::string_view raw, read_raw(16, "a [uuid]"));
    Uuid u;
    std::copy(raw.begin(), raw.end(), u.begin());
    return u;
}

// ---------------------------------------------------------------- writer

// Big-endian fixed-size integers, appended in one go (one capacity check).
void WireWriter::write_short(uint16_t v) {
    const char b[2] = {static_cast<char>(v >> 8), static_cast<char>(v & 0xFF)};
    out_.append(b, sizeof b);
}

void WireWriter::write_int(int32_t v) {
    const auto u = static_cast<uint32_t>(v);
    const char b[4] = {static_cast<char>(u >> 24), static_cast<char>((u >> 16) & 0xFF),
                       static_cast<char>((u >> 8) & 0xFF), static_cast<char>(u & 0xFF)};
    out_.append(b, sizeof b);
}

void WireWriter::write_long(int64_t v) {
    const auto u = static_cast<uint64_t>(v);
    char b[8];
    for (int i = 0; i < 8; ++i)
        b[i] = static_cast<char>((u >> (56 - 8 * i)) & 0xFF);
    out_.append(b, sizeof b);
}

void WireWriter::write_string(std::string_view s) {
    // Cut an over-long string at a character boundary: a peer decodes
    // [string] as UTF-8 and a split sequence fails the whole frame.
    const size_t n = utf8::boundary_at_most(s, kMaxShortLength);
    write_short(static_cast<uint16_t>(n));
    out_.append(s.data(), n);
}

void WireWriter::write_long_string(std::string_view s) {
    const size_t n = std::min<size_t>(s.size(), std::numeric_limits<int32_t>::max());
    write_int(static_cast<int32_t>(n));
    out_.append(s.data(), n);
}

void WireWriter::write_bytes(std::optional<std::string_view> b) {
    if (!b) {
        write_int(-1);
        return;
    }
    const size_t n = std::min<size_t>(b->size(), std::numeric_limits<int32_t>::max());
    write_int(static_cast<int32_t>(n));
    out_.append(b->data(), n);
}

void WireWriter::write_value(const BoundValue& v) {
    switch (v.kind) {
        case BoundValue::Kind::kNull:
            write_int(-1);
            return;
        case BoundValue::Kind::kUnset:
            write_int(-2);
            return;
        case BoundValue::Kind::kBytes:
            write_bytes(std::string_view(v.bytes));
            return;
    }
}

void WireWriter::write_short_bytes(std::string_view b) {
    write_string(b);
}

void WireWriter::write_string_list(const std::vector<std::string>& list) {
    const size_t n = std::min(list.size(), kMaxShortLength);
    write_short(static_cast<uint16_t>(n));
    for (size_t i = 0; i < n; ++i)
        write_string(list[i]);
}

void WireWriter::write_string_map(const StringMap& map) {
    write_short(static_cast<uint16_t>(std::min(map.size(), kMaxShortLength)));
    size_t i = 0;
    for (const auto& [k, v] : map) {
        if (i++ == kMaxShortLength) break;
        write_string(k);
        write_string(v);
    }
}

void WireWriter::write_string_multimap(const StringMultimap& map) {
    write_short(static_cast<uint16_t>(std::min(map.size(), kMaxShortLength)));
    size_t i = 0;
    for (const auto& [k, v] : map) {
        if (i++ == kMaxShortLength) break;
        write_string(k);
        write_string_list(v);
    }
}

void WireWriter::write_bytes_map(const BytesMap& map) {
    write_short(static_cast<uint16_t>(std::min(map.size(), kMaxShortLength)));
    size_t i = 0;
    for (const auto& [k, v] : map) {
        if (i++ == kMaxShortLength) break;
        write_string(k);
        write_bytes(v ? std::optional<std::string_view>(*v) : std::nullopt);
    }
}

void WireWriter::write_inet(const Inet& inet) {
    write_byte(static_cast<uint8_t>(inet.address.size()));
    out_.append(inet.address);
    write_int(inet.port);
}

void WireWriter::write_uuid(const Uuid& uuid) {
    out_.append(reinterpret_cast<const char*>(uuid.data()), uuid.size());
}

}  // namespace tessel::protocol
