// Reading and writing the messages of etcd's v3 JSON gateway.
//
// The gateway is protobuf's JSON mapping: bytes fields (keys, values) are
// base64, int64 fields are decimal strings, and fields holding their default
// value (0, false, "", empty list) are left out. Replies are untrusted
// input: every reader here checks types and never throws; a reply that does
// not have the expected shape is reported as malformed, never crashes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "cluster/etcd_types.h"
#include "common/status.h"

namespace tessel::cluster::etcd_json {

using Json = nlohmann::json;

std::string base64_encode(std::string_view bytes);
// Standard alphabet with padding (what the gateway sends); nullopt when
// `text` is not valid base64.
std::optional<std::string> base64_decode(std::string_view text);

// The range_end that makes a request cover every key starting with
// `prefix`: the prefix with its last byte below 0xff incremented and what
// follows cut, or "\0" (every key from `prefix` on) when there is none.
std::string prefix_range_end(std::string_view prefix);

// The member `name` of `obj`, or null when `obj` is not an object or has
// no such member.
const Json* member(const Json& obj, std::string_view name);

// These readers leave *out at its default (0, "", false) when the member is
// absent, and return false only when it is present with the wrong type or
// an unreadable value.
bool read_int64(const Json& obj, std::string_view name, int64_t* out);
bool read_bytes(const Json& obj, std::string_view name, std::string* out);  // base64
bool read_bool(const Json& obj, std::string_view name, bool* out);

// The revision in the reply's "header" (0 when absent); false if malformed.
bool read_header_revision(const Json& obj, int64_t* out);

// A KeyValue ("kvs" entries, watch events' "kv").
std::optional<KeyValue> read_key_value(const Json& obj);

// A RangeResponse: kvs, the header's revision, and whether more keys
// remain past the limit. Returns a message saying what is wrong otherwise.
struct RangePage {
    RangeResult result;
    bool more = false;
};
std::optional<RangePage> read_range_page(const Json& obj, std::string* what);

// An error reply (non-streaming: {"error","message","code"}; streaming:
// {"error": {"grpc_code","message",...}}), as etcd's message and its gRPC
// code. nullopt when `obj` is not an error.
struct ErrorReply {
    std::string message;
    int64_t code = 0;  // gRPC status code (5 NOT_FOUND, 14 UNAVAILABLE, ...)
};
std::optional<ErrorReply> read_error(const Json& obj);

// Cuts a byte stream into the top-level JSON objects it carries, whatever
// the chunking: a streaming reply may split an object across writes or put
// several in one. Whitespace between objects is skipped. Strings are
// tracked (with escapes), so braces inside them do not count.
class ObjectSplitter {
  public:
    explicit ObjectSplitter(size_t max_object_bytes) : max_object_bytes_(max_object_bytes) {}

    // Adds bytes. Returns false (and stays failed) when the stream carries
    // something that is not an object, or an object grows past the limit.
    bool feed(std::string_view bytes);
    // The next complete object's text, in stream order.
    std::optional<std::string> next();
    bool failed() const { return failed_; }
    // Forgets everything (a new stream starts).
    void reset();

  private:
    size_t max_object_bytes_;
    std::string buf_;  // bytes of the object being read (from its '{')
    int depth_ = 0;    // 0: between objects
    bool in_string_ = false;
    bool escape_ = false;
    bool failed_ = false;
    std::deque<std::string> ready_;
};

}  // namespace tessel::cluster::etcd_json
