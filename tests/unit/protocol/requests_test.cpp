#include "protocol/requests.h"

#include <gtest/gtest.h>

#include <string>

namespace tessel::protocol {
namespace {

using namespace std::string_literals;

template <typename T>
T round_trip(const T& message, uint8_t version = 4) {
    const Request request(message);
    const std::string body = encode_request_body(version, request);
    auto decoded = decode_request(version, request_opcode(request), 0, body);
    EXPECT_TRUE(decoded.is_ok()) << decoded.status().message();
    if (!decoded.is_ok()) return T{};
    const T* typed = std::get_if<T>(&*decoded);
    EXPECT_NE(typed, nullptr);
    return typed ? *typed : T{};
}

// Flags are derived when encoding, so decoded.flags is what the encoder chose.
QueryParameters with_flags(QueryParameters p, uint8_t flags) {
    p.flags = flags;
    return p;
}

TEST(RequestsTest, StartupOptionsRegisterAuth) {
    const StartupRequest startup{{{"CQL_VERSION", "3.4.4"}, {"DRIVER_NAME", "py"}}};
    EXPECT_EQ(round_trip(startup), startup);
    EXPECT_EQ(round_trip(OptionsRequest{}), OptionsRequest{});
    EXPECT_EQ(encode_request_body(4, OptionsRequest{}), "");
    const RegisterRequest reg{{"TOPOLOGY_CHANGE", "STATUS_CHANGE", "SCHEMA_CHANGE"}};
    EXPECT_EQ(round_trip(reg), reg);
    const AuthResponseRequest auth{"\0cassandra\0cassandra"s};
    EXPECT_EQ(round_trip(auth), auth);
    EXPECT_EQ(encode_request_body(4, auth),
              "\x00\x00\x00\x14\x00"
              "cassandra\x00"
              "cassandra"s);
    EXPECT_EQ(round_trip(AuthResponseRequest{}), AuthResponseRequest{});
}

TEST(RequestsTest, SimpleQueryLayout) {
    QueryRequest q;
    q.query = "SELECT * FROM system.local WHERE key='local'";
    q.params.consistency = static_cast<uint16_t>(Consistency::kOne);
    const std::string body = encode_request_body(4, q);
    std::string expected = "\x00\x00\x00"s;
    expected += static_cast<char>(q.query.size());
    expected += q.query;
    expected += "\x00\x01\x00"s;  // ONE, flags 0
    EXPECT_EQ(body, expected);
    EXPECT_EQ(round_trip(q), q);
}

TEST(RequestsTest, QueryWithEveryParameter) {
    QueryRequest q;
    q.query = "INSERT INTO t (k, v) VALUES (?, ?)";
    q.params.consistency = static_cast<uint16_t>(Consistency::kLocalQuorum);
    q.params.values = {BoundValue::of("\x00\x00\x00\x01"s), BoundValue::null(), BoundValue::unset(),
                       BoundValue::of("")};
    q.params.skip_metadata = true;
    q.params.page_size = 5000;
    q.params.paging_state = "\x01\x02state"s;
    q.params.serial_consistency = static_cast<uint16_t>(Consistency::kLocalSerial);
    q.params.default_timestamp = 1700000000000000LL;
    const QueryRequest back = round_trip(q);
    EXPECT_EQ(back.params.flags, 0x3F);
    EXPECT_EQ(back, (QueryRequest{q.query, with_flags(q.params, 0x3F)}));
}

TEST(RequestsTest, NamedValues) {
    QueryRequest q;
    q.query = "SELECT * FROM t WHERE k = :k";
    q.params.values = {BoundValue::of("a"), BoundValue::of("b")};
    q.params.value_names = {"k", "v"};
    q.params.page_size = 100;
    const QueryRequest back = round_trip(q);
    EXPECT_EQ(back.params.flags, kQueryFlagValues | kQueryFlagNamesForValues | kQueryFlagPageSize);
    EXPECT_EQ(back.params.value_names, q.params.value_names);
    EXPECT_EQ(back.params.values, q.params.values);
}

// A QUERY as the Node.js driver sends it: flags 0x25, LOCAL_ONE.
TEST(RequestsTest, DecodesDriverQueryBytes) {
    std::string body = "\x00\x00\x00\x0DSELECT ? FROM"s;
    body += "\x00\x0A\x25"s;  // LOCAL_ONE, values|page size|timestamp
    body += "\x00\x01\x00\x00\x00\x08"s + std::string(8, '\x01');  // 1 double
    body += "\x00\x00\x13\x88"s;                                   // page size 5000
    body += "\x00\x05\xF3\x1C\x3A\x5E\xA0\x00"s;                   // timestamp
    auto r = decode_request(4, Opcode::kQuery, 0, body);
    ASSERT_TRUE(r.is_ok()) << r.status().message();
    const auto& q = std::get<QueryRequest>(*r);
    EXPECT_EQ(q.query, "SELECT ? FROM");
    EXPECT_EQ(q.params.consistency, 0x000A);
    EXPECT_EQ(q.params.values.size(), 1u);
    EXPECT_EQ(*q.params.page_size, 5000);
    EXPECT_EQ(*q.params.default_timestamp, 0x0005F31C3A5EA000LL);
    EXPECT_FALSE(q.params.paging_state.has_value());
}

TEST(RequestsTest, PrepareExecute) {
    EXPECT_EQ(round_trip(PrepareRequest{"SELECT * FROM t"}), PrepareRequest{"SELECT * FROM t"});
    ExecuteRequest e;
    e.id = std::string(16, '\xAB');
    e.params.values = {BoundValue::of("x"), BoundValue::unset()};
    e.params.skip_metadata = true;
    e.params.page_size = 10;
    const ExecuteRequest back = round_trip(e);
    EXPECT_EQ(back, (ExecuteRequest{e.id, with_flags(e.params, 0x07)}));
}

TEST(RequestsTest, UnsetIsSentAsNullInV3) {
    ExecuteRequest e;
    e.id = "id";
    e.params.values = {BoundValue::unset()};
    const ExecuteRequest back = round_trip(e, 3);
    ASSERT_EQ(back.params.values.size(), 1u);
    EXPECT_TRUE(back.params.values[0].is_null());
}

TEST(RequestsTest, Batch) {
    BatchRequest b;
    b.type = BatchType::kUnlogged;
    b.statements.push_back({false, "INSERT INTO t (k) VALUES (?)", {BoundValue::of("1")}});
    b.statements.push_back(
        {true, std::string(16, '\x07'), {BoundValue::null(), BoundValue::unset()}});
    b.statements.push_back({false, "DELETE FROM t WHERE k = 2", {}});
    b.consistency = static_cast<uint16_t>(Consistency::kQuorum);
    b.serial_consistency = static_cast<uint16_t>(Consistency::kSerial);
    b.default_timestamp = 42;
    BatchRequest back = round_trip(b);
    EXPECT_EQ(back.flags, kBatchFlagSerialConsistency | kBatchFlagDefaultTimestamp);
    back.flags = 0;
    EXPECT_EQ(back, b);
}

TEST(RequestsTest, BatchErrors) {
    BatchRequest b;
    b.statements.push_back({false, "q", {}});
    std::string body = encode_request_body(4, b);
    std::string bad_type = body;
    bad_type[0] = 3;
    auto r = decode_request(4, Opcode::kBatch, 0, bad_type);
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.status().message(), "Invalid BATCH message type 3");
    std::string bad_kind = body;
    bad_kind[3] = 2;
    r = decode_request(4, Opcode::kBatch, 0, bad_kind);
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.status().message(),
              "Invalid query kind in BATCH messages. Must be 0 or 1 but got 2");
    std::string names = body;
    names.back() = kBatchFlagNamesForValues;
    EXPECT_FALSE(decode_request(4, Opcode::kBatch, 0, names).is_ok());
}

TEST(RequestsTest, CustomPayloadIsSkippedInV4AndRejectedInV3) {
    WireWriter w;
    w.write_bytes_map({{"k", "v"s}});
    const std::string body = w.data() + encode_request_body(4, PrepareRequest{"SELECT 1"});
    auto r = decode_request(4, Opcode::kPrepare, kFlagCustomPayload | kFlagTracing, body);
    ASSERT_TRUE(r.is_ok()) << r.status().message();
    EXPECT_EQ(std::get<PrepareRequest>(*r).query, "SELECT 1");
    auto v3 = decode_request(3, Opcode::kPrepare, kFlagCustomPayload, body);
    ASSERT_FALSE(v3.is_ok());
    EXPECT_EQ(v3.status().code(), ErrorCode::kProtocolError);
}

TEST(RequestsTest, InvalidFieldsAreProtocolErrors) {
    // Unknown consistency.
    auto r = decode_request(4, Opcode::kQuery, 0, "\x00\x00\x00\x01q\x00\x42\x00"s);
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.status().message(), "Unknown code 66 for a consistency level");
    // Timestamp Long.MIN_VALUE.
    r = decode_request(4, Opcode::kQuery, 0,
                       "\x00\x00\x00\x01q\x00\x01\x20\x80\x00\x00\x00\x00\x00\x00\x00"s);
    ASSERT_FALSE(r.is_ok());
    // Not a request.
    r = decode_request(4, Opcode::kResult, 0, "");
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.status().code(), ErrorCode::kProtocolError);
    // A lying value count.
    r = decode_request(4, Opcode::kExecute, 0, "\x00\x01x\x00\x01\x01\xFF\xFF"s);
    ASSERT_FALSE(r.is_ok());
}

TEST(RequestsTest, EveryTruncationFails) {
    QueryRequest q;
    q.query = "SELECT";
    q.params.values = {BoundValue::of("abc"), BoundValue::null()};
    q.params.value_names = {"a", "b"};
    q.params.page_size = 1;
    q.params.paging_state = "ps";
    q.params.serial_consistency = 8;
    q.params.default_timestamp = 5;
    BatchRequest b;
    b.statements.push_back({true, "id", {BoundValue::of("v")}});
    b.default_timestamp = 1;
    const Request requests[] = {q, b, StartupRequest{{{"CQL_VERSION", "3.0.0"}}},
                                ExecuteRequest{"id", q.params}, RegisterRequest{{"SCHEMA_CHANGE"}}};
    for (const Request& request : requests) {
        const std::string body = encode_request_body(4, request);
        const Opcode op = request_opcode(request);
        ASSERT_TRUE(decode_request(4, op, 0, body).is_ok());
        for (size_t n = 0; n < body.size(); ++n) {
            auto r = decode_request(4, op, 0, body.substr(0, n));
            ASSERT_FALSE(r.is_ok()) << opcode_name(op) << " " << n;
            EXPECT_EQ(r.status().code(), ErrorCode::kProtocolError);
        }
    }
}

TEST(RequestsTest, RequestFrame) {
    const std::string frame = encode_request_frame(4, 17, OptionsRequest{}, kFlagTracing);
    EXPECT_EQ(frame, "\x04\x02\x00\x11\x05\x00\x00\x00\x00"s);
}

}  // namespace
}  // namespace tessel::protocol
