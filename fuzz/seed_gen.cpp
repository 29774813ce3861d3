// Writes the generated seed corpora: real request and response frames,
// encoded values of every type in the value table, [option] type descriptors,
// compressed bodies and paging states. Usage: fuzz_seed_gen CORPUS_DIR
// (fuzz/corpus). CQL seeds are statements taken from tests/cql/*.cql instead.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cluster/messaging_frame.h"
#include "protocol/compression.h"
#include "protocol/frame.h"
#include "protocol/requests.h"
#include "protocol/responses.h"
#include "protocol/type_option.h"
#include "query/paging_state.h"
#include "types/value.h"
#include "value_types.h"

namespace {

namespace fs = std::filesystem;
using namespace tessel;
using namespace tessel::protocol;

fs::path g_root;
int g_errors = 0;

void put(const std::string& target, const std::string& name, const std::string& bytes) {
    fs::create_directories(g_root / target);
    std::ofstream out(g_root / target / name, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string be32(uint32_t v) {
    return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
            static_cast<char>(v)};
}

QueryParameters full_params() {
    QueryParameters p;
    p.consistency = static_cast<uint16_t>(Consistency::kLocalQuorum);
    p.values = {BoundValue::of(be32(42)), BoundValue::of("text value"), BoundValue::null(),
                BoundValue::unset()};
    p.page_size = 5000;
    p.paging_state = std::string("\x01\x00\x00\x00\x04page", 9);
    p.serial_consistency = static_cast<uint16_t>(Consistency::kLocalSerial);
    p.default_timestamp = 1700000000000000;
    p.skip_metadata = true;
    return p;
}

void frames() {
    const StartupRequest startup{{{"CQL_VERSION", "3.0.0"}, {"DRIVER_NAME", "DataStax"}}};
    const StartupRequest startup_lz4{{{"CQL_VERSION", "3.0.0"}, {"COMPRESSION", "lz4"}}};
    QueryRequest simple;
    simple.query = "SELECT * FROM system.local WHERE key='local'";
    QueryRequest with_values;
    with_values.query = "INSERT INTO ks.t (k, v, n, u) VALUES (?, ?, ?, ?)";
    with_values.params = full_params();
    QueryRequest named = with_values;
    named.params.values.resize(2);
    named.params.value_names = {"k", "v"};
    named.query = "SELECT * FROM ks.t WHERE k = :k AND v = :v";
    ExecuteRequest execute;
    execute.id =
        std::string("\x8f\x12\x00\x7e\x55\xaa\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a", 16);
    execute.params = full_params();
    PrepareRequest prepare{"SELECT v FROM ks.t WHERE k = ? AND c > ? LIMIT ?"};
    BatchRequest batch;
    batch.type = BatchType::kUnlogged;
    batch.statements = {{false,
                         "INSERT INTO ks.t (k, v) VALUES (?, ?)",
                         {BoundValue::of(be32(1)), BoundValue::of("a")}},
                        {true, execute.id, {BoundValue::of(be32(2)), BoundValue::null()}},
                        {false, "DELETE FROM ks.t WHERE k = 3", {}}};
    batch.consistency = static_cast<uint16_t>(Consistency::kQuorum);
    batch.serial_consistency = static_cast<uint16_t>(Consistency::kSerial);
    batch.default_timestamp = 1700000000000001;
    const RegisterRequest reg{{"TOPOLOGY_CHANGE", "STATUS_CHANGE", "SCHEMA_CHANGE"}};
    const AuthResponseRequest auth{std::string("\0cassandra\0cassandra", 20)};

    put("frame", "startup", encode_request_frame(4, 0, startup));
    put("frame", "options", encode_request_frame(4, 1, OptionsRequest{}));
    put("frame", "query_simple", encode_request_frame(4, 2, simple));
    put("frame", "query_values", encode_request_frame(4, 3, with_values));
    put("frame", "query_named_values", encode_request_frame(4, 4, named));
    put("frame", "query_v3", encode_request_frame(3, 5, simple));
    put("frame", "query_tracing", encode_request_frame(4, 6, simple, kFlagTracing));
    put("frame", "execute", encode_request_frame(4, 7, execute));
    put("frame", "execute_v3", encode_request_frame(3, 8, execute));
    put("frame", "prepare", encode_request_frame(4, 9, prepare));
    put("frame", "batch", encode_request_frame(4, 10, batch));
    put("frame", "register", encode_request_frame(4, 11, reg));
    put("frame", "auth_response", encode_request_frame(4, 12, auth));
    // A connection's opening, as a driver sends it: OPTIONS, STARTUP, then a query.
    put("frame", "session",
        encode_request_frame(4, 0, OptionsRequest{}) + encode_request_frame(4, 1, startup_lz4) +
            encode_request_frame(4, 2, with_values));
    // A v5 STARTUP (drivers probe with it) and a v4 QUERY with a custom payload.
    std::string v5 = encode_request_frame(4, 0, startup);
    v5[0] = 0x05;
    put("frame", "startup_v5", v5);
    {
        WireWriter w;
        w.write_bytes_map({{"key", std::string("value")}, {"null", std::nullopt}});
        std::string body = w.take() + encode_request_body(4, simple);
        put("frame", "query_custom_payload",
            encode_frame(4, kFlagCustomPayload, 13, Opcode::kQuery, body));
    }
    // Compressed bodies (flag 0x01).
    for (Compression c : {Compression::kLz4, Compression::kSnappy}) {
        auto body = compress_body(c, encode_request_body(4, with_values));
        put("frame", std::string("query_") + std::string(compression_name(c)),
            encode_frame(4, kFlagCompression, 14, Opcode::kQuery, *body));
    }
    // Responses, as the client decodes them.
    SupportedResponse supported;
    supported.options = {{"CQL_VERSION", {"3.4.5"}}, {"COMPRESSION", {"lz4", "snappy"}}};
    put("frame", "resp_supported", encode_response_frame(4, 1, supported));
    put("frame", "resp_ready", encode_response_frame(4, 0, ReadyResponse{}));
    ErrorResponse unavailable;
    unavailable.code = ErrorCode::kUnavailable;
    unavailable.message = "Cannot achieve consistency level QUORUM";
    unavailable.required = 2;
    unavailable.alive = 1;
    put("frame", "resp_error", encode_response_frame(4, 2, unavailable, {"a warning"}));
    RowsResult rows;
    const auto& types = tessel::fuzz::value_type_table();
    rows.metadata.columns = {{"ks", "t", "k", types[8]}, {"ks", "t", "m", types[22]}};
    rows.metadata.paging_state = std::string("state");
    rows.rows = {{be32(7), std::nullopt}, {be32(8), std::string()}};
    put("frame", "resp_rows", encode_response_frame(4, 3, rows));
    PreparedResult prepared;
    prepared.id = execute.id;
    prepared.pk_indexes = {0};
    prepared.bind_columns = {{"ks", "t", "k", types[8]}, {"ks", "t", "c", types[25]}};
    prepared.result_metadata.columns = {{"ks", "t", "v", types[11]}};
    put("frame", "resp_prepared", encode_response_frame(4, 4, prepared));
}

// A JSON text for `t`, in the forms value_from_json accepts; `n` varies it.
std::string sample_json(const CqlType& t, int n) {
    switch (t.kind) {
        case TypeKind::kAscii:
            return n ? "\"\"" : "\"ascii text\"";
        case TypeKind::kVarchar:
            return n ? "\"\\u00e9t\\u00e9 \\\"q\\\"\"" : "\"text\"";
        case TypeKind::kBlob:
            return n ? "\"0x\"" : "\"0xcafebabe\"";
        case TypeKind::kBoolean:
            return n ? "false" : "true";
        case TypeKind::kTinyint:
            return n ? "-128" : "7";
        case TypeKind::kSmallint:
            return n ? "-32768" : "300";
        case TypeKind::kInt:
            return n ? "-2147483648" : "42";
        case TypeKind::kBigint:
        case TypeKind::kCounter:
            return n ? "9223372036854775807" : "-5";
        case TypeKind::kVarint:
            return n ? "-123456789012345678901234567890" : "0";
        case TypeKind::kDecimal:
            return n ? "-1.50E+10" : "3.14159";
        case TypeKind::kFloat:
            return n ? "-0.0" : "1.5";
        case TypeKind::kDouble:
            return n ? "1e308" : "-2.25";
        case TypeKind::kTimestamp:
            return n ? "1700000000000" : "\"2024-03-04 05:06:07.123+0000\"";
        case TypeKind::kDate:
            return n ? "\"1970-01-01\"" : "\"2024-02-29\"";
        case TypeKind::kTime:
            return n ? "\"00:00:00\"" : "\"23:59:59.999999999\"";
        case TypeKind::kUuid:
            return "\"6ab09bec-e68e-48d9-a5f8-97e6fb4c9b47\"";
        case TypeKind::kTimeuuid:
            return "\"50554d6e-29bb-11e5-b345-feff819cdc9f\"";
        case TypeKind::kInet:
            return n ? "\"::1\"" : "\"127.0.0.1\"";
        case TypeKind::kDuration:
            return n ? "\"-1mo2d\"" : "\"1h30m15s\"";
        case TypeKind::kList:
        case TypeKind::kSet:
            return n ? "[]"
                     : "[" + sample_json(*t.params[0], 0) + ", " + sample_json(*t.params[0], 1) +
                           "]";
        case TypeKind::kMap: {
            if (n) return "{}";
            // JSON keys are strings: a string key's JSON is already quoted.
            auto key = [&](int i) {
                std::string k = sample_json(*t.params[0], i);
                if (k.front() == '"') return k;
                std::string quoted = "\"";
                for (char ch : k)
                    quoted += ch == '"' ? std::string("\\\"") : std::string(1, ch);
                return quoted + "\"";
            };
            return "{" + key(0) + ": " + sample_json(*t.params[1], 0) + ", " + key(1) + ": " +
                   sample_json(*t.params[1], 1) + "}";
        }
        case TypeKind::kTuple: {
            std::string s = "[";
            for (size_t i = 0; i < t.params.size(); ++i) {
                if (i) s += ", ";
                s += n && i == 1 ? "null" : sample_json(*t.params[i], n);
            }
            return s + "]";
        }
        case TypeKind::kUdt: {
            std::string s = "{";
            for (size_t i = 0; i < t.params.size(); ++i) {
                if (n && i % 2 == 1) continue;  // missing fields are null
                if (s.size() > 1) s += ", ";
                s += "\"" + t.field_names[i] + "\": " + sample_json(*t.params[i], n);
            }
            return s + "}";
        }
        default:
            return "null";
    }
}

void values() {
    const auto& types = tessel::fuzz::value_type_table();
    for (size_t i = 0; i < types.size(); ++i) {
        const CqlType& t = *types[i];
        for (int n = 0; n < 2; ++n) {
            const std::string json = sample_json(t, n);
            auto v = value_from_json(t, json);
            if (!v.is_ok()) {
                std::fprintf(stderr, "no seed for %s from %s: %s\n", t.cql_name().c_str(),
                             json.c_str(), v.status().message().c_str());
                ++g_errors;
                continue;
            }
            const std::string prefix{static_cast<char>(i), static_cast<char>(n)};
            const std::string base = "t" + std::to_string(i) + "_" + std::to_string(n);
            put("values", base + "_value", prefix + *v);
            put("values", base + "_json", prefix + json);
            // Pair mode (flag 0x02): this value and the empty value.
            put("values", base + "_pair",
                std::string{static_cast<char>(i), static_cast<char>(0x02 | n),
                            static_cast<char>(v->size() + 1)} +
                    *v);
        }
    }
}

void type_options() {
    const auto& types = tessel::fuzz::value_type_table();
    for (size_t i = 0; i < types.size(); ++i) {
        WireWriter w;
        write_type_option(*types[i], w);
        put("type_option", "t" + std::to_string(i), w.take());
    }
    CqlType custom;
    custom.kind = TypeKind::kCustom;
    custom.udt_name = "org.apache.cassandra.db.marshal.LexicalUUIDType";
    WireWriter w;
    write_type_option(custom, w);
    put("type_option", "custom", w.take());
}

void compression() {
    QueryRequest q;
    q.query = "SELECT * FROM ks.t WHERE k = ? AND c IN (?, ?, ?) LIMIT 100";
    q.params = full_params();
    const std::string body = encode_request_body(4, q);
    // data[0]: bit 0 picks snappy; the rest picks the size limit (index 4: 4096 bytes).
    for (Compression c : {Compression::kLz4, Compression::kSnappy}) {
        const char mode = static_cast<char>((c == Compression::kSnappy ? 1 : 0) | (4 << 1));
        put("compression", std::string(compression_name(c)) + "_query",
            mode + *compress_body(c, body));
        put("compression", std::string(compression_name(c)) + "_repetitive",
            mode + *compress_body(c, std::string(2000, 'a') + body + body));
        put("compression", std::string(compression_name(c)) + "_empty",
            mode + *compress_body(c, ""));
    }
}

void paging_states() {
    // Must match the secret in target_paging_state.cpp.
    const std::string secret = "fuzz-node-secret-0123456789abcdef";
    query::PagingState s;
    s.table_id =
        std::string("\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff\x00", 16);
    s.fingerprint = std::string(32, '\x5a');
    s.columns = std::string("\x01\x23\x45\x67\x89\xab\xcd\xef", 8);
    s.partition_key = std::string("\x00\x00\x00\x2a", 4);
    s.clustering = "\x01\x80\x00\x00\x07";
    s.remaining = 100;
    s.remaining_in_partition = 3;
    const std::string full = query::encode_paging_state(s, secret);
    put("paging_state", "signed", full);
    put("paging_state", "body", full.substr(0, full.size() - 32));
    query::PagingState done;
    done.table_id = s.table_id;
    done.partition_done = true;
    const std::string d = query::encode_paging_state(done, secret);
    put("paging_state", "partition_done_body", d.substr(0, d.size() - 32));
}

// Internode streams: a hello followed by the frames of a connection, a
// reply stream, and a refusal.
void messaging_frames() {
    using namespace tessel::cluster;
    Handshake hello;
    hello.cluster_name = "Test Cluster";
    hello.host_id =
        std::string("\x5e\x1f\x00\x42\x10\x20\x30\x40\x50\x60\x70\x80\x90\xa0\xb0\xc0", 16);
    hello.address = "127.0.0.2";
    hello.port = 7000;
    const std::string request = encode_frame({7, FrameKind::kRequest, 1, 5}, "write") +
                                encode_frame({7, FrameKind::kRequest, 2, 0}, "") +
                                encode_frame({0, FrameKind::kPing, 3, 0}, "") +
                                encode_frame({9, FrameKind::kOneWay, 0, 4}, "hint");
    put("messaging_frame", "hello_requests", encode_handshake(hello) + request);
    Status failed(ErrorCode::kWriteTimeout, "replica timed out");
    failed.detail1 = "one";
    const std::string error = encode_error_payload(failed);
    Handshake accepted = hello;
    accepted.min_version = accepted.max_version = kMessagingVersion;
    put("messaging_frame", "accept_replies",
        encode_handshake(accepted) + encode_frame({7, FrameKind::kResponse, 2, 2}, "ok") +
            encode_frame({7, FrameKind::kError, 1, static_cast<uint32_t>(error.size())}, error) +
            encode_frame({0, FrameKind::kPong, 3, 0}, ""));
    Handshake refused = accepted;
    refused.refused = true;
    refused.reason = "its cluster name 'a' is not this node's 'b'";
    put("messaging_frame", "refusal", encode_handshake(refused));
    put("messaging_frame", "frames_only", request);
    put("messaging_frame", "large_payload",
        encode_frame({7, FrameKind::kRequest, 4, 3000}, std::string(3000, 'x')));
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
        return 1;
    }
    g_root = argv[1];
    frames();
    values();
    type_options();
    compression();
    paging_states();
    messaging_frames();
    return g_errors == 0 ? 0 : 1;
}
