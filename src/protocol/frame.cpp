#include "protocol/frame.h"

#include "protocol/wire.h"

namespace tessel::protocol {

Result<Opcode> opcode_from_byte(uint8_t byte) {
    // 0x04 was CREDENTIALS, a v1-only message.
    if (byte <= static_cast<uint8_t>(Opcode::kAuthSuccess) && byte != 0x04) {
        return static_cast<Opcode>(byte);
    }
    return Status::protocol("Unknown opcode " + std::to_string(byte));
}

std::string_view opcode_name(Opcode opcode) {
    switch (opcode) {
        case Opcode::kError:
            return "ERROR";
        case Opcode::kStartup:
            return "STARTUP";
        case Opcode::kReady:
            return "READY";
        case Opcode::kAuthenticate:
            return "AUTHENTICATE";
        case Opcode::kOptions:
            return "OPTIONS";
        case Opcode::kSupported:
            return "SUPPORTED";
        case Opcode::kQuery:
            return "QUERY";
        case Opcode::kResult:
            return "RESULT";
        case Opcode::kPrepare:
            return "PREPARE";
        case Opcode::kExecute:
            return "EXECUTE";
        case Opcode::kRegister:
            return "REGISTER";
        case Opcode::kEvent:
            return "EVENT";
        case Opcode::kBatch:
            return "BATCH";
        case Opcode::kAuthChallenge:
            return "AUTH_CHALLENGE";
        case Opcode::kAuthResponse:
            return "AUTH_RESPONSE";
        case Opcode::kAuthSuccess:
            return "AUTH_SUCCESS";
    }
    return "UNKNOWN";
}

FrameHeader decode_header(std::string_view data) {
    const auto* p = reinterpret_cast<const unsigned char*>(data.data());
    FrameHeader h;
    h.version = p[0];
    h.flags = p[1];
    h.stream = static_cast<int16_t>(static_cast<uint16_t>((p[2] << 8) | p[3]));
    h.opcode = p[4];
    h.length =
        (uint32_t{p[5]} << 24) | (uint32_t{p[6]} << 16) | (uint32_t{p[7]} << 8) | uint32_t{p[8]};
    return h;
}

void append_header(const FrameHeader& header, std::string* out) {
    const auto stream = static_cast<uint16_t>(header.stream);
    const char bytes[kHeaderSize] = {
        static_cast<char>(header.version),
        static_cast<char>(header.flags),
        static_cast<char>(stream >> 8),
        static_cast<char>(stream & 0xFF),
        static_cast<char>(header.opcode),
        static_cast<char>((header.length >> 24) & 0xFF),
        static_cast<char>((header.length >> 16) & 0xFF),
        static_cast<char>((header.length >> 8) & 0xFF),
        static_cast<char>(header.length & 0xFF),
    };
    out->append(bytes, kHeaderSize);
}

std::string encode_frame(uint8_t version, uint8_t flags, int16_t stream, Opcode opcode,
                         std::string_view body) {
    FrameHeader h{version, flags, stream, static_cast<uint8_t>(opcode),
                  static_cast<uint32_t>(body.size())};
    std::string out;
    out.reserve(kHeaderSize + body.size());
    append_header(h, &out);
    out.append(body);
    return out;
}

bool is_supported_version(uint8_t protocol_version) {
    return protocol_version >= kMinSupportedVersion && protocol_version <= kMaxSupportedVersion;
}

Status check_request_version(const FrameHeader& header) {
    const uint8_t v = header.protocol_version();
    if (!is_supported_version(v)) {
        return Status::protocol("Invalid or unsupported protocol version (" + std::to_string(v) +
                                "); supported versions are (3/v3, 4/v4)");
    }
    if (header.is_response()) {
        return Status::protocol("Wrong protocol direction (expected REQUEST, got RESPONSE)");
    }
    return Status::ok();
}

uint8_t response_version_for(const FrameHeader& request) {
    const uint8_t v = request.protocol_version();
    return static_cast<uint8_t>((is_supported_version(v) ? v : kMaxSupportedVersion) |
                                kResponseDirection);
}

std::string encode_early_error_frame(const FrameHeader& request, const Status& error) {
    WireWriter w;
    w.write_int(static_cast<int32_t>(error.is_ok() ? ErrorCode::kServerError : error.code()));
    w.write_string(error.is_ok() ? std::string_view("unknown error") : error.message());
    return encode_frame(response_version_for(request), 0, request.stream, Opcode::kError, w.data());
}

// ---------------------------------------------------------------- parser

FrameParser::FrameParser(size_t max_frame_size) : max_frame_size_(max_frame_size) {}

void FrameParser::append(std::string_view bytes) {
    if (discard_remaining_ > 0) {
        const size_t skip = discard_remaining_ < bytes.size()
                                ? static_cast<size_t>(discard_remaining_)
                                : bytes.size();
        discard_remaining_ -= skip;
        bytes.remove_prefix(skip);
    }
    buffer_.append(bytes);
}

void FrameParser::compact() {
    // Moving the tail down only once the consumed part dominates keeps
    // appends amortised O(1) without unbounded growth.
    if (offset_ > 0 && (offset_ >= buffer_.size() / 2 || offset_ == buffer_.size())) {
        buffer_.erase(0, offset_);
        offset_ = 0;
    }
}

Result<std::optional<Frame>> FrameParser::next() {
    if (buffered() < kHeaderSize) {
        compact();
        return std::optional<Frame>();
    }
    const FrameHeader h = decode_header(std::string_view(buffer_).substr(offset_));
    if (h.length > max_frame_size_) {
        failed_header_ = h;
        offset_ += kHeaderSize;
        // Drop whatever part of the body is already here, the rest on arrival.
        const size_t have = buffered() < h.length ? buffered() : h.length;
        offset_ += have;
        discard_remaining_ = h.length - have;
        compact();
        if (!is_supported_version(h.protocol_version())) return check_request_version(h);
        return Status::protocol("Request is too big: length " + std::to_string(h.length) +
                                " exceeds maximum allowed length " +
                                std::to_string(max_frame_size_) + ".");
    }
    if (buffered() - kHeaderSize < h.length) return std::optional<Frame>();
    Frame f;
    f.header = h;
    f.body.assign(buffer_, offset_ + kHeaderSize, h.length);
    offset_ += kHeaderSize + h.length;
    compact();
    return std::optional<Frame>(std::move(f));
}

}  // namespace tessel::protocol
