#include "protocol/frame.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "protocol/wire.h"

namespace tessel::protocol {
namespace {

using namespace std::string_literals;

TEST(FrameTest, EncodeAndDecodeHeader) {
    const std::string frame = encode_frame(0x84, kFlagWarning, -1, Opcode::kEvent, "body");
    EXPECT_EQ(frame,
              "\x84\x08\xFF\xFF\x0C\x00\x00\x00\x04"
              "body"s);
    const FrameHeader h = decode_header(frame);
    EXPECT_EQ(h.version, 0x84);
    EXPECT_EQ(h.protocol_version(), 4);
    EXPECT_TRUE(h.is_response());
    EXPECT_EQ(h.flags, kFlagWarning);
    EXPECT_EQ(h.stream, -1);
    EXPECT_EQ(h.opcode, 0x0C);
    EXPECT_EQ(h.length, 4u);

    const FrameHeader big{0x04, 0, 32767, 0x07, 0xFEDCBA98};
    std::string out;
    append_header(big, &out);
    ASSERT_EQ(out.size(), kHeaderSize);
    const FrameHeader back = decode_header(out);
    EXPECT_EQ(back.stream, 32767);
    EXPECT_EQ(back.length, 0xFEDCBA98u);
}

TEST(FrameTest, Opcodes) {
    EXPECT_EQ(*opcode_from_byte(0x07), Opcode::kQuery);
    EXPECT_EQ(*opcode_from_byte(0x10), Opcode::kAuthSuccess);
    auto credentials = opcode_from_byte(0x04);
    ASSERT_FALSE(credentials.is_ok());
    EXPECT_EQ(credentials.status().message(), "Unknown opcode 4");
    EXPECT_FALSE(opcode_from_byte(0x11).is_ok());
    EXPECT_EQ(opcode_name(Opcode::kAuthResponse), "AUTH_RESPONSE");
}

TEST(FrameTest, VersionCheck) {
    EXPECT_TRUE(check_request_version(FrameHeader{0x04}).is_ok());
    EXPECT_TRUE(check_request_version(FrameHeader{0x03}).is_ok());
    for (uint8_t v : {0x42, 0x41, 0x05, 0x06, 0x02, 0x01, 0x00}) {
        Status st = check_request_version(FrameHeader{v});
        ASSERT_FALSE(st.is_ok());
        EXPECT_EQ(st.code(), ErrorCode::kProtocolError);
        EXPECT_EQ(st.message(), "Invalid or unsupported protocol version (" + std::to_string(v) +
                                    "); supported versions are (3/v3, 4/v4)");
    }
    Status dir = check_request_version(FrameHeader{0x84});
    ASSERT_FALSE(dir.is_ok());
    EXPECT_EQ(dir.message(), "Wrong protocol direction (expected REQUEST, got RESPONSE)");
    EXPECT_EQ(response_version_for(FrameHeader{0x03}), 0x83);
    EXPECT_EQ(response_version_for(FrameHeader{0x04}), 0x84);
    EXPECT_EQ(response_version_for(FrameHeader{0x42}), 0x84);
    EXPECT_EQ(response_version_for(FrameHeader{0x05}), 0x84);
}

// The exact bytes drivers negotiate down from (reference §1.4): an OPTIONS
// frame at DSE_V2 (0x42) on stream 5.
TEST(FrameTest, VersionNegotiationErrorBytes) {
    const std::string request = encode_frame(0x42, 0, 5, Opcode::kOptions, "");
    const FrameHeader h = decode_header(request);
    const std::string reply = encode_early_error_frame(h, check_request_version(h));
    const std::string message =
        "Invalid or unsupported protocol version (66); supported versions are (3/v3, 4/v4)";
    std::string body = "\x00\x00\x00\x0A"s;
    body += static_cast<char>(0);
    body += static_cast<char>(message.size());
    body += message;
    std::string expected = "\x84\x00\x00\x05\x00"s;
    expected += static_cast<char>(0);
    expected += static_cast<char>(0);
    expected += static_cast<char>(0);
    expected += static_cast<char>(body.size());
    expected += body;
    EXPECT_EQ(reply, expected);
}

std::vector<std::string> sample_frames() {
    return {
        encode_frame(0x04, 0, 0, Opcode::kOptions, ""),
        encode_frame(0x04, 0, 1, Opcode::kQuery, std::string(1000, 'q')),
        encode_frame(0x04, kFlagTracing, -7, Opcode::kPrepare, "x"),
        encode_frame(0x03, 0, 300, Opcode::kStartup, std::string(70000, '\x01')),
        encode_frame(0x04, 0, 32767, Opcode::kRegister, "abc"),
    };
}

void expect_frames(FrameParser& parser, const std::vector<std::string>& frames, size_t* next) {
    while (true) {
        auto f = parser.next();
        ASSERT_TRUE(f.is_ok()) << f.status().message();
        if (!f->has_value()) return;
        ASSERT_LT(*next, frames.size());
        const std::string& want = frames[*next];
        EXPECT_EQ((*f)->header.stream, decode_header(want).stream);
        EXPECT_EQ((*f)->header.opcode, decode_header(want).opcode);
        EXPECT_EQ((*f)->body, want.substr(kHeaderSize));
        ++*next;
    }
}

TEST(FrameParserTest, WholeFramesAtOnce) {
    const auto frames = sample_frames();
    std::string all;
    for (const auto& f : frames)
        all += f;
    FrameParser parser;
    parser.append(all);
    size_t next = 0;
    expect_frames(parser, frames, &next);
    EXPECT_EQ(next, frames.size());
    EXPECT_EQ(parser.buffered(), 0u);
}

TEST(FrameParserTest, ArbitraryChunkBoundaries) {
    const auto frames = sample_frames();
    std::string all;
    for (const auto& f : frames)
        all += f;
    std::mt19937 rng(7);
    for (int round = 0; round < 200; ++round) {
        FrameParser parser;
        size_t next = 0;
        size_t pos = 0;
        const size_t max_chunk = round < 20 ? 1 + round : 1 + rng() % 5000;
        while (pos < all.size()) {
            const size_t n = std::min(all.size() - pos, 1 + rng() % max_chunk);
            parser.append(std::string_view(all).substr(pos, n));
            pos += n;
            expect_frames(parser, frames, &next);
        }
        EXPECT_EQ(next, frames.size()) << round;
        EXPECT_EQ(parser.buffered(), 0u);
    }
}

TEST(FrameParserTest, TruncatedFrameWaitsForMore) {
    const std::string frame = encode_frame(0x04, 0, 9, Opcode::kQuery, "hello");
    FrameParser parser;
    for (size_t i = 0; i + 1 < frame.size(); ++i) {
        parser.append(frame.substr(i, 1));
        auto f = parser.next();
        ASSERT_TRUE(f.is_ok());
        EXPECT_FALSE(f->has_value()) << i;
    }
    parser.append(frame.substr(frame.size() - 1));
    auto f = parser.next();
    ASSERT_TRUE(f.is_ok() && f->has_value());
    EXPECT_EQ((*f)->body, "hello");
}

TEST(FrameParserTest, OversizedFrameIsAnErrorAndIsSkipped) {
    FrameParser parser(100);
    const std::string big = encode_frame(0x04, 0, 12, Opcode::kQuery, std::string(101, 'x'));
    const std::string ok = encode_frame(0x04, 0, 13, Opcode::kOptions, "");
    // The oversized body arrives in pieces, some before the error is seen.
    parser.append(big.substr(0, 50));
    auto err = parser.next();
    ASSERT_FALSE(err.is_ok());
    EXPECT_EQ(err.status().code(), ErrorCode::kProtocolError);
    EXPECT_EQ(err.status().message(),
              "Request is too big: length 101 exceeds maximum allowed length 100.");
    ASSERT_TRUE(parser.failed_header().has_value());
    EXPECT_EQ(parser.failed_header()->stream, 12);
    parser.append(big.substr(50) + ok);
    auto f = parser.next();
    ASSERT_TRUE(f.is_ok() && f->has_value());
    EXPECT_EQ((*f)->header.stream, 13);

    // The reply the caller sends for it.
    const std::string reply = encode_early_error_frame(*parser.failed_header(), err.status());
    const FrameHeader rh = decode_header(reply);
    EXPECT_EQ(rh.version, 0x84);
    EXPECT_EQ(rh.stream, 12);
    EXPECT_EQ(rh.opcode, 0x00);
}

TEST(FrameParserTest, LyingLengthDoesNotAllocate) {
    FrameParser parser;  // 256 MB default
    const std::string header = "\x04\x00\x00\x01\x07\xFF\xFF\xFF\xFF"s;
    parser.append(header);
    auto err = parser.next();
    ASSERT_FALSE(err.is_ok());
    EXPECT_EQ(parser.buffered(), 0u);
    // Just under the limit: the parser waits, holding only what arrived.
    FrameParser waiting;
    waiting.append(
        "\x04\x00\x00\x01\x07\x0F\xFF\xFF\xFF"
        "abc"s);
    auto f = waiting.next();
    ASSERT_TRUE(f.is_ok());
    EXPECT_FALSE(f->has_value());
    EXPECT_EQ(waiting.buffered(), 12u);
}

TEST(FrameParserTest, OversizedFrameWithBadVersionReportsTheVersion) {
    FrameParser parser(10);
    parser.append(encode_frame(0x42, 0, 3, Opcode::kStartup, std::string(20, 'x')));
    auto err = parser.next();
    ASSERT_FALSE(err.is_ok());
    EXPECT_EQ(err.status().message(),
              "Invalid or unsupported protocol version (66); supported versions are (3/v3, 4/v4)");
}

TEST(FrameParserTest, GarbageNeverCrashes) {
    std::mt19937 rng(1234);
    for (int i = 0; i < 2000; ++i) {
        FrameParser parser(1 << 16);
        std::string junk(rng() % 300, '\0');
        for (auto& c : junk)
            c = static_cast<char>(rng());
        parser.append(junk);
        for (int k = 0; k < 50; ++k) {
            auto f = parser.next();
            if (f.is_ok() && !f->has_value()) break;
        }
        EXPECT_LE(parser.buffered(), junk.size());
    }
}

}  // namespace
}  // namespace tessel::protocol
