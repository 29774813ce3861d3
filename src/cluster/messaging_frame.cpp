#include "cluster/messaging_frame.h"

#include <algorithm>
#include <cstring>

namespace tessel::cluster {
namespace {

constexpr char kMagic[4] = {'T', 'S', 'L', 'M'};
constexpr size_t kHandshakePrefix = 6;  // magic + body length

void put_u8(std::string& out, uint8_t v) {
    out.push_back(static_cast<char>(v));
}
void put_u16(std::string& out, uint16_t v) {
    out.push_back(static_cast<char>(v >> 8));
    out.push_back(static_cast<char>(v & 0xff));
}
void put_u32(std::string& out, uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8)
        out.push_back(static_cast<char>((v >> shift) & 0xff));
}

// Reads big-endian fields from untrusted bytes; every read checks the bound
// and a failed read leaves the reader failed.
class Reader {
  public:
    explicit Reader(std::string_view bytes) : bytes_(bytes) {}

    bool ok() const { return ok_; }
    size_t remaining() const { return bytes_.size() - pos_; }

    uint64_t uint(size_t width) {
        if (!need(width)) return 0;
        uint64_t v = 0;
        for (size_t i = 0; i < width; ++i)
            v = (v << 8) | static_cast<unsigned char>(bytes_[pos_ + i]);
        pos_ += width;
        return v;
    }
    std::string_view bytes(size_t n) {
        if (!need(n)) return {};
        std::string_view out = bytes_.substr(pos_, n);
        pos_ += n;
        return out;
    }

  private:
    bool need(size_t n) {
        if (!ok_ || remaining() < n) {
            ok_ = false;
            return false;
        }
        return true;
    }

    std::string_view bytes_;
    size_t pos_ = 0;
    bool ok_ = true;
};

Status malformed(const std::string& what) {
    return Status::protocol("malformed internode " + what);
}

}  // namespace

std::string encode_handshake(const Handshake& h) {
    std::string body;
    put_u16(body, h.min_version);
    put_u16(body, h.max_version);
    put_u8(body, h.refused ? 1 : 0);
    put_u16(body, static_cast<uint16_t>(h.cluster_name.size()));
    body += h.cluster_name;
    body += h.host_id;
    put_u8(body, static_cast<uint8_t>(h.address.size()));
    body += h.address;
    put_u16(body, h.port);
    const size_t room = kMaxHandshakeBody - std::min(kMaxHandshakeBody, body.size() + 2);
    const size_t reason = std::min(h.reason.size(), room);
    put_u16(body, static_cast<uint16_t>(reason));
    body.append(h.reason, 0, reason);

    std::string out(kMagic, sizeof(kMagic));
    put_u16(out, static_cast<uint16_t>(body.size()));
    out += body;
    return out;
}

Result<std::optional<DecodedHandshake>> decode_handshake(std::string_view bytes) {
    // The magic is checked on however many bytes arrived, so a stranger (an
    // HTTP client, a CQL driver, a TLS ClientHello) is refused at its first bytes.
    const size_t have = std::min(bytes.size(), sizeof(kMagic));
    if (std::memcmp(bytes.data(), kMagic, have) != 0) {
        return Status::protocol("not an internode handshake (wrong magic)");
    }
    if (bytes.size() < kHandshakePrefix) return std::optional<DecodedHandshake>();
    Reader prefix(bytes.substr(sizeof(kMagic), 2));
    const size_t body_size = prefix.uint(2);
    if (body_size > kMaxHandshakeBody) {
        return malformed("handshake: body of " + std::to_string(body_size) + " bytes exceeds " +
                         std::to_string(kMaxHandshakeBody));
    }
    if (bytes.size() < kHandshakePrefix + body_size) return std::optional<DecodedHandshake>();

    Reader r(bytes.substr(kHandshakePrefix, body_size));
    DecodedHandshake out;
    Handshake& h = out.handshake;
    h.min_version = static_cast<uint16_t>(r.uint(2));
    h.max_version = static_cast<uint16_t>(r.uint(2));
    const uint64_t status = r.uint(1);
    h.cluster_name = std::string(r.bytes(r.uint(2)));
    h.host_id = std::string(r.bytes(kHostIdSize));
    h.address = std::string(r.bytes(r.uint(1)));
    h.port = static_cast<uint16_t>(r.uint(2));
    h.reason = std::string(r.bytes(r.uint(2)));
    if (!r.ok()) return malformed("handshake: a field overruns the body");
    if (status > 1) return malformed("handshake: unknown status " + std::to_string(status));
    if (h.min_version > h.max_version) {
        return malformed("handshake: version range " + std::to_string(h.min_version) + ".." +
                         std::to_string(h.max_version) + " is empty");
    }
    if (h.cluster_name.size() > kMaxClusterName)
        return malformed("handshake: cluster name too long");
    h.refused = status == 1;
    out.size = kHandshakePrefix + body_size;
    return std::optional<DecodedHandshake>(std::move(out));
}

void encode_frame_header(const FrameHeader& header, char* out) {
    std::string h;
    h.reserve(kFrameHeaderSize);
    put_u16(h, header.verb);
    put_u8(h, static_cast<uint8_t>(header.kind));
    put_u8(h, 0);
    put_u32(h, static_cast<uint32_t>(header.id >> 32));
    put_u32(h, static_cast<uint32_t>(header.id & 0xffffffffu));
    put_u32(h, header.length);
    std::memcpy(out, h.data(), kFrameHeaderSize);
}

std::string encode_frame(const FrameHeader& header, std::string_view payload) {
    std::string out(kFrameHeaderSize, '\0');
    encode_frame_header(header, out.data());
    out.append(payload);
    return out;
}

Result<FrameHeader> decode_frame_header(std::string_view bytes, uint32_t max_payload) {
    Reader r(bytes.substr(0, kFrameHeaderSize));
    FrameHeader h;
    h.verb = static_cast<Verb>(r.uint(2));
    const uint64_t kind = r.uint(1);
    const uint64_t flags = r.uint(1);
    h.id = r.uint(8);
    h.length = static_cast<uint32_t>(r.uint(4));
    if (!r.ok()) return malformed("frame: short header");
    if (kind < static_cast<uint8_t>(FrameKind::kRequest) ||
        kind > static_cast<uint8_t>(FrameKind::kPong)) {
        return malformed("frame: unknown kind " + std::to_string(kind));
    }
    if (flags != 0) return malformed("frame: reserved flags " + std::to_string(flags) + " set");
    if (h.length > max_payload) {
        return malformed("frame: payload of " + std::to_string(h.length) +
                         " bytes exceeds the maximum of " + std::to_string(max_payload));
    }
    h.kind = static_cast<FrameKind>(kind);
    return h;
}

Result<std::optional<DecodedFrame>> decode_frame(std::string_view bytes, uint32_t max_payload) {
    if (bytes.size() < kFrameHeaderSize) return std::optional<DecodedFrame>();
    auto header = decode_frame_header(bytes, max_payload);
    if (!header.is_ok()) return std::move(header).status();
    const size_t size = kFrameHeaderSize + header->length;
    if (bytes.size() < size) return std::optional<DecodedFrame>();
    DecodedFrame out;
    out.header = *header;
    out.payload = bytes.substr(kFrameHeaderSize, header->length);
    out.size = size;
    return std::optional<DecodedFrame>(out);
}

std::string encode_error_payload(const Status& status) {
    std::string out;
    put_u32(out, static_cast<uint32_t>(status.code()));
    for (const std::string* s : {&status.message(), &status.detail1, &status.detail2}) {
        put_u32(out, static_cast<uint32_t>(s->size()));
        out += *s;
    }
    return out;
}

std::optional<Status> decode_error_payload(std::string_view payload) {
    Reader r(payload);
    const auto code = static_cast<int32_t>(static_cast<uint32_t>(r.uint(4)));
    std::string_view parts[3];
    for (auto& part : parts)
        part = r.bytes(r.uint(4));
    if (!r.ok()) return std::nullopt;
    Status status(static_cast<ErrorCode>(code), std::string(parts[0]));
    status.detail1 = std::string(parts[1]);
    status.detail2 = std::string(parts[2]);
    return status;
}

}  // namespace tessel::cluster
