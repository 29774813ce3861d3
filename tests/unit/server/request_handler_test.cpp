#include "server/request_handler.h"

#include <gtest/gtest.h>

#include "fake_database.h"
#include "frame_helpers.h"

namespace tessel::server {
namespace {

using testing::decode_frames;
using testing::DecodedFrame;
using testing::query_request;
using testing::startup_request;

class RequestHandlerTest : public ::testing::Test {
  protected:
    // Sends one request frame; returns the decoded answers.
    std::vector<DecodedFrame> send(const protocol::Request& r, int16_t stream = 1,
                                   uint8_t version = 4) {
        protocol::Frame f;
        std::string bytes = protocol::encode_request_frame(version, stream, r);
        f.header = protocol::decode_header(bytes);
        f.body = bytes.substr(protocol::kHeaderSize);
        return send_frame(f);
    }
    std::vector<DecodedFrame> send_frame(const protocol::Frame& f) {
        std::string out;
        last = handler.handle_frame(f, &out);
        return decode_frames(out, compression);
    }
    void start() {
        auto r = send(startup_request());
        ASSERT_EQ(r.size(), 1u);
        ASSERT_TRUE(std::holds_alternative<protocol::ReadyResponse>(r[0].response.response));
    }
    static const protocol::ErrorResponse& error_of(const DecodedFrame& f) {
        static protocol::ErrorResponse none;
        auto* e = std::get_if<protocol::ErrorResponse>(&f.response.response);
        EXPECT_NE(e, nullptr) << "not an ERROR";
        return e ? *e : none;
    }

    testing::FakeDatabase db;
    RequestHandler handler{db, 1 << 20};
    RequestHandler::Outcome last;
    protocol::Compression compression = protocol::Compression::kNone;
};

TEST_F(RequestHandlerTest, OptionsAnswersSupportedBeforeAndAfterStartup) {
    for (int i = 0; i < 2; ++i) {
        auto r = send(protocol::OptionsRequest{}, 7);
        ASSERT_EQ(r.size(), 1u);
        EXPECT_EQ(r[0].header.stream, 7);
        EXPECT_EQ(r[0].header.version, 0x84);
        auto* s = std::get_if<protocol::SupportedResponse>(&r[0].response.response);
        ASSERT_NE(s, nullptr);
        EXPECT_EQ(s->options.at("CQL_VERSION"), std::vector<std::string>{"3.4.4"});
        EXPECT_EQ(s->options.at("COMPRESSION"), (std::vector<std::string>{"lz4", "snappy"}));
        EXPECT_EQ(s->options.at("PROTOCOL_VERSIONS"), (std::vector<std::string>{"3/v3", "4/v4"}));
        if (i == 0) start();
    }
}

TEST_F(RequestHandlerTest, UnsupportedVersionGetsTheExactNegotiationErrorAndCloses) {
    protocol::Frame f;
    f.header.version = 0x42;
    f.header.stream = 3;
    f.header.opcode = 0x05;
    std::string out;
    last = handler.handle_frame(f, &out);
    EXPECT_TRUE(last.close);
    std::string msg =
        "Invalid or unsupported protocol version (66); supported versions are "
        "(3/v3, 4/v4)";
    std::string expected("\x84\x00\x00\x03\x00", 5);
    uint32_t len = static_cast<uint32_t>(4 + 2 + msg.size());
    expected += std::string{static_cast<char>(len >> 24), static_cast<char>(len >> 16),
                            static_cast<char>(len >> 8), static_cast<char>(len)};
    expected += std::string("\x00\x00\x00\x0a", 4);
    expected += std::string{0, static_cast<char>(msg.size())} + msg;
    EXPECT_EQ(out, expected);
}

TEST_F(RequestHandlerTest, RequestsBeforeStartupAreProtocolErrors) {
    auto r = send(query_request("VOID"), 9);
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].header.stream, 9);
    EXPECT_EQ(error_of(r[0]).code, ErrorCode::kProtocolError);
    EXPECT_NE(error_of(r[0]).message.find("expecting STARTUP or OPTIONS"), std::string::npos);
    EXPECT_FALSE(last.close);
}

TEST_F(RequestHandlerTest, StartupValidation) {
    protocol::StartupRequest missing;
    EXPECT_EQ(error_of(send(missing)[0]).code, ErrorCode::kProtocolError);
    protocol::StartupRequest bad = startup_request();
    bad.options["CQL_VERSION"] = "4.0.0";
    EXPECT_EQ(error_of(send(bad)[0]).code, ErrorCode::kProtocolError);
    EXPECT_EQ(error_of(send(startup_request("zstd"))[0]).code, ErrorCode::kProtocolError);
    start();
    auto again = send(startup_request());
    EXPECT_NE(error_of(again[0]).message.find("already started"), std::string::npos);
}

TEST_F(RequestHandlerTest, RowsArePagedWithFullMetadata) {
    start();
    protocol::QueryRequest q = query_request("ROWS 10", 4);
    std::vector<int> counts;
    for (;;) {
        auto r = send(q);
        ASSERT_EQ(r.size(), 1u);
        auto* rows = std::get_if<protocol::RowsResult>(&r[0].response.response);
        ASSERT_NE(rows, nullptr);
        ASSERT_EQ(rows->metadata.columns.size(), 2u);
        EXPECT_EQ(rows->metadata.columns[1].name, "v");
        EXPECT_EQ(rows->metadata.columns[1].type->kind, TypeKind::kVarchar);
        EXPECT_FALSE(rows->rows.at(0)[1].has_value());
        counts.push_back(static_cast<int>(rows->rows.size()));
        if (!rows->metadata.paging_state) break;
        q.params.paging_state = rows->metadata.paging_state;
    }
    EXPECT_EQ(counts, (std::vector<int>{4, 4, 2}));
}

TEST_F(RequestHandlerTest, ResultKinds) {
    start();
    EXPECT_TRUE(std::holds_alternative<protocol::VoidResult>(
        send(query_request("VOID"))[0].response.response));
    auto use = send(query_request("USE ks"));
    auto* ks = std::get_if<protocol::SetKeyspaceResult>(&use[0].response.response);
    ASSERT_NE(ks, nullptr);
    EXPECT_EQ(ks->keyspace, "ks");
    auto create = send(query_request("CREATE t1"));
    auto* sc = std::get_if<protocol::SchemaChangeResult>(&create[0].response.response);
    ASSERT_NE(sc, nullptr);
    EXPECT_EQ(sc->change.change_type, "CREATED");
    EXPECT_EQ(sc->change.target, "TABLE");
    EXPECT_EQ(sc->change.name, "t1");
    auto warn = send(query_request("WARN"));
    EXPECT_TRUE(warn[0].header.flags & protocol::kFlagWarning);
    EXPECT_EQ(warn[0].response.warnings, std::vector<std::string>{"careful"});
}

TEST_F(RequestHandlerTest, ErrorsCarryTheirCodesAndExtras) {
    start();
    auto exists = error_of(send(query_request("EXISTS"))[0]);
    EXPECT_EQ(exists.code, ErrorCode::kAlreadyExists);
    EXPECT_EQ(exists.keyspace, "ks");
    EXPECT_EQ(exists.table, "tbl");
    EXPECT_EQ(error_of(send(query_request("SYNTAX"))[0]).code, ErrorCode::kSyntaxError);
    EXPECT_EQ(error_of(send(query_request("nothing"))[0]).code, ErrorCode::kInvalid);
    auto thrown = error_of(send(query_request("THROW"))[0]);
    EXPECT_EQ(thrown.code, ErrorCode::kServerError);
    EXPECT_FALSE(last.close);
}

TEST_F(RequestHandlerTest, PrepareExecuteAndUnprepared) {
    start();
    auto r = send(protocol::PrepareRequest{"ROWS 3"});
    auto* p = std::get_if<protocol::PreparedResult>(&r[0].response.response);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->pk_indexes, std::vector<uint16_t>{0});
    EXPECT_EQ(p->bind_columns.size(), 2u);
    EXPECT_EQ(p->result_metadata.columns.size(), 1u);
    auto void_prep = send(protocol::PrepareRequest{"VOID"});
    auto* vp = std::get_if<protocol::PreparedResult>(&void_prep[0].response.response);
    ASSERT_NE(vp, nullptr);
    EXPECT_TRUE(vp->result_metadata.no_metadata);

    protocol::ExecuteRequest e{p->id, {}};
    auto rows = send(e);
    ASSERT_TRUE(std::holds_alternative<protocol::RowsResult>(rows[0].response.response));
    e.id = "nope";
    auto un = error_of(send(e)[0]);
    EXPECT_EQ(un.code, ErrorCode::kUnprepared);
    EXPECT_EQ(un.unprepared_id, "nope");
}

TEST_F(RequestHandlerTest, BoundValuesNamesAndUnset) {
    start();
    protocol::QueryRequest q = query_request("ECHO");
    q.params.values = {protocol::BoundValue::of("ab"), protocol::BoundValue::null(),
                       protocol::BoundValue::unset()};
    q.params.value_names = {"x", "y", "z"};
    auto r = send(q);
    auto* rows = std::get_if<protocol::RowsResult>(&r[0].response.response);
    ASSERT_NE(rows, nullptr);
    ASSERT_EQ(rows->metadata.columns.size(), 3u);
    EXPECT_EQ(rows->metadata.columns[0].name, "x");
    EXPECT_EQ(rows->metadata.columns[2].name, "z_unset");
    EXPECT_EQ(rows->rows[0][0], std::optional<std::string>("ab"));
    EXPECT_FALSE(rows->rows[0][1].has_value());
}

TEST_F(RequestHandlerTest, BatchMapsEntriesAndReportsUnprepared) {
    start();
    protocol::BatchRequest b;
    b.statements.push_back({false, "VOID 1", {}});
    EXPECT_TRUE(std::holds_alternative<protocol::VoidResult>(send(b)[0].response.response));
    b.statements.push_back({true, "unknown-id", {protocol::BoundValue::of("x")}});
    auto err = error_of(send(b)[0]);
    EXPECT_EQ(err.code, ErrorCode::kUnprepared);
    EXPECT_EQ(err.unprepared_id, "unknown-id");
}

TEST_F(RequestHandlerTest, RegisterValidatesEventTypes) {
    start();
    auto ok =
        send(protocol::RegisterRequest{{"TOPOLOGY_CHANGE", "STATUS_CHANGE", "SCHEMA_CHANGE"}});
    EXPECT_TRUE(std::holds_alternative<protocol::ReadyResponse>(ok[0].response.response));
    EXPECT_TRUE(last.registered_events);
    EXPECT_TRUE(handler.registered_for_schema_events());
    auto bad = send(protocol::RegisterRequest{{"NOPE"}});
    EXPECT_EQ(error_of(bad[0]).code, ErrorCode::kProtocolError);
    auto ev = decode_frames(handler.encode_schema_event({"DROPPED", "KEYSPACE", "ks", "", {}}));
    ASSERT_EQ(ev.size(), 1u);
    EXPECT_EQ(ev[0].header.stream, -1);
    auto* e = std::get_if<protocol::SchemaChangeEvent>(&ev[0].response.response);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->change.target, "KEYSPACE");
}

// Topology and status events go only to connections registered for them,
// with the node's client address and port.
TEST_F(RequestHandlerTest, ClusterEventsFollowTheRegisteredTypes) {
    start();
    const ClusterEvent down{ClusterEvent::Kind::kDown, "127.0.0.2", 9042};
    const ClusterEvent joined{ClusterEvent::Kind::kNewNode, "127.0.0.3", 9043};
    EXPECT_TRUE(handler.encode_cluster_event(down).empty());  // not registered yet
    send(protocol::RegisterRequest{{"STATUS_CHANGE"}});
    EXPECT_TRUE(handler.encode_cluster_event(joined).empty());
    auto ev = decode_frames(handler.encode_cluster_event(down));
    ASSERT_EQ(ev.size(), 1u);
    auto* status = std::get_if<protocol::StatusChangeEvent>(&ev[0].response.response);
    ASSERT_NE(status, nullptr);
    EXPECT_EQ(status->change, "DOWN");
    EXPECT_EQ(status->node.address, std::string("\x7f\x00\x00\x02", 4));
    EXPECT_EQ(status->node.port, 9042);
    send(protocol::RegisterRequest{{"TOPOLOGY_CHANGE"}});
    EXPECT_TRUE(last.registered_events);
    ev = decode_frames(handler.encode_cluster_event(joined));
    ASSERT_EQ(ev.size(), 1u);
    auto* topo = std::get_if<protocol::TopologyChangeEvent>(&ev[0].response.response);
    ASSERT_NE(topo, nullptr);
    EXPECT_EQ(topo->change, "NEW_NODE");
    EXPECT_EQ(topo->node.port, 9043);
}

TEST_F(RequestHandlerTest, MalformedBodiesAndOpcodesKeepTheConnection) {
    start();
    protocol::Frame f;
    f.header.version = 4;
    f.header.stream = 5;
    f.header.opcode = 0x07;  // QUERY
    f.body = std::string("\x00\x00\x00\x10short", 9);
    auto r = send_frame(f);
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].header.stream, 5);
    EXPECT_EQ(error_of(r[0]).code, ErrorCode::kProtocolError);
    EXPECT_FALSE(last.close);
    f.header.opcode = 0x04;  // CREDENTIALS: not a message in v3/v4
    f.body.clear();
    EXPECT_EQ(error_of(send_frame(f)[0]).code, ErrorCode::kProtocolError);
    f.header.opcode = 0x08;  // RESULT: a response opcode
    EXPECT_EQ(error_of(send_frame(f)[0]).code, ErrorCode::kProtocolError);
    f.header.opcode = 0x07;
    f.header.flags = protocol::kFlagCompression;  // not negotiated
    f.body = "xx";
    EXPECT_EQ(error_of(send_frame(f)[0]).code, ErrorCode::kProtocolError);
    EXPECT_FALSE(last.close);
    // A frame of another supported version on a v4 connection is refused.
    auto v3 = send(query_request("VOID"), 1, 3);
    EXPECT_TRUE(last.close);
    EXPECT_EQ(error_of(v3[0]).code, ErrorCode::kProtocolError);
}

TEST_F(RequestHandlerTest, ParseErrorAnswersOnTheFrameStreamAndSkipsTheFrame) {
    protocol::FrameHeader h;
    h.version = 4;
    h.stream = 12;
    h.length = 1u << 30;
    std::string out;
    last = handler.handle_parse_error(Status::protocol("Request is too big"), h, &out);
    EXPECT_FALSE(last.close);  // the parser skips the body; the connection goes on
    auto r = decode_frames(out);
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].header.stream, 12);
    EXPECT_EQ(error_of(r[0]).code, ErrorCode::kProtocolError);
}

class CompressedHandlerTest : public RequestHandlerTest,
                              public ::testing::WithParamInterface<const char*> {};

TEST_P(CompressedHandlerTest, NegotiatedCompressionAppliesBothWays) {
    compression = *protocol::compression_from_name(GetParam());
    auto ready = send(startup_request(GetParam()));
    ASSERT_EQ(ready.size(), 1u);
    EXPECT_TRUE(ready[0].header.flags & protocol::kFlagCompression);
    // A compressed request.
    std::string plain = protocol::encode_request_frame(4, 2, query_request("ROWS 50"));
    auto body = protocol::compress_body(compression, plain.substr(protocol::kHeaderSize));
    ASSERT_TRUE(body.is_ok());
    protocol::Frame f;
    f.header = protocol::decode_header(plain);
    f.header.flags |= protocol::kFlagCompression;
    f.body = *body;
    auto r = send_frame(f);
    ASSERT_EQ(r.size(), 1u);
    EXPECT_TRUE(r[0].header.flags & protocol::kFlagCompression);
    auto* rows = std::get_if<protocol::RowsResult>(&r[0].response.response);
    ASSERT_NE(rows, nullptr);
    EXPECT_EQ(rows->rows.size(), 50u);
    // Uncompressed requests stay legal.
    EXPECT_TRUE(std::holds_alternative<protocol::VoidResult>(
        send(query_request("VOID"))[0].response.response));
}

INSTANTIATE_TEST_SUITE_P(Algorithms, CompressedHandlerTest, ::testing::Values("lz4", "snappy"));

}  // namespace
}  // namespace tessel::server

namespace tessel::server {
namespace {

TEST(RequestHandlerV3Test, Version3ConnectionsAreAnsweredInVersion3) {
    testing::FakeDatabase db;
    RequestHandler handler(db, 1 << 20);
    auto send = [&](const protocol::Request& r) {
        std::string bytes = protocol::encode_request_frame(3, 1, r);
        protocol::Frame f;
        f.header = protocol::decode_header(bytes);
        f.body = bytes.substr(protocol::kHeaderSize);
        std::string out;
        handler.handle_frame(f, &out);
        return testing::decode_frames(out);
    };
    auto ready = send(testing::startup_request());
    ASSERT_EQ(ready.size(), 1u);
    EXPECT_EQ(ready[0].header.version, 0x83);
    auto rows = send(testing::query_request("ROWS 2"));
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].header.version, 0x83);
    EXPECT_TRUE(std::holds_alternative<protocol::RowsResult>(rows[0].response.response));
    // No warnings flag before v4.
    auto warn = send(testing::query_request("WARN"));
    EXPECT_FALSE(warn[0].header.flags & protocol::kFlagWarning);
}

TEST(RequestHandlerEventTest, EventsUseTheNegotiatedCompression) {
    testing::FakeDatabase db;
    RequestHandler handler(db, 1 << 20);
    std::string bytes = protocol::encode_request_frame(4, 1, testing::startup_request("lz4"));
    protocol::Frame f;
    f.header = protocol::decode_header(bytes);
    f.body = bytes.substr(protocol::kHeaderSize);
    std::string out;
    handler.handle_frame(f, &out);
    auto ev =
        testing::decode_frames(handler.encode_schema_event({"CREATED", "TABLE", "ks", "t", {}}),
                               protocol::Compression::kLz4);
    ASSERT_EQ(ev.size(), 1u);
    EXPECT_TRUE(ev[0].header.flags & protocol::kFlagCompression);
    EXPECT_EQ(ev[0].header.stream, -1);
    EXPECT_EQ(ev[0].header.opcode, 0x0C);
}

}  // namespace
}  // namespace tessel::server
