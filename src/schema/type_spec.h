// TypeSpec: a CQL type as written in a statement, before names are resolved.
//
// The CQL parser builds TypeSpecs; the catalog resolves them (user type names
// against the keyspace's types) into CqlTypes, applying Cassandra's rules on
// frozen-ness, counters and durations while doing so.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace tessel {

struct TypeSpec {
    // "int", "text", ... ; "list", "set", "map", "tuple"; otherwise a user type name
    // (case preserved: the parser has already normalised identifiers).
    std::string name;
    // Only for a user type written as ks.name.
    std::string keyspace;
    std::vector<TypeSpec> params;
    // frozen<...> was written around this type.
    bool frozen = false;

    // The type as it was written, e.g. "list<frozen<map<int, text>>>"; used in
    // error messages exactly where Cassandra prints the raw type.
    std::string to_string() const;

    static TypeSpec simple(std::string name) { return TypeSpec{std::move(name), {}, {}, false}; }
};

// Parses CQL type syntax: "int", "frozen<list<int>>", "map<text, frozen<addr>>",
// "tuple<int, text>", "ks.addr", "\"MyType\"". Unquoted names are lowercased.
// Syntax_error on malformed text.
Result<TypeSpec> parse_type_spec(std::string_view text);

}  // namespace tessel
