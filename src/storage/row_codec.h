// Binary format of the values stored in a table's column family.
//
// Every value starts with [format version: u8][record type: u8][pk length:
// varint]. The partition key length is stored in the value (not the key) so
// a scan can tell where the partition key ends in a stored key without
// parsing the caller's key encoding, and without a length prefix in the key
// that would break byte order. Merge operands and merged values share the
// format, so an operand is itself a valid value.
//
// Row record (key marker 0x01 static / 0x02 clustering):
//   flags u8 (bit0 marker, bit1 marker expiring, bit2 row deletion)
//   [marker: ts zz-varint, (ttl varint, expiry varint)]
//   [deletion: ts zz-varint, local_deletion_time zz-varint]
//   complex deletion count varint, each: column_id varint, ts, ldt
//   cell count varint, each: column_id varint, path (len varint + bytes),
//     flags u8 (bits0-1 kind, bit2 has ttl, bit3 has expiry), ts zz-varint,
//     [ttl zz-varint], [expiry zz-varint], value (len varint + bytes)
// Header record (key marker 0x00):
//   flags u8 (bit0 partition deletion) [ts, ldt]
//   range tombstone count varint, each: start (len + bytes), end (len +
//     bytes), inclusive flags u8 (bit0 start, bit1 end), ts, ldt
//
// Decoders never trust their input: a truncated or malformed value returns
// false (surfaced as a corruption error), never reads out of bounds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/mutation.h"

namespace tessel::storage {

constexpr uint8_t kFormatVersion = 1;

enum class RecordType : uint8_t {
    kHeader = 'H',
    kRow = 'R',
};

// Key marker bytes following the partition key.
constexpr char kHeaderMarker = 0x00;
constexpr char kStaticMarker = 0x01;
constexpr char kRowMarker = 0x02;
// One past the last marker: pk + kEndMarker sorts after every key of pk.
constexpr char kEndMarker = 0x03;

struct HeaderValue {
    uint32_t pk_length = 0;
    DeletionTime partition_deletion;
    std::vector<RangeTombstone> range_tombstones;
};

struct RowValue {
    uint32_t pk_length = 0;
    RowFragment row;
};

// Keys.
std::string header_key(std::string_view partition_key);
std::string static_key(std::string_view partition_key);
std::string row_key(std::string_view partition_key, std::string_view clustering);

void encode_header(const HeaderValue& v, std::string* out);
void encode_row(uint32_t pk_length, const RowFragment& row, std::string* out);
bool decode_header(std::string_view in, HeaderValue* out);
bool decode_row(std::string_view in, RowValue* out);

// The record type and partition key length of an encoded value, without
// decoding the rest; nullopt when the value is malformed.
struct RecordPrefix {
    RecordType type;
    uint32_t pk_length;
};
std::optional<RecordPrefix> peek_record(std::string_view in);

// Approximate encoded size of a fragment (for statistics, no allocation).
size_t estimated_row_size(const RowFragment& row);

// Big-endian int64 helpers for counter values.
int64_t decode_counter(std::string_view v);
std::string encode_counter(int64_t v);

}  // namespace tessel::storage
