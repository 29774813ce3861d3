// The fuzz targets as plain functions, shared by the libFuzzer executables
// (fuzz/*_fuzz.cpp) and by fuzz_replay, which runs the seed corpora and the
// saved crash inputs through them in every build, sanitized or not.
//
// Each function takes arbitrary bytes. It returns normally when the code under
// test handled the input (accepting or rejecting it); it calls fuzz_fail(),
// which aborts, when an invariant the code promises is broken (a round trip
// that does not return the same value, an order that disagrees). Memory errors
// and undefined behaviour are left to the sanitizers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tessel::fuzz {

// FrameParser fed the input in pseudo-random chunks (max frame 4 KiB), then
// decode_request (or decode_response) of every frame with its own version and
// opcode, with the other supported version too, and of the decompressed body
// when the compression flag is set.
void fuzz_frame(const uint8_t* data, size_t size);

// tokenize, parse_statements and parse_statement of the input as CQL text.
void fuzz_cql(const uint8_t* data, size_t size);

// data[0] picks a CqlType from a fixed table (natives, nested frozen
// collections, tuples, UDTs), data[1] holds flags, the rest is a value (and
// JSON text). Checks: validate_value; for valid values format_value,
// value_to_json and a key round trip; decode_key of raw bytes; value_from_json
// whose result must validate; and, in pair mode, key order against compare_values.
void fuzz_values(const uint8_t* data, size_t size);

// data[0] picks lz4 or snappy and a maximum size; the rest is decompressed, and
// compressed then decompressed, which must give it back.
void fuzz_compression(const uint8_t* data, size_t size);

// read_type_option of the input; a type that reads back must write and read
// again to an equal type.
void fuzz_type_option(const uint8_t* data, size_t size);

// decode_paging_state of the raw input (nothing forged may pass), and of the
// input signed with the node secret so the parser behind the MAC is reached;
// a state that decodes must survive encode + decode unchanged, and a tampered
// or foreign-signed one must be refused.
void fuzz_paging_state(const uint8_t* data, size_t size);

// decode_handshake of the input (one that decodes must survive encode +
// decode), then decode_frame over the rest fed in pseudo-random chunks (max
// payload 4 KiB) as a connection reads it: frames re-encode to their bytes,
// error payloads round-trip, and nothing complete is left waiting.
void fuzz_messaging_frame(const uint8_t* data, size_t size);

// Prints "fuzz invariant broken in <target>: <what>" and aborts.
[[noreturn]] void fuzz_fail(std::string_view target, std::string_view what);

}  // namespace tessel::fuzz
