// A small, strict JSON reader (RFC 8259) and JSON string quoting.
//
// Used by value_from_json and by INSERT JSON, which needs an object split into
// column name -> raw JSON text of the value. Nesting depth is limited so
// hostile input cannot exhaust the stack.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"

namespace tessel::json {

struct Value {
    Value();
    enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
    Kind kind = Kind::kNull;
    bool boolean = false;
    // kNumber: the number exactly as written; kString: the decoded (UTF-8) content.
    std::string text;
    std::vector<Value> items;                            // kArray
    std::vector<std::pair<std::string, Value>> members;  // kObject, in document order
};

inline Value::Value() = default;

inline constexpr int kMaxDepth = 128;

// Parses one JSON document (surrounding whitespace allowed). Invalid on malformed input.
Result<Value> parse(std::string_view text);

// Parses a JSON object and returns, for each member in document order, its key and
// the raw JSON text of its value (e.g. {"a": [1, 2]} -> {"a", "[1, 2]"}).
// Invalid when the text is not a JSON object.
Result<std::vector<std::pair<std::string, std::string>>> parse_object_raw(std::string_view text);

// s as a JSON string literal with quotes: '"' and '\\' escaped, control characters
// as \n, \t, \r, \b, \f or \u00XX; other characters (including non-ASCII UTF-8) raw.
std::string quote(std::string_view s);

// True when the text (surrounding whitespace allowed) is the JSON literal null.
bool is_null(std::string_view text);

// Compact JSON text of a parsed value (numbers as written).
std::string serialize(const Value& v);

}  // namespace tessel::json
