// The CQL lexer: source text -> tokens.
//
// Keywords are not a token kind: an unquoted word is an kIdentifier whose
// text is lower-cased, and the parser decides whether it is a keyword in
// context (Cassandra lets most keywords double as column names). A
// double-quoted identifier keeps its case and is never a keyword.
//
// Negative numbers are two tokens ('-' then the number); the parser joins
// them where a term is expected, so `c = c -1` still means subtraction.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace tessel::cql {

enum class TokenKind {
    kIdentifier,        // unquoted word; text lower-cased
    kQuotedIdentifier,  // "Name" ; text unescaped, case kept
    kString,            // 'it''s' or $$...$$ ; text unescaped
    kInteger,           // 42
    kFloat,             // 1.5, 1e10, 1.5E-3, .5
    kUuid,              // 01234567-89ab-cdef-0123-456789abcdef
    kHex,               // 0xCAFE (also 0x, the empty blob)
    kDuration,          // 1h30m, 12mo, P1DT2H, P2W, P0001-02-03T04:05:06
    kBoolean,           // true / false, any case; text lower-cased
    kPunct,             // = != < <= > >= + - += -= ( ) [ ] { } , ; . : ? *
    kEof,               // end of input (always the last token)
};

struct Token {
    TokenKind kind = TokenKind::kEof;
    // Normalised content: lower-cased for identifiers and booleans, unescaped
    // for strings and quoted identifiers, the symbol itself for kPunct, and
    // the source text for numbers, uuids, hex and durations.
    std::string text;
    // Where the token starts: 1-based line, 0-based column (as Cassandra
    // reports them), and byte offset/length in the source.
    int line = 1;
    int column = 0;
    std::size_t offset = 0;
    std::size_t length = 0;

    bool is_punct(std::string_view p) const { return kind == TokenKind::kPunct && text == p; }
    // An unquoted word equal to the lower-case keyword kw.
    bool is_keyword(std::string_view kw) const {
        return kind == TokenKind::kIdentifier && text == kw;
    }
};

// Splits text into tokens, skipping whitespace and comments (-- and // to end
// of line, /* ... */). The result always ends with one kEof token. Fails with
// Syntax_error ("line L:C ...") on a character that starts no token, an
// unterminated string, quoted identifier or comment.
Result<std::vector<Token>> tokenize(std::string_view text);

// A short human name for a token kind, used in error messages ("IDENT",
// "STRING_LITERAL", "INTEGER", ...), following Cassandra's token names.
const char* token_kind_name(TokenKind kind);

}  // namespace tessel::cql
