// Frame body compression negotiated in STARTUP (reference §1.12):
// - "lz4": a 4-byte big-endian uncompressed length, then a raw LZ4 block;
// - "snappy": a raw snappy block (snappy records the length itself).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "protocol/frame.h"

namespace tessel::protocol {

enum class Compression { kNone, kLz4, kSnappy };

// "lz4" / "snappy" (case-insensitive, as in Cassandra) -> the algorithm;
// std::nullopt for names this codec does not implement.
std::optional<Compression> compression_from_name(std::string_view name);
std::string_view compression_name(Compression c);  // "lz4", "snappy", ""

// Compresses a frame body. kNone returns the input unchanged. Server_error
// only if the library fails (or the body exceeds what the format can record).
Result<std::string> compress_body(Compression c, std::string_view body);

// Decompresses a frame body. A claimed or actual uncompressed size above
// `max_size` and corrupt or truncated input give Protocol_error; no buffer
// larger than `max_size` is ever allocated.
Result<std::string> decompress_body(Compression c, std::string_view body,
                                    size_t max_size = kDefaultMaxFrameSize);

}  // namespace tessel::protocol
