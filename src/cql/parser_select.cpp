// SELECT [JSON] [DISTINCT] selectors FROM t [WHERE ...] [GROUP BY ...]
//   [ORDER BY ...] [PER PARTITION LIMIT n] [LIMIT n] [ALLOW FILTERING]
#include <string>

#include "cql/parser_impl.h"

namespace tessel::cql {

namespace {

// Tokens that follow a selector, telling that a JSON/DISTINCT word just read
// was a column name rather than the modifier.
bool ends_selector(const Token& t) {
    return t.is_keyword("from") || t.is_punct(",") || t.is_keyword("as") || t.is_punct("(") ||
           t.is_punct(".");
}

bool starts_constant(const Token& t) {
    switch (t.kind) {
        case TokenKind::kString:
        case TokenKind::kInteger:
        case TokenKind::kFloat:
        case TokenKind::kUuid:
        case TokenKind::kHex:
        case TokenKind::kDuration:
        case TokenKind::kBoolean:
            return true;
        case TokenKind::kPunct:
            return t.text == "-" || t.text == "?" || t.text == ":" || t.text == "[" ||
                   t.text == "{";
        case TokenKind::kIdentifier:
            return t.text == "null" || t.text == "nan" || t.text == "infinity";
        default:
            return false;
    }
}

}  // namespace

// A function argument: `*` (count(*)), a constant or bind marker, or a selector.
Result<Selector> Parser::selector_argument() {
    Selector s;
    if (accept_punct("*")) {
        s.kind = Selector::Kind::kStar;
        return s;
    }
    // A selector never starts with '(': that is a type hint, `(blob)?`.
    if (starts_constant(peek()) || peek().is_punct("(")) {
        s.kind = Selector::Kind::kTerm;
        TESSEL_ASSIGN_OR_RETURN(Term t, term());
        s.term.push_back(std::move(t));
        return s;
    }
    return selector();
}

// col | f(args) | ks.f(args) | CAST(sel AS type) | sel.field
Result<Selector> Parser::selector() {
    const DepthGuard guard = enter();
    if (guard.too_deep()) return too_deep();
    Selector s;
    const Token& t = peek();
    const bool word = t.kind == TokenKind::kIdentifier || t.kind == TokenKind::kQuotedIdentifier;
    if (t.is_keyword("cast") && peek(1).is_punct("(")) {
        advance();
        advance();
        s.kind = Selector::Kind::kCast;
        TESSEL_ASSIGN_OR_RETURN(Selector arg, selector());
        s.args.push_back(std::move(arg));
        TESSEL_RETURN_IF_ERROR(expect_keyword("as"));
        TESSEL_ASSIGN_OR_RETURN(s.cast_type, type());
        TESSEL_RETURN_IF_ERROR(expect_punct(")"));
    } else if (word &&
               (peek(1).is_punct("(") || (peek(1).is_punct(".") && peek(3).is_punct("(")))) {
        // Function names may be reserved words (token) when a '(' follows.
        s.kind = Selector::Kind::kFunction;
        s.function = advance().text;
        if (accept_punct(".")) {
            s.keyspace = std::move(s.function);
            const Token& n = peek();
            if (n.kind != TokenKind::kIdentifier && n.kind != TokenKind::kQuotedIdentifier)
                return mismatched("IDENT");
            s.function = advance().text;
        }
        TESSEL_RETURN_IF_ERROR(expect_punct("("));
        if (!peek().is_punct(")")) {
            do {
                TESSEL_ASSIGN_OR_RETURN(Selector arg, selector_argument());
                s.args.push_back(std::move(arg));
            } while (accept_punct(","));
        }
        TESSEL_RETURN_IF_ERROR(expect_punct(")"));
    } else {
        s.kind = Selector::Kind::kColumn;
        TESSEL_ASSIGN_OR_RETURN(s.column, name());
    }
    // UDT field selection, possibly nested: a.b.c
    while (peek().is_punct(".")) {
        advance();
        Selector field;
        field.kind = Selector::Kind::kField;
        TESSEL_ASSIGN_OR_RETURN(field.field, name());
        field.args.push_back(std::move(s));
        s = std::move(field);
    }
    return s;
}

// LIMIT / PER PARTITION LIMIT value: an integer or a bind marker. A negative
// or zero integer parses (as in Cassandra, whose INTEGER token takes a sign);
// prepare rejects it with "LIMIT must be strictly positive".
Result<Term> Parser::limit_value() {
    const bool negative = peek().is_punct("-") && peek(1).kind == TokenKind::kInteger;
    if (negative || peek().kind == TokenKind::kInteger) {
        if (negative) advance();
        Term t;
        t.value = Literal::scalar(Literal::Kind::kInteger, (negative ? "-" : "") + advance().text);
        return t;
    }
    if (at_bind_marker()) return bind_marker();
    return mismatched("INTEGER or a bind marker");
}

Result<SelectStatement> Parser::select_statement() {
    TESSEL_RETURN_IF_ERROR(expect_keyword("select"));
    SelectStatement s;
    if (peek().is_keyword("json") && !ends_selector(peek(1))) {
        advance();
        s.json = true;
    }
    if (peek().is_keyword("distinct") && !ends_selector(peek(1))) {
        advance();
        s.distinct = true;
    }
    if (accept_punct("*")) {
        s.select_all = true;
    } else {
        do {
            TESSEL_ASSIGN_OR_RETURN(Selector sel, selector());
            if (accept_keyword("as")) {
                TESSEL_ASSIGN_OR_RETURN(sel.alias, name());
            }
            s.selectors.push_back(std::move(sel));
        } while (accept_punct(","));
    }
    TESSEL_RETURN_IF_ERROR(expect_keyword("from"));
    TESSEL_ASSIGN_OR_RETURN(s.table, qualified_name());
    if (peek().is_keyword("where")) {
        TESSEL_ASSIGN_OR_RETURN(s.where, where_clause());
    }
    if (accept_keyword("group")) {
        TESSEL_RETURN_IF_ERROR(expect_keyword("by"));
        do {
            TESSEL_ASSIGN_OR_RETURN(auto col, name());
            s.group_by.push_back(std::move(col));
        } while (accept_punct(","));
    }
    if (accept_keyword("order")) {
        TESSEL_RETURN_IF_ERROR(expect_keyword("by"));
        do {
            Ordering o;
            TESSEL_ASSIGN_OR_RETURN(o.column, name());
            if (accept_keyword("desc")) {
                o.descending = true;
            } else {
                accept_keyword("asc");
            }
            s.order_by.push_back(std::move(o));
        } while (accept_punct(","));
    }
    if (peek().is_keyword("per")) {
        advance();
        TESSEL_RETURN_IF_ERROR(expect_keyword("partition"));
        TESSEL_RETURN_IF_ERROR(expect_keyword("limit"));
        TESSEL_ASSIGN_OR_RETURN(Term t, limit_value());
        s.per_partition_limit = std::move(t);
    }
    if (accept_keyword("limit")) {
        TESSEL_ASSIGN_OR_RETURN(Term t, limit_value());
        s.limit = std::move(t);
    }
    if (accept_keyword("allow")) {
        TESSEL_RETURN_IF_ERROR(expect_keyword("filtering"));
        s.allow_filtering = true;
    }
    return s;
}

}  // namespace tessel::cql
