// Helpers for turning CQL literals into values, shared with the parser and
// query layers for error messages.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "types/literal.h"

// A nested namespace keeps these out of argument-dependent lookup on Literal.
namespace tessel::literals {

// Cassandra's name for a constant kind in error messages: "STRING", "INTEGER",
// "FLOAT", "BOOLEAN", "UUID", "HEX", "DURATION", "NULL", or "list"/"set"/"map"/
// "tuple"/"user type" for the structured literals.
std::string_view literal_kind_name(Literal::Kind kind);

// A CQL float literal ("1.5", "-2e+10", "NaN", "Infinity", "-Infinity", or an
// integer) -> double; nullopt when the text is not one.
std::optional<double> parse_float_literal(std::string_view text);

// A CQL integer literal ("-42") -> int64 when it fits; nullopt otherwise.
std::optional<int64_t> parse_int64_literal(std::string_view text);

}  // namespace tessel::literals
