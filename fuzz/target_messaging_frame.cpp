// fuzz_messaging_frame: a node's view of an internode byte stream from a
// hostile peer: the handshake, then frames arriving in pieces.
#include <string>
#include <string_view>

#include "cluster/messaging_frame.h"
#include "targets.h"

namespace tessel::fuzz {
namespace {

using namespace tessel::cluster;

// Small enough that the fuzzer reaches the "too big" path.
constexpr uint32_t kMaxPayload = 4096;

uint32_t chunk_seed(const uint8_t* data, size_t size) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < size; ++i)
        h = (h ^ data[i]) * 16777619u;
    return h;
}

void check_handshake_round_trip(const Handshake& h) {
    auto again = decode_handshake(encode_handshake(h));
    if (!again.is_ok() || !again->has_value())
        fuzz_fail("messaging_frame", "handshake re-encoding fails");
    const Handshake& g = (*again)->handshake;
    if (g.min_version != h.min_version || g.max_version != h.max_version ||
        g.refused != h.refused || g.cluster_name != h.cluster_name || g.host_id != h.host_id ||
        g.address != h.address || g.port != h.port || g.reason != h.reason) {
        fuzz_fail("messaging_frame", "handshake differs after a round trip");
    }
}

void check_frame(const DecodedFrame& f, std::string_view original) {
    if (f.payload.size() != f.header.length)
        fuzz_fail("messaging_frame", "payload size differs from the length");
    if (f.header.length > kMaxPayload) fuzz_fail("messaging_frame", "frame above the maximum");
    if (f.size != kFrameHeaderSize + f.payload.size())
        fuzz_fail("messaging_frame", "wrong frame size");
    if (encode_frame(f.header, f.payload) != original.substr(0, f.size)) {
        fuzz_fail("messaging_frame", "frame differs after a round trip");
    }
    if (f.header.kind == FrameKind::kError) {
        auto status = decode_error_payload(f.payload);
        if (status) {
            auto again = decode_error_payload(encode_error_payload(*status));
            if (!again || again->code() != status->code() ||
                again->message() != status->message() || again->detail1 != status->detail1 ||
                again->detail2 != status->detail2) {
                fuzz_fail("messaging_frame", "error payload differs after a round trip");
            }
        }
    }
}

}  // namespace

void fuzz_messaging_frame(const uint8_t* data, size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    // The handshake, when the input starts with one; frames follow it.
    size_t start = 0;
    auto hello = decode_handshake(input);
    if (hello.is_ok() && hello->has_value()) {
        check_handshake_round_trip((*hello)->handshake);
        start = (*hello)->size;
    }
    // Frames as a connection reads them: appended in pseudo-random pieces,
    // decoded after each; a decode error ends the connection.
    std::string buffer;
    size_t decoded = 0;
    uint32_t rng = chunk_seed(data, size);
    size_t pos = start;
    while (pos < size) {
        rng = rng * 1103515245u + 12345u;
        const size_t want = (rng >> 16) % 8 == 0 ? 1 + (rng >> 8) % 4096 : 1 + (rng >> 16) % 24;
        const size_t n = want < size - pos ? want : size - pos;
        buffer.append(input.substr(pos, n));
        pos += n;
        for (;;) {
            const std::string_view rest = std::string_view(buffer).substr(decoded);
            auto next = decode_frame(rest, kMaxPayload);
            if (!next.is_ok()) {
                if (rest.size() < kFrameHeaderSize)
                    fuzz_fail("messaging_frame", "error without a header");
                return;
            }
            if (!next->has_value()) {
                // Waiting for more is only right while the frame is incomplete.
                if (rest.size() >= kFrameHeaderSize) {
                    auto header = decode_frame_header(rest, kMaxPayload);
                    if (!header.is_ok() || rest.size() >= kFrameHeaderSize + header->length) {
                        fuzz_fail("messaging_frame", "a complete frame was not decoded");
                    }
                }
                break;
            }
            check_frame(**next, rest);
            decoded += (*next)->size;
        }
    }
}

}  // namespace tessel::fuzz
