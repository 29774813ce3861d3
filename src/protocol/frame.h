// CQL native protocol frames (v3/v4): the 9-byte header, opcodes, flags,
// version negotiation and an incremental parser for bytes read from a socket.
//
// Layout (native_protocol_v4.spec §2): version(1) flags(1) stream(2, signed)
// opcode(1) length(4, unsigned) then `length` body bytes. The top bit of the
// version byte is the direction (0 request, 1 response).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"

namespace tessel::protocol {

enum class Opcode : uint8_t {
    kError = 0x00,
    kStartup = 0x01,
    kReady = 0x02,
    kAuthenticate = 0x03,
    kOptions = 0x05,
    kSupported = 0x06,
    kQuery = 0x07,
    kResult = 0x08,
    kPrepare = 0x09,
    kExecute = 0x0A,
    kRegister = 0x0B,
    kEvent = 0x0C,
    kBatch = 0x0D,
    kAuthChallenge = 0x0E,
    kAuthResponse = 0x0F,
    kAuthSuccess = 0x10,
};

// The opcode for a header byte; Protocol_error "Unknown opcode N" for bytes
// that name no message (including the v1-only CREDENTIALS 0x04).
Result<Opcode> opcode_from_byte(uint8_t byte);
// "QUERY", "RESULT", ... for logs and error messages.
std::string_view opcode_name(Opcode opcode);

// Header flag bits.
inline constexpr uint8_t kFlagCompression = 0x01;
inline constexpr uint8_t kFlagTracing = 0x02;
inline constexpr uint8_t kFlagCustomPayload = 0x04;
inline constexpr uint8_t kFlagWarning = 0x08;

inline constexpr size_t kHeaderSize = 9;
inline constexpr uint8_t kResponseDirection = 0x80;
inline constexpr uint8_t kVersionMask = 0x7F;
inline constexpr uint8_t kMinSupportedVersion = 3;
inline constexpr uint8_t kMaxSupportedVersion = 4;
// Cassandra's default native_transport_max_frame_size.
inline constexpr size_t kDefaultMaxFrameSize = 256 * 1024 * 1024;
// Events pushed by the server carry this stream id.
inline constexpr int16_t kEventStreamId = -1;

struct FrameHeader {
    uint8_t version = 0;  // the raw byte, direction bit included
    uint8_t flags = 0;
    int16_t stream = 0;
    uint8_t opcode = 0;   // raw; see opcode_from_byte
    uint32_t length = 0;  // body length

    uint8_t protocol_version() const { return version & kVersionMask; }
    bool is_response() const { return (version & kResponseDirection) != 0; }
};

// Requires data.size() >= kHeaderSize; only the first 9 bytes are read.
FrameHeader decode_header(std::string_view data);
void append_header(const FrameHeader& header, std::string* out);

// A whole frame: header (with length = body.size()) followed by the body.
// `version` is the raw byte (0x04 for a v4 request, 0x84 for a v4 response).
// Precondition: body.size() fits in 32 bits.
std::string encode_frame(uint8_t version, uint8_t flags, int16_t stream, Opcode opcode,
                         std::string_view body);

// True for 3 and 4 (the versions this codec speaks).
bool is_supported_version(uint8_t protocol_version);

// Checks the version byte of a frame the server received. Ok for a request of
// v3 or v4. Otherwise Protocol_error:
// - unsupported version N (after removing the direction bit):
//   "Invalid or unsupported protocol version (N); supported versions are (3/v3, 4/v4)",
//   the exact text drivers match to negotiate down (reference §1.4);
// - a supported version with the response bit set:
//   "Wrong protocol direction (expected REQUEST, got RESPONSE)".
Status check_request_version(const FrameHeader& header);

// The version byte the server answers `request` with: the request's version
// with the direction bit when it is supported, else the highest supported
// (0x84), which is what Cassandra does and what drivers downgrade from.
uint8_t response_version_for(const FrameHeader& request);

// The complete ERROR frame for an error detected before the body could be
// decoded (version errors, oversized frames): header version from
// response_version_for(request), the request's stream, body <code><message>.
std::string encode_early_error_frame(const FrameHeader& request, const Status& error);

struct Frame {
    FrameHeader header;
    std::string body;
};

// Cuts a byte stream into frames. Feed it whatever the socket delivered with
// append(); call next() until it returns std::nullopt (more bytes needed).
// The parser only frames bytes: the caller checks every frame's version with
// check_request_version before decoding its body.
//
// A frame whose body length exceeds max_frame_size is an error: next() returns
// Protocol_error "Request is too big: length N exceeds maximum allowed length M."
// (or the version error when the frame's version is unsupported, which the
// server must report first), and failed_header() holds that frame's header so
// the caller can answer on its stream (see encode_early_error_frame). The
// parser then discards the body as it arrives and carries on with the next
// frame, so the connection can stay open. No memory is reserved on the word of
// a length field alone: the buffer only grows with bytes actually received.
class FrameParser {
  public:
    explicit FrameParser(size_t max_frame_size = kDefaultMaxFrameSize);

    void append(std::string_view bytes);
    Result<std::optional<Frame>> next();

    // The header of the frame the last error was about.
    const std::optional<FrameHeader>& failed_header() const { return failed_header_; }
    // Bytes received and not yet returned or discarded.
    size_t buffered() const { return buffer_.size() - offset_; }
    size_t max_frame_size() const { return max_frame_size_; }
    void set_max_frame_size(size_t size) { max_frame_size_ = size; }

  private:
    void compact();

    size_t max_frame_size_;
    std::string buffer_;
    size_t offset_ = 0;
    uint64_t discard_remaining_ = 0;
    std::optional<FrameHeader> failed_header_;
};

}  // namespace tessel::protocol
