// fuzz_frame: the server's view of a byte stream from a hostile client.
#include <string>
#include <string_view>

#include "protocol/compression.h"
#include "protocol/frame.h"
#include "protocol/requests.h"
#include "protocol/responses.h"
#include "targets.h"

namespace tessel::fuzz {
namespace {

using namespace tessel::protocol;

// Small enough that the fuzzer reaches the "too big" path and the discarding
// of an oversized body that arrives over several reads.
constexpr size_t kMaxFrameSize = 4096;

// Chunk sizes come from the bytes themselves (not a prefix) so that the seed
// corpus files are plain, real frames.
uint32_t chunk_seed(const uint8_t* data, size_t size) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < size; ++i)
        h = (h ^ data[i]) * 16777619u;
    return h;
}

void decode_body(const FrameHeader& header, std::string_view body) {
    auto opcode = opcode_from_byte(header.opcode);
    if (!opcode.is_ok()) return;
    const uint8_t version = header.protocol_version();
    if (header.is_response()) {
        (void)decode_response(version, *opcode, header.flags, body);
        return;
    }
    (void)decode_request(version, *opcode, header.flags, body);
    // The same body as the other supported version: v3 and v4 differ in [value].
    (void)decode_request(version == 4 ? 3 : 4, *opcode, header.flags, body);
}

void handle_frame(const Frame& frame) {
    const FrameHeader& header = frame.header;
    if (!header.is_response() && !check_request_version(header).is_ok()) {
        (void)encode_early_error_frame(header, check_request_version(header));
        return;
    }
    if (header.is_response() && !is_supported_version(header.protocol_version())) return;
    if ((header.flags & kFlagCompression) != 0) {
        for (Compression c : {Compression::kLz4, Compression::kSnappy}) {
            auto body = decompress_body(c, frame.body, kMaxFrameSize);
            if (body.is_ok()) decode_body(header, *body);
        }
    }
    decode_body(header, frame.body);
}

}  // namespace

void fuzz_frame(const uint8_t* data, size_t size) {
    FrameParser parser(kMaxFrameSize);
    uint32_t rng = chunk_seed(data, size);
    size_t pos = 0;
    while (pos < size) {
        rng = rng * 1103515245u + 12345u;
        // Mostly small reads, sometimes a big one, as sockets deliver them.
        const size_t want = (rng >> 16) % 8 == 0 ? 1 + (rng >> 8) % 4096 : 1 + (rng >> 16) % 24;
        const size_t n = want < size - pos ? want : size - pos;
        parser.append(std::string_view(reinterpret_cast<const char*>(data) + pos, n));
        pos += n;
        for (;;) {
            auto next = parser.next();
            if (!next.is_ok()) {
                if (!parser.failed_header().has_value()) {
                    fuzz_fail("frame", "next() failed without failed_header()");
                }
                (void)encode_early_error_frame(*parser.failed_header(), next.status());
                continue;
            }
            if (!next->has_value()) break;
            const Frame& frame = **next;
            if (frame.body.size() != frame.header.length) {
                fuzz_fail("frame", "body size differs from the header's length");
            }
            if (frame.body.size() > kMaxFrameSize) fuzz_fail("frame", "frame above the maximum");
            handle_frame(frame);
        }
    }
}

}  // namespace tessel::fuzz
