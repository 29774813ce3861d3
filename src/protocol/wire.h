// The notation primitives of the CQL native protocol (native_protocol_v4.spec
// §3): a bounds-checked reader over a message body and an appending writer.
//
// Integers are big-endian. The reader never reads past its buffer and never
// allocates on the word of a length field alone: every count is checked
// against the bytes that remain first. Every failure is a Protocol_error whose
// message names what could not be read.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace tessel::protocol {

using Uuid = std::array<uint8_t, 16>;

// [inet]: an IPv4 (4 bytes) or IPv6 (16 bytes) address and a port.
struct Inet {
    std::string address;  // raw address bytes, 4 or 16 of them
    int32_t port = 0;
    bool operator==(const Inet&) const = default;
};

// A bound [value]: bytes, null (length -1) or, from v4, unset (length -2).
struct BoundValue {
    enum class Kind : uint8_t { kBytes, kNull, kUnset };
    Kind kind = Kind::kNull;
    std::string bytes;  // meaningful for kBytes only

    static BoundValue of(std::string_view b) { return {Kind::kBytes, std::string(b)}; }
    static BoundValue null() { return {Kind::kNull, {}}; }
    static BoundValue unset() { return {Kind::kUnset, {}}; }
    bool is_null() const { return kind == Kind::kNull; }
    bool is_unset() const { return kind == Kind::kUnset; }
    bool operator==(const BoundValue&) const = default;
};

// Consistency levels ([consistency] is a [short]).
enum class Consistency : uint16_t {
    kAny = 0x0000,
    kOne = 0x0001,
    kTwo = 0x0002,
    kThree = 0x0003,
    kQuorum = 0x0004,
    kAll = 0x0005,
    kLocalQuorum = 0x0006,
    kEachQuorum = 0x0007,
    kSerial = 0x0008,
    kLocalSerial = 0x0009,
    kLocalOne = 0x000A,
};
// "ONE", "LOCAL_QUORUM", ...; "UNKNOWN" for codes outside the table.
std::string_view consistency_name(uint16_t code);

using StringMap = std::map<std::string, std::string>;
using StringMultimap = std::map<std::string, std::vector<std::string>>;
using BytesMap = std::map<std::string, std::optional<std::string>>;

// Reads primitives from the front of a body. Views returned by the reader
// point into the buffer given to the constructor, which the caller keeps alive.
class WireReader {
  public:
    explicit WireReader(std::string_view data) : data_(data) {}
    // A temporary string would leave the reader dangling.
    explicit WireReader(std::string&&) = delete;

    size_t remaining() const { return data_.size() - pos_; }
    bool at_end() const { return pos_ == data_.size(); }
    size_t position() const { return pos_; }
    std::string_view rest() const { return data_.substr(pos_); }

    Result<uint8_t> read_byte();
    Result<uint16_t> read_short();
    Result<int32_t> read_int();
    Result<int64_t> read_long();
    // Exactly n raw bytes.
    Result<std::string_view> read_raw(size_t n, std::string_view what = "raw bytes");
    Result<std::string_view> read_string();
    Result<std::string_view> read_long_string();
    // [bytes]: std::nullopt for a negative length (null).
    Result<std::optional<std::string_view>> read_bytes();
    // [value]: from v4, -1 is null, -2 unset, anything lower an error; in v3
    // every negative length is null (as Cassandra reads it).
    Result<BoundValue> read_value(uint8_t protocol_version);
    Result<std::string_view> read_short_bytes();
    Result<std::vector<std::string>> read_string_list();
    Result<StringMap> read_string_map();
    Result<StringMultimap> read_string_multimap();
    Result<BytesMap> read_bytes_map();
    Result<Inet> read_inet();
    Result<uint16_t> read_consistency() { return read_short(); }
    Result<Uuid> read_uuid();

  private:
    Status need(size_t n, std::string_view what) const;

    std::string_view data_;
    size_t pos_ = 0;
};

// Appends primitives to a std::string. Lengths that do not fit their field
// ([string] over 65535 bytes, [short bytes] likewise) are cut to the field's
// maximum so the output is always a well-formed frame body; callers that
// cannot accept that check sizes first.
class WireWriter {
  public:
    WireWriter() = default;
    // Appends after what `buffer` already holds (take() hands it back).
    explicit WireWriter(std::string buffer) : out_(std::move(buffer)) {}

    void write_byte(uint8_t v) { out_.push_back(static_cast<char>(v)); }
    void write_short(uint16_t v);
    void write_int(int32_t v);
    void write_long(int64_t v);
    void write_raw(std::string_view bytes) { out_.append(bytes); }
    void write_string(std::string_view s);
    void write_long_string(std::string_view s);
    void write_bytes(std::optional<std::string_view> b);  // nullopt -> length -1
    void write_value(const BoundValue& v);
    void write_short_bytes(std::string_view b);
    void write_string_list(const std::vector<std::string>& list);
    void write_string_map(const StringMap& map);
    void write_string_multimap(const StringMultimap& map);
    void write_bytes_map(const BytesMap& map);
    // Precondition: address is 4 or 16 bytes.
    void write_inet(const Inet& inet);
    void write_consistency(uint16_t c) { write_short(c); }
    void write_uuid(const Uuid& uuid);

    const std::string& data() const { return out_; }
    std::string take() { return std::move(out_); }
    size_t size() const { return out_.size(); }

  private:
    std::string out_;
};

}  // namespace tessel::protocol
