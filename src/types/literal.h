// Literal: a constant as written in CQL text, before it is given a type.
//
// The parser produces Literals; types/value.h turns a Literal into the value
// bytes of a given CqlType (or an Invalid error saying why it cannot).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace tessel {

struct Literal {
    enum class Kind {
        kNull,      // NULL
        kString,    // 'it''s' -> text holds the unescaped content (also $$...$$)
        kInteger,   // -42 -> text "-42"
        kFloat,     // 1.5, 1e+20, NaN, Infinity, -Infinity -> text as written
        kBoolean,   // true/false, any case -> text "true" or "false"
        kUuid,      // unquoted 8-4-4-4-12 -> text as written
        kHex,       // 0xCAFE -> text "0xCAFE"
        kDuration,  // 1h30m, P1DT2H, ... -> text as written
        kList,      // [a, b] -> elements
        kSet,       // {a, b} (and {} which may also be an empty map) -> elements
        kMap,       // {k: v, ...} -> entries
        kTuple,     // (a, b) -> elements
        kUdt,       // {field: v, ...} with bare identifiers as keys -> fields
    };

    Literal();

    Kind kind = Kind::kNull;
    std::string text;
    std::vector<Literal> elements;
    std::vector<std::pair<Literal, Literal>> entries;
    std::vector<std::pair<std::string, Literal>> fields;

    static Literal null() { return Literal{}; }
    static Literal scalar(Kind k, std::string t) {
        Literal l;
        l.kind = k;
        l.text = std::move(t);
        return l;
    }
};

inline Literal::Literal() = default;

}  // namespace tessel
