// Helpers for protocol tests: build request frames, split and decode the
// response bytes a server produced.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/compression.h"
#include "protocol/frame.h"
#include "protocol/requests.h"
#include "protocol/responses.h"

namespace tessel::testing {

struct DecodedFrame {
    protocol::FrameHeader header;
    protocol::DecodedResponse response;
};

// Splits `bytes` into frames and decodes each (decompressing with `c` when the
// frame says so). Fails the test on malformed output.
inline std::vector<DecodedFrame> decode_frames(
    const std::string& bytes, protocol::Compression c = protocol::Compression::kNone) {
    std::vector<DecodedFrame> out;
    protocol::FrameParser parser;
    parser.append(bytes);
    for (;;) {
        auto next = parser.next();
        EXPECT_TRUE(next.is_ok());
        if (!next.is_ok() || !next->has_value()) break;
        const protocol::Frame& f = **next;
        std::string body = f.body;
        if (f.header.flags & protocol::kFlagCompression) {
            auto d = protocol::decompress_body(c, body);
            EXPECT_TRUE(d.is_ok());
            if (!d.is_ok()) break;
            body = *d;
        }
        auto opcode = protocol::opcode_from_byte(f.header.opcode);
        EXPECT_TRUE(opcode.is_ok());
        if (!opcode.is_ok()) break;
        auto r =
            protocol::decode_response(f.header.protocol_version(), *opcode, f.header.flags, body);
        EXPECT_TRUE(r.is_ok()) << (r.is_ok() ? "" : r.status().message());
        if (!r.is_ok()) break;
        out.push_back({f.header, std::move(r).value()});
    }
    EXPECT_EQ(parser.buffered(), 0u);
    return out;
}

inline protocol::QueryRequest query_request(std::string cql,
                                            std::optional<int32_t> page_size = std::nullopt) {
    protocol::QueryRequest q;
    q.query = std::move(cql);
    q.params.page_size = page_size;
    return q;
}

inline protocol::StartupRequest startup_request(std::string compression = "") {
    protocol::StartupRequest s;
    s.options["CQL_VERSION"] = "3.0.0";
    s.options["DRIVER_NAME"] = "test";
    if (!compression.empty()) s.options["COMPRESSION"] = compression;
    return s;
}

}  // namespace tessel::testing
