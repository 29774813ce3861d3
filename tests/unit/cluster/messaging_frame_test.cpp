#include "cluster/messaging_frame.h"

#include <gtest/gtest.h>

namespace tessel::cluster {
namespace {

Handshake sample() {
    Handshake h;
    h.cluster_name = "prod";
    h.host_id = std::string(16, '\x42');
    h.address = "127.0.0.3";
    h.port = 7001;
    return h;
}

TEST(MessagingFrame, HandshakeRoundTripsAndNeedsAllItsBytes) {
    Handshake h = sample();
    h.refused = true;
    h.reason = "because";
    const std::string bytes = encode_handshake(h) + "tail";
    for (size_t n = 0; n < bytes.size() - 4; ++n) {
        auto partial = decode_handshake(std::string_view(bytes).substr(0, n));
        ASSERT_TRUE(partial.is_ok()) << n;
        EXPECT_FALSE(partial->has_value()) << n;
    }
    auto d = decode_handshake(bytes);
    ASSERT_TRUE(d.is_ok() && d->has_value());
    EXPECT_EQ((*d)->size, bytes.size() - 4);
    const Handshake& g = (*d)->handshake;
    EXPECT_EQ(g.min_version, kMinMessagingVersion);
    EXPECT_EQ(g.max_version, kMessagingVersion);
    EXPECT_TRUE(g.refused);
    EXPECT_EQ(g.cluster_name, "prod");
    EXPECT_EQ(g.host_id, h.host_id);
    EXPECT_EQ(g.address, "127.0.0.3");
    EXPECT_EQ(g.port, 7001);
    EXPECT_EQ(g.reason, "because");
}

TEST(MessagingFrame, HandshakeRefusesStrangersFromTheirFirstBytes) {
    EXPECT_FALSE(decode_handshake("G").is_ok());
    EXPECT_FALSE(decode_handshake("\x16\x03\x01").is_ok());  // a TLS ClientHello
    EXPECT_FALSE(decode_handshake(std::string("\x04\x00\x00\x01", 4)).is_ok());  // CQL
    EXPECT_TRUE(decode_handshake("TS").is_ok());
}

TEST(MessagingFrame, HandshakeWithBadFieldsIsRefused) {
    const std::string good = encode_handshake(sample());
    // A body length over the bound.
    std::string big = good;
    big[4] = 0x7f;
    EXPECT_FALSE(decode_handshake(big).is_ok());
    // A body too short for its fields.
    std::string cut = good;
    cut[5] = 3;
    EXPECT_FALSE(decode_handshake(cut.substr(0, 9)).is_ok());
    // An empty version range, and an unknown status.
    std::string versions = good;
    versions[6] = 0;
    versions[7] = 5;  // min 5 > max 1
    EXPECT_FALSE(decode_handshake(versions).is_ok());
    std::string status = good;
    status[10] = 7;
    EXPECT_FALSE(decode_handshake(status).is_ok());
}

TEST(MessagingFrame, LaterVersionsMayAppendFields) {
    std::string bytes = encode_handshake(sample());
    bytes += "future";
    bytes[5] = static_cast<char>(bytes[5] + 6);  // the body length (< 256 here)
    auto d = decode_handshake(bytes);
    ASSERT_TRUE(d.is_ok() && d->has_value());
    EXPECT_EQ((*d)->size, bytes.size());
    EXPECT_EQ((*d)->handshake.cluster_name, "prod");
}

TEST(MessagingFrame, FramesRoundTripAndWaitForTheirPayload) {
    FrameHeader h{513, FrameKind::kError, 0x0102030405060708ULL, 5};
    const std::string bytes =
        encode_frame(h, "abcde") + encode_frame({1, FrameKind::kPing, 9, 0}, "");
    ASSERT_EQ(bytes.size(), 2 * kFrameHeaderSize + 5);
    for (size_t n = 0; n < kFrameHeaderSize + 5; ++n) {
        auto partial = decode_frame(std::string_view(bytes).substr(0, n), 100);
        ASSERT_TRUE(partial.is_ok()) << n;
        EXPECT_FALSE(partial->has_value()) << n;
    }
    auto d = decode_frame(bytes, 100);
    ASSERT_TRUE(d.is_ok() && d->has_value());
    EXPECT_EQ((*d)->header.verb, 513);
    EXPECT_EQ((*d)->header.kind, FrameKind::kError);
    EXPECT_EQ((*d)->header.id, 0x0102030405060708ULL);
    EXPECT_EQ((*d)->payload, "abcde");
    auto second = decode_frame(std::string_view(bytes).substr((*d)->size), 100);
    ASSERT_TRUE(second.is_ok() && second->has_value());
    EXPECT_EQ((*second)->header.kind, FrameKind::kPing);
    EXPECT_EQ((*second)->payload, "");
}

TEST(MessagingFrame, OversizedUnknownOrFlaggedFramesAreRefusedFromTheHeader) {
    std::string header(kFrameHeaderSize, '\0');
    encode_frame_header({1, FrameKind::kRequest, 1, 101}, header.data());
    auto too_big = decode_frame(header, 100);
    ASSERT_FALSE(too_big.is_ok());
    EXPECT_NE(too_big.status().message().find("exceeds the maximum of 100"), std::string::npos);
    EXPECT_TRUE(decode_frame(header, 101).is_ok());
    std::string kind = header;
    kind[2] = 0;
    EXPECT_FALSE(decode_frame(kind, 1000).is_ok());
    kind[2] = 7;
    EXPECT_FALSE(decode_frame(kind, 1000).is_ok());
    std::string flags = header;
    flags[3] = 1;
    EXPECT_FALSE(decode_frame(flags, 1000).is_ok());
}

TEST(MessagingFrame, ErrorPayloadKeepsCodeMessageAndDetails) {
    Status st(ErrorCode::kWriteTimeout, "slow replica");
    st.detail1 = "one";
    st.detail2 = std::string("t\0o", 3);
    auto back = decode_error_payload(encode_error_payload(st));
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(back->code(), ErrorCode::kWriteTimeout);
    EXPECT_EQ(back->message(), "slow replica");
    EXPECT_EQ(back->detail1, "one");
    EXPECT_EQ(back->detail2, st.detail2);
    const std::string bytes = encode_error_payload(st);
    for (size_t n = 0; n < bytes.size(); ++n)
        EXPECT_FALSE(decode_error_payload(bytes.substr(0, n)).has_value()) << n;
}

}  // namespace
}  // namespace tessel::cluster
