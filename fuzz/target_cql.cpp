// fuzz_cql: CQL text from a hostile client through the lexer and the parser.
#include <string_view>

#include "cql/lexer.h"
#include "cql/parser.h"
#include "targets.h"

namespace tessel::fuzz {

void fuzz_cql(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto tokens = cql::tokenize(text);
    if (tokens.is_ok()) {
        if (tokens->empty() || tokens->back().kind != cql::TokenKind::kEof) {
            fuzz_fail("cql", "token list does not end with kEof");
        }
        for (const cql::Token& t : *tokens) {
            if (t.offset > size || t.length > size - t.offset) {
                fuzz_fail("cql", "token outside the source text");
            }
            (void)cql::token_kind_name(t.kind);
            if (t.kind == cql::TokenKind::kIdentifier) (void)cql::maybe_quote(t.text);
        }
    }
    auto script = cql::parse_statements(text);
    (void)script;
    auto one = cql::parse_statement(text);
    (void)one;
}

}  // namespace tessel::fuzz
