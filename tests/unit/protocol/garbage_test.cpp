// Seeded random and mutated input fed to every decoder: each call must return
// (a value or a Protocol_error) without crashing, reading out of bounds (run
// under -DTESSEL_SANITIZE=ON to check that) or allocating on a lying length.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "protocol/compression.h"
#include "protocol/frame.h"
#include "protocol/requests.h"
#include "protocol/responses.h"
#include "protocol/type_option.h"
#include "type_builders.h"

namespace tessel::protocol {
namespace {

using namespace std::string_literals;
using test_types::t;

constexpr Opcode kRequestOpcodes[] = {Opcode::kStartup,  Opcode::kOptions,     Opcode::kQuery,
                                      Opcode::kPrepare,  Opcode::kExecute,     Opcode::kBatch,
                                      Opcode::kRegister, Opcode::kAuthResponse};
constexpr Opcode kResponseOpcodes[] = {
    Opcode::kError,  Opcode::kReady, Opcode::kAuthenticate,  Opcode::kSupported,
    Opcode::kResult, Opcode::kEvent, Opcode::kAuthChallenge, Opcode::kAuthSuccess};

// Valid bodies to mutate: random bytes alone rarely get past the first field.
std::vector<std::pair<Opcode, std::string>> request_seeds() {
    QueryParameters p;
    p.values = {BoundValue::of("abc"), BoundValue::null(), BoundValue::unset()};
    p.value_names = {"a", "b", "c"};
    p.page_size = 10;
    p.paging_state = "state";
    p.serial_consistency = 9;
    p.default_timestamp = 7;
    BatchRequest b;
    b.statements = {{false, "INSERT", {BoundValue::of("1")}}, {true, "id", {BoundValue::null()}}};
    b.serial_consistency = 8;
    b.default_timestamp = 1;
    std::vector<std::pair<Opcode, std::string>> seeds;
    for (const Request& r : std::vector<Request>{
             StartupRequest{{{"CQL_VERSION", "3.0.0"}, {"COMPRESSION", "lz4"}}},
             QueryRequest{"SELECT * FROM t", p}, ExecuteRequest{"0123456789abcdef", p}, b,
             RegisterRequest{{"SCHEMA_CHANGE", "STATUS_CHANGE"}}, AuthResponseRequest{"\0u\0p"s}}) {
        seeds.emplace_back(request_opcode(r), encode_request_body(4, r));
    }
    return seeds;
}

std::vector<std::pair<Opcode, std::string>> response_seeds() {
    RowsResult rows;
    rows.metadata.columns = {
        {"ks", "t", "a", t(TypeKind::kMap, false, {t(TypeKind::kVarchar), t(TypeKind::kInt)})},
        {"ks", "t", "b", t(TypeKind::kTuple, true, {t(TypeKind::kInt), t(TypeKind::kDuration)})}};
    rows.metadata.paging_state = "ps";
    rows.rows = {{"x"s, std::nullopt}, {""s, "yy"s}};
    PreparedResult prepared;
    prepared.id = "id";
    prepared.pk_indexes = {0};
    prepared.bind_columns = rows.metadata.columns;
    prepared.result_metadata = rows.metadata;
    ErrorResponse err;
    err.code = ErrorCode::kReadFailure;
    std::vector<std::pair<Opcode, std::string>> seeds;
    for (const Response& r :
         std::vector<Response>{err, rows, prepared, SupportedResponse{{{"CQL_VERSION", {"3.4.4"}}}},
                               SchemaChangeEvent{{"CREATED", "FUNCTION", "ks", "f", {"int"}}},
                               TopologyChangeEvent{"NEW_NODE", {"\x01\x02\x03\x04"s, 9042}},
                               SchemaChangeResult{{"DROPPED", "TABLE", "ks", "t", {}}}}) {
        seeds.emplace_back(response_opcode(r), encode_response_body(4, r));
    }
    return seeds;
}

std::string mutate(std::mt19937& rng, std::string s) {
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
        switch (rng() % 4) {
            case 0:
                if (!s.empty()) s[rng() % s.size()] = static_cast<char>(rng());
                break;
            case 1:
                if (!s.empty()) s.resize(rng() % s.size());
                break;
            case 2:
                s.insert(rng() % (s.size() + 1), 1, static_cast<char>(rng()));
                break;
            case 3:  // a length-looking 0x7F / 0xFF run
                if (s.size() > 4) {
                    const size_t at = rng() % (s.size() - 3);
                    for (size_t i = 0; i < 4; ++i)
                        s[at + i] = rng() % 2 ? '\xFF' : '\x7F';
                }
                break;
        }
    }
    return s;
}

std::string random_body(std::mt19937& rng) {
    std::string s(rng() % 128, '\0');
    for (auto& c : s)
        c = static_cast<char>(rng());
    return s;
}

void expect_error_is_protocol(const Status& st) {
    if (!st.is_ok()) {
        EXPECT_EQ(st.code(), ErrorCode::kProtocolError) << st.message();
    }
}

template <typename T>
void expect_ok_or_protocol_error(const Result<T>& r) {
    if (!r.is_ok()) expect_error_is_protocol(r.status());
}

TEST(GarbageTest, RequestDecodersNeverCrash) {
    std::mt19937 rng(20240101);
    const auto seeds = request_seeds();
    for (int i = 0; i < 20000; ++i) {
        const uint8_t version = rng() % 2 ? 4 : 3;
        const uint8_t flags = static_cast<uint8_t>(rng() % 16);
        if (i % 2 == 0) {
            const auto& [op, body] = seeds[rng() % seeds.size()];
            auto r = decode_request(version, op, flags, mutate(rng, body));
            if (!r.is_ok()) expect_error_is_protocol(r.status());
        } else {
            const Opcode op = kRequestOpcodes[rng() % std::size(kRequestOpcodes)];
            auto r = decode_request(version, op, flags, random_body(rng));
            if (!r.is_ok()) expect_error_is_protocol(r.status());
        }
    }
}

TEST(GarbageTest, ResponseDecodersNeverCrash) {
    std::mt19937 rng(777);
    const auto seeds = response_seeds();
    for (int i = 0; i < 20000; ++i) {
        const uint8_t version = rng() % 2 ? 4 : 3;
        const uint8_t flags = static_cast<uint8_t>(rng() % 16);
        if (i % 2 == 0) {
            const auto& [op, body] = seeds[rng() % seeds.size()];
            auto r = decode_response(version, op, rng() % 4 ? 0 : flags, mutate(rng, body));
            if (!r.is_ok()) expect_error_is_protocol(r.status());
        } else {
            const Opcode op = kResponseOpcodes[rng() % std::size(kResponseOpcodes)];
            auto r = decode_response(version, op, flags, random_body(rng));
            if (!r.is_ok()) expect_error_is_protocol(r.status());
        }
    }
}

TEST(GarbageTest, TypeOptionsAndPrimitivesNeverCrash) {
    std::mt19937 rng(4242);
    for (int i = 0; i < 10000; ++i) {
        std::string body = random_body(rng);
        // Bias towards plausible type ids.
        if (i % 2 == 0 && body.size() >= 2) {
            const uint16_t ids[] = {0x0000, 0x0020, 0x0021, 0x0022, 0x0030, 0x0031, 0x0009};
            const uint16_t id = ids[rng() % std::size(ids)];
            body[0] = static_cast<char>(id >> 8);
            body[1] = static_cast<char>(id & 0xFF);
        }
        WireReader r(body);
        auto type = read_type_option(r);
        if (!type.is_ok()) expect_error_is_protocol(type.status());
        WireReader p(body);
        expect_ok_or_protocol_error(p.read_string_multimap());
        expect_ok_or_protocol_error(p.read_bytes_map());
        expect_ok_or_protocol_error(p.read_inet());
        expect_ok_or_protocol_error(p.read_value(4));
    }
}

TEST(GarbageTest, FramesFromGarbageAreDecodedSafely) {
    // Whatever the parser cuts out of garbage goes through the full decode path.
    std::mt19937 rng(31337);
    for (int i = 0; i < 3000; ++i) {
        FrameParser parser(4096);
        parser.append(random_body(rng) + random_body(rng));
        for (int k = 0; k < 20; ++k) {
            auto f = parser.next();
            if (f.is_ok() && !f->has_value()) break;
            if (!f.is_ok()) continue;
            const Frame& frame = **f;
            auto op = opcode_from_byte(frame.header.opcode);
            if (!op.is_ok()) continue;
            std::string body = frame.body;
            if (frame.header.flags & kFlagCompression) {
                auto d = decompress_body(rng() % 2 ? Compression::kLz4 : Compression::kSnappy, body,
                                         4096);
                if (!d.is_ok()) continue;
                body = *d;
            }
            (void)decode_request(frame.header.protocol_version(), *op, frame.header.flags, body);
            (void)decode_response(frame.header.protocol_version(), *op, frame.header.flags, body);
        }
    }
}

}  // namespace
}  // namespace tessel::protocol
