#include "protocol/responses.h"

#include <gtest/gtest.h>

#include <string>

#include "type_builders.h"

namespace tessel::protocol {
namespace {

using namespace std::string_literals;
using test_types::same_type;
using test_types::t;

DecodedResponse round_trip_full(const Response& response, uint8_t version = 4,
                                const std::vector<std::string>& warnings = {},
                                const std::optional<Uuid>& tracing = std::nullopt) {
    const std::string frame = encode_response_frame(version, 3, response, warnings, tracing);
    const FrameHeader h = decode_header(frame);
    EXPECT_EQ(h.version, 0x80 | version);
    EXPECT_EQ(h.length, frame.size() - kHeaderSize);
    auto op = opcode_from_byte(h.opcode);
    EXPECT_TRUE(op.is_ok());
    auto decoded =
        decode_response(version, *op, h.flags, std::string_view(frame).substr(kHeaderSize));
    EXPECT_TRUE(decoded.is_ok()) << decoded.status().message();
    return decoded.is_ok() ? std::move(decoded).value() : DecodedResponse{};
}

template <typename T>
T round_trip(const Response& response, uint8_t version = 4) {
    DecodedResponse d = round_trip_full(response, version);
    const T* typed = std::get_if<T>(&d.response);
    EXPECT_NE(typed, nullptr);
    return typed ? *typed : T{};
}

ColumnSpec col(std::string name, TypePtr type, std::string table = "t") {
    return ColumnSpec{"ks", std::move(table), std::move(name), std::move(type)};
}

void expect_same_columns(const std::vector<ColumnSpec>& a, const std::vector<ColumnSpec>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].keyspace, b[i].keyspace);
        EXPECT_EQ(a[i].table, b[i].table);
        EXPECT_EQ(a[i].name, b[i].name);
        EXPECT_TRUE(same_type(*a[i].type, *b[i].type)) << a[i].name;
    }
}

TEST(ResponsesTest, SimpleMessages) {
    EXPECT_EQ(encode_response_body(4, ReadyResponse{}), "");
    round_trip<ReadyResponse>(ReadyResponse{});
    EXPECT_EQ(round_trip<AuthenticateResponse>(
                  AuthenticateResponse{"org.apache.cassandra.auth.PasswordAuthenticator"})
                  .authenticator,
              "org.apache.cassandra.auth.PasswordAuthenticator");
    const StringMultimap options = {
        {"CQL_VERSION", {"3.4.4"}}, {"COMPRESSION", {}}, {"PROTOCOL_VERSIONS", {"3/v3", "4/v4"}}};
    EXPECT_EQ(round_trip<SupportedResponse>(SupportedResponse{options}).options, options);
    EXPECT_EQ(encode_response_body(4, AuthSuccessResponse{}), "\xFF\xFF\xFF\xFF"s);
    EXPECT_FALSE(round_trip<AuthSuccessResponse>(AuthSuccessResponse{}).token.has_value());
    EXPECT_EQ(*round_trip<AuthChallengeResponse>(AuthChallengeResponse{"tok"}).token, "tok");
}

TEST(ResponsesTest, ErrorsWithExtraFields) {
    ErrorResponse unavailable;
    unavailable.code = ErrorCode::kUnavailable;
    unavailable.message = "Cannot achieve consistency level QUORUM";
    unavailable.consistency = 4;
    unavailable.required = 2;
    unavailable.alive = 1;
    std::string expected = "\x00\x00\x10\x00\x00"s;
    expected += static_cast<char>(unavailable.message.size());
    expected += unavailable.message + "\x00\x04\x00\x00\x00\x02\x00\x00\x00\x01"s;
    EXPECT_EQ(encode_response_body(4, unavailable), expected);
    auto u = round_trip<ErrorResponse>(unavailable);
    EXPECT_EQ(u.required, 2);
    EXPECT_EQ(u.alive, 1);

    ErrorResponse wt;
    wt.code = ErrorCode::kWriteTimeout;
    wt.message = "timeout";
    wt.received = 1;
    wt.block_for = 2;
    wt.write_type = "BATCH_LOG";
    auto w = round_trip<ErrorResponse>(wt);
    EXPECT_EQ(w.write_type, "BATCH_LOG");
    EXPECT_EQ(w.block_for, 2);
    wt.write_type = "BOGUS";
    EXPECT_EQ(round_trip<ErrorResponse>(wt).write_type, "SIMPLE");

    ErrorResponse rt;
    rt.code = ErrorCode::kReadTimeout;
    rt.received = 3;
    rt.block_for = 3;
    rt.data_present = true;
    auto r = round_trip<ErrorResponse>(rt);
    EXPECT_TRUE(r.data_present);
    EXPECT_EQ(r.received, 3);

    ErrorResponse rf;
    rf.code = ErrorCode::kReadFailure;
    rf.num_failures = 2;
    rf.data_present = true;
    EXPECT_EQ(round_trip<ErrorResponse>(rf).num_failures, 2);
    ErrorResponse wf;
    wf.code = ErrorCode::kWriteFailure;
    wf.num_failures = 1;
    wf.write_type = "CAS";
    auto wfb = round_trip<ErrorResponse>(wf);
    EXPECT_EQ(wfb.num_failures, 1);
    EXPECT_EQ(wfb.write_type, "CAS");

    ErrorResponse ff;
    ff.code = ErrorCode::kFunctionFailure;
    ff.keyspace = "ks";
    ff.function = "f";
    ff.argument_types = {"int", "text"};
    auto ffb = round_trip<ErrorResponse>(ff);
    EXPECT_EQ(ffb.function, "f");
    EXPECT_EQ(ffb.argument_types, ff.argument_types);
}

TEST(ResponsesTest, ErrorTextIsAlwaysValidUtf8) {
    ErrorResponse e;
    e.code = ErrorCode::kAlreadyExists;
    e.message = "no viable alternative at character '\xD7'";
    e.keyspace = "ks\xFF";
    e.table = "tab\xD7\xA2";
    const auto back = round_trip<ErrorResponse>(e);
    EXPECT_EQ(back.message, "no viable alternative at character '\xEF\xBF\xBD'");
    EXPECT_EQ(back.keyspace, "ks\xEF\xBF\xBD");
    EXPECT_EQ(back.table, "tab\xD7\xA2");
}

TEST(ResponsesTest, ErrorsFromStatus) {
    Status exists(ErrorCode::kAlreadyExists,
                  "Cannot add already existing table \"t\" to keyspace \"ks\"");
    exists.detail1 = "ks";
    exists.detail2 = "t";
    auto e = round_trip<ErrorResponse>(ErrorResponse::from_status(exists));
    EXPECT_EQ(e.code, ErrorCode::kAlreadyExists);
    EXPECT_EQ(e.keyspace, "ks");
    EXPECT_EQ(e.table, "t");
    EXPECT_EQ(e.to_status().detail2, "t");

    Status unprepared(ErrorCode::kUnprepared, "Prepared query with ID 00 not found");
    unprepared.detail1 = std::string(16, '\0');
    auto u = round_trip<ErrorResponse>(ErrorResponse::from_status(unprepared));
    EXPECT_EQ(u.unprepared_id, std::string(16, '\0'));

    auto inv = round_trip<ErrorResponse>(
        ErrorResponse::from_status(Status::invalid("unconfigured table x")));
    EXPECT_EQ(inv.code, ErrorCode::kInvalid);
    EXPECT_EQ(inv.message, "unconfigured table x");
}

TEST(ResponsesTest, V3DowngradesFailureCodes) {
    ErrorResponse rf;
    rf.code = ErrorCode::kReadFailure;
    rf.received = 1;
    rf.num_failures = 9;
    rf.data_present = true;
    auto r = round_trip<ErrorResponse>(rf, 3);
    EXPECT_EQ(r.code, ErrorCode::kReadTimeout);
    EXPECT_EQ(r.received, 1);
    EXPECT_TRUE(r.data_present);
    ErrorResponse ff;
    ff.code = ErrorCode::kFunctionFailure;
    EXPECT_EQ(round_trip<ErrorResponse>(ff, 3).code, ErrorCode::kInvalid);
}

TEST(ResponsesTest, RowsWithGlobalSpec) {
    RowsResult rows;
    rows.metadata.columns = {col("key", t(TypeKind::kVarchar)),
                             col("tokens", t(TypeKind::kSet, false, {t(TypeKind::kVarchar)}))};
    rows.rows = {{"local"s,
                  "\x00\x00\x00\x01\x00\x00\x00\x01"
                  "0"s},
                 {std::nullopt, ""s}};
    const std::string body = encode_response_body(4, rows);
    // kind 2, flags Global_tables_spec, 2 columns, "ks", "t", ...
    EXPECT_EQ(body.substr(0, 20),
              "\x00\x00\x00\x02\x00\x00\x00\x01\x00\x00\x00\x02\x00\x02ks\x00\x01t\x00"s);
    auto back = round_trip<RowsResult>(rows);
    expect_same_columns(back.metadata.columns, rows.metadata.columns);
    EXPECT_EQ(back.rows, rows.rows);
    EXPECT_FALSE(back.metadata.paging_state.has_value());
    EXPECT_EQ(back.metadata.column_count, 2);
}

TEST(ResponsesTest, RowsPerColumnSpecAndPaging) {
    RowsResult rows;
    rows.metadata.columns = {col("a", t(TypeKind::kInt), "t1"),
                             col("b", t(TypeKind::kDuration), "t2")};
    rows.metadata.paging_state = "\x00\x01state"s;
    rows.rows = {{"\x00\x00\x00\x05"s, std::nullopt}};
    const std::string body = encode_response_body(4, rows);
    EXPECT_EQ(body.substr(4, 4), "\x00\x00\x00\x02"s);  // Has_more_pages only
    auto back = round_trip<RowsResult>(rows);
    expect_same_columns(back.metadata.columns, rows.metadata.columns);
    EXPECT_EQ(back.metadata.paging_state, rows.metadata.paging_state);
    EXPECT_EQ(back.rows, rows.rows);
}

TEST(ResponsesTest, RowsNoMetadata) {
    RowsResult rows;
    rows.metadata.no_metadata = true;
    rows.metadata.column_count = 3;
    rows.rows = {{"a"s, "b"s, std::nullopt}, {""s, std::nullopt, "c"s}};
    const std::string body = encode_response_body(4, rows);
    EXPECT_EQ(body.substr(4, 8), "\x00\x00\x00\x04\x00\x00\x00\x03"s);
    auto back = round_trip<RowsResult>(rows);
    EXPECT_TRUE(back.metadata.no_metadata);
    EXPECT_TRUE(back.metadata.columns.empty());
    EXPECT_EQ(back.metadata.column_count, 3);
    EXPECT_EQ(back.rows, rows.rows);
}

TEST(ResponsesTest, EmptyRowsKeepMetadata) {
    RowsResult rows;
    rows.metadata.columns = {col("keyspace_name", t(TypeKind::kVarchar))};
    auto back = round_trip<RowsResult>(rows);
    EXPECT_EQ(back.metadata.columns.size(), 1u);
    EXPECT_TRUE(back.rows.empty());
}

TEST(ResponsesTest, SetKeyspaceAndVoid) {
    EXPECT_EQ(encode_response_body(4, VoidResult{}), "\x00\x00\x00\x01"s);
    round_trip<VoidResult>(VoidResult{});
    EXPECT_EQ(encode_response_body(4, SetKeyspaceResult{"ks"}), "\x00\x00\x00\x03\x00\x02ks"s);
    EXPECT_EQ(round_trip<SetKeyspaceResult>(SetKeyspaceResult{"ks"}).keyspace, "ks");
}

PreparedResult sample_prepared() {
    PreparedResult p;
    p.id = std::string(16, '\x42');
    p.pk_indexes = {1, 0};
    p.bind_columns = {col("b", t(TypeKind::kVarchar)), col("a", t(TypeKind::kInt))};
    p.result_metadata.columns = {
        col("v", t(TypeKind::kMap, false, {t(TypeKind::kVarchar), t(TypeKind::kBlob)}))};
    return p;
}

TEST(ResponsesTest, PreparedV4HasPkIndexes) {
    const PreparedResult p = sample_prepared();
    const std::string body = encode_response_body(4, p);
    // kind, id, flags=global, 2 columns, pk_count 2, indexes 1, 0.
    std::string expected = "\x00\x00\x00\x04\x00\x10"s + p.id +
                           "\x00\x00\x00\x01\x00\x00\x00\x02\x00\x00\x00\x02\x00\x01\x00\x00"s;
    EXPECT_EQ(body.substr(0, expected.size()), expected);
    auto back = round_trip<PreparedResult>(p);
    EXPECT_EQ(back.id, p.id);
    EXPECT_EQ(back.pk_indexes, p.pk_indexes);
    expect_same_columns(back.bind_columns, p.bind_columns);
    expect_same_columns(back.result_metadata.columns, p.result_metadata.columns);
}

TEST(ResponsesTest, PreparedV3HasNoPkIndexes) {
    const PreparedResult p = sample_prepared();
    const std::string v3 = encode_response_body(3, p);
    const std::string v4 = encode_response_body(4, p);
    EXPECT_EQ(v3.size() + 8, v4.size());
    auto back = round_trip<PreparedResult>(p, 3);
    EXPECT_TRUE(back.pk_indexes.empty());
    expect_same_columns(back.bind_columns, p.bind_columns);
}

TEST(ResponsesTest, PreparedNonSelectHasNoResultMetadata) {
    PreparedResult p;
    p.id = "id";
    p.bind_columns = {col("k", t(TypeKind::kInt))};
    p.result_metadata.no_metadata = true;
    const std::string body = encode_response_body(4, p);
    EXPECT_EQ(body.substr(body.size() - 8), "\x00\x00\x00\x04\x00\x00\x00\x00"s);
    auto back = round_trip<PreparedResult>(p);
    EXPECT_TRUE(back.result_metadata.no_metadata);
    EXPECT_EQ(back.result_metadata.column_count, 0);
}

TEST(ResponsesTest, SchemaChanges) {
    const SchemaChange keyspace{"CREATED", "KEYSPACE", "ks", "", {}};
    EXPECT_EQ(encode_response_body(4, SchemaChangeResult{keyspace}),
              "\x00\x00\x00\x05\x00\x07"
              "CREATED\x00\x08"
              "KEYSPACE\x00\x02ks"s);
    EXPECT_EQ(round_trip<SchemaChangeResult>(SchemaChangeResult{keyspace}).change, keyspace);
    const SchemaChange table{"UPDATED", "TABLE", "ks", "t", {}};
    EXPECT_EQ(round_trip<SchemaChangeResult>(SchemaChangeResult{table}).change, table);
    const SchemaChange function{"DROPPED", "FUNCTION", "ks", "f", {"int", "text"}};
    EXPECT_EQ(round_trip<SchemaChangeResult>(SchemaChangeResult{function}).change, function);
    EXPECT_EQ(round_trip<SchemaChangeEvent>(SchemaChangeEvent{table}).change, table);
}

TEST(ResponsesTest, EventsUseStreamMinusOne) {
    const std::string frame =
        encode_response_frame(4, 55, SchemaChangeEvent{{"CREATED", "TYPE", "ks", "u", {}}});
    EXPECT_EQ(decode_header(frame).stream, -1);
    EXPECT_EQ(decode_header(frame).opcode, 0x0C);
    EXPECT_EQ(frame.substr(kHeaderSize, 15), "\x00\x0DSCHEMA_CHANGE"s);
    const Inet node{"\x0A\x00\x00\x02"s, 9042};
    auto topo = round_trip<TopologyChangeEvent>(TopologyChangeEvent{"NEW_NODE", node});
    EXPECT_EQ(topo.change, "NEW_NODE");
    EXPECT_EQ(topo.node, node);
    auto status = round_trip<StatusChangeEvent>(StatusChangeEvent{"DOWN", node});
    EXPECT_EQ(status.change, "DOWN");
}

TEST(ResponsesTest, WarningsAndTracingPrecedeBody) {
    Uuid id{};
    id[0] = 0xAA;
    id[15] = 0x55;
    const std::string frame = encode_response_frame(4, 1, VoidResult{}, {"Batch too large"}, id);
    const FrameHeader h = decode_header(frame);
    EXPECT_EQ(h.flags, kFlagTracing | kFlagWarning);
    EXPECT_EQ(frame.substr(kHeaderSize, 16),
              std::string(reinterpret_cast<const char*>(id.data()), 16));
    EXPECT_EQ(frame.substr(kHeaderSize + 16, 4), "\x00\x01\x00\x0F"s);
    DecodedResponse d = round_trip_full(VoidResult{}, 4, {"Batch too large"}, id);
    EXPECT_EQ(d.warnings, std::vector<std::string>{"Batch too large"});
    EXPECT_EQ(d.tracing_id, id);
    EXPECT_TRUE(std::holds_alternative<VoidResult>(d.response));
}

TEST(ResponsesTest, MalformedResponsesAreProtocolErrors) {
    const std::string bad[] = {
        "\x00\x00\x00\x09"s,                                  // unknown RESULT kind
        "\x00\x00\x00\x02\x00\x00\x00\x00\xFF\xFF\xFF\xFF"s,  // negative column count
        "\x00\x00\x00\x02\x00\x00\x00\x04\x00\x00\x00\x01\x7F\xFF\xFF\xFF"s,  // lying rows
        "\x00\x00\x00\x02\x00\x00\x00\x04\x00\x00\x00\x00\x7F\xFF\xFF\xFF"s,  // rows of nothing
        "\x00\x00\x00\x05\x00\x01X\x00\x01Y\x00\x01k"s,                       // unknown target
        "\x00\x00\x00\x04\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x7F\xFF\xFF\xFF"s,  // pk_count
    };
    for (const auto& body : bad) {
        auto r = decode_response(4, Opcode::kResult, 0, body);
        ASSERT_FALSE(r.is_ok());
        EXPECT_EQ(r.status().code(), ErrorCode::kProtocolError);
    }
    EXPECT_FALSE(decode_response(4, Opcode::kEvent, 0,
                                 "\x00\x03"
                                 "FOO"s)
                     .is_ok());
    EXPECT_FALSE(decode_response(4, Opcode::kQuery, 0, "").is_ok());
}

TEST(ResponsesTest, EveryTruncationFails) {
    ErrorResponse wf;
    wf.code = ErrorCode::kWriteFailure;
    wf.write_type = "SIMPLE";
    RowsResult rows;
    rows.metadata.columns = {col("a", t(TypeKind::kInt)), col("b", t(TypeKind::kVarchar), "u")};
    rows.metadata.paging_state = "p";
    rows.rows = {{"\x00\x00\x00\x01"s, "x"s}};
    const Response responses[] = {wf,
                                  rows,
                                  sample_prepared(),
                                  SchemaChangeResult{{"CREATED", "AGGREGATE", "k", "a", {"int"}}},
                                  StatusChangeEvent{"UP", {"\x01\x02\x03\x04"s, 1}},
                                  SupportedResponse{{{"K", {"v"}}}}};
    for (const Response& response : responses) {
        const std::string body = encode_response_body(4, response);
        const Opcode op = response_opcode(response);
        ASSERT_TRUE(decode_response(4, op, 0, body).is_ok());
        for (size_t n = 0; n < body.size(); ++n) {
            auto r = decode_response(4, op, 0, body.substr(0, n));
            ASSERT_FALSE(r.is_ok()) << opcode_name(op) << " " << n;
            EXPECT_EQ(r.status().code(), ErrorCode::kProtocolError);
        }
    }
}

}  // namespace
}  // namespace tessel::protocol
