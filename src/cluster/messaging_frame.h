// The internode wire format: the handshake that opens every connection and
// the frames that follow it. Pure encoders and decoders, no I/O; everything
// decoded here comes from the network and is treated as hostile (every
// length is checked before it is used, nothing is allocated from a length
// that was not checked against a bound).
//
// Handshake (both directions; big-endian):
//   magic         4 bytes  "TSLM"
//   body length   u16      <= kMaxHandshakeBody
//   body:
//     min_version u16      the protocol versions the sender speaks
//     max_version u16      (a reply: both are the version chosen)
//     status      u8       0 hello / accepted, 1 refused (replies only)
//     cluster     u16 length + bytes (<= 255)
//     host id     16 bytes (raw UUID)
//     address     u8 length + bytes (the sender's address, as text)
//     port        u16      the sender's storage port
//     reason      u16 length + bytes (why a reply refuses; empty otherwise)
//     ...         later versions may append fields; they are skipped
// The magic, the length and the two versions keep their place in every
// version, so any two versions can always tell what the other speaks.
//
// Frame (protocol version 1): a 16-byte header, then the payload.
//   verb u16 | kind u8 | flags u8 (reserved, 0) | request id u64 | length u32
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"

namespace tessel::cluster {

// The kind of message a user of the messaging service sends (chosen by that user).
using Verb = uint16_t;

inline constexpr uint16_t kMessagingVersion = 1;     // the newest version this build speaks
inline constexpr uint16_t kMinMessagingVersion = 1;  // the oldest
inline constexpr size_t kMaxHandshakeBody = 1024;
inline constexpr size_t kMaxClusterName = 255;
inline constexpr size_t kHostIdSize = 16;
inline constexpr size_t kFrameHeaderSize = 16;

struct Handshake {
    uint16_t min_version = kMinMessagingVersion;
    uint16_t max_version = kMessagingVersion;
    bool refused = false;
    std::string cluster_name;
    std::string host_id;  // kHostIdSize bytes
    std::string address;
    uint16_t port = 0;
    std::string reason;  // a refusal's explanation
};

// The handshake's bytes. Precondition: host_id has kHostIdSize bytes, the
// strings fit their length fields (cluster name <= kMaxClusterName, address
// <= 255 bytes) and the whole body <= kMaxHandshakeBody (reasons are cut to fit).
std::string encode_handshake(const Handshake& handshake);

struct DecodedHandshake {
    Handshake handshake;
    size_t size = 0;  // bytes consumed
};

// Decodes the handshake at the start of `bytes`: nullopt while more bytes are
// needed, Protocol_error when they cannot be a handshake (wrong magic, a
// body over the bound, a field that overruns the body, a bad host id).
Result<std::optional<DecodedHandshake>> decode_handshake(std::string_view bytes);

enum class FrameKind : uint8_t {
    kRequest = 1,   // expects a kResponse or kError with the same id
    kResponse = 2,  // the handler's payload
    kError = 3,     // the handler's Status (encode_error_payload)
    kOneWay = 4,    // no reply
    kPing = 5,      // heartbeat: answered with a kPong of the same id
    kPong = 6,
};

struct FrameHeader {
    Verb verb = 0;
    FrameKind kind = FrameKind::kRequest;
    uint64_t id = 0;
    uint32_t length = 0;  // payload bytes
};

// The header's 16 bytes written at `out` (which must have room for them).
void encode_frame_header(const FrameHeader& header, char* out);
// Header then payload. Precondition: header.length == payload.size().
std::string encode_frame(const FrameHeader& header, std::string_view payload);

struct DecodedFrame {
    FrameHeader header;
    std::string_view payload;  // points into the decoded bytes
    size_t size = 0;           // header + payload
};

// Decodes the header at the start of `bytes` (at least kFrameHeaderSize of
// them): Protocol_error for an unknown kind, reserved flags that are set, or
// a length above `max_payload`. Checked before any payload is read or
// allocated, so an oversized frame is refused from its header alone.
Result<FrameHeader> decode_frame_header(std::string_view bytes, uint32_t max_payload);

// Decodes the frame at the start of `bytes`: nullopt while more bytes are
// needed, Protocol_error for a bad header (see decode_frame_header).
Result<std::optional<DecodedFrame>> decode_frame(std::string_view bytes, uint32_t max_payload);

// The payload of a kError frame: the Status's code, message and details.
// Precondition: !status.is_ok().
std::string encode_error_payload(const Status& status);
// The Status a kError payload carries; nullopt when the payload is malformed.
std::optional<Status> decode_error_payload(std::string_view payload);

}  // namespace tessel::cluster
