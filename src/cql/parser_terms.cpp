// Terms, types and WITH options.
#include <set>
#include <string>
#include <string_view>

#include "cql/parser_impl.h"

namespace tessel::cql {

namespace {

bool is_native_type(const std::string& n) {
    static constexpr std::string_view kNative[] = {
        "ascii",  "bigint",    "blob",     "boolean", "counter", "date",     "decimal",
        "double", "duration",  "float",    "inet",    "int",     "smallint", "text",
        "time",   "timestamp", "timeuuid", "tinyint", "uuid",    "varchar",  "varint",
    };
    for (std::string_view k : kNative)
        if (n == k) return true;
    return false;
}

// Maps a constant token to its Literal kind; false if it is not a constant.
bool constant_kind(const Token& t, Literal::Kind& kind) {
    switch (t.kind) {
        case TokenKind::kString:
            kind = Literal::Kind::kString;
            return true;
        case TokenKind::kInteger:
            kind = Literal::Kind::kInteger;
            return true;
        case TokenKind::kFloat:
            kind = Literal::Kind::kFloat;
            return true;
        case TokenKind::kUuid:
            kind = Literal::Kind::kUuid;
            return true;
        case TokenKind::kHex:
            kind = Literal::Kind::kHex;
            return true;
        case TokenKind::kDuration:
            kind = Literal::Kind::kDuration;
            return true;
        case TokenKind::kBoolean:
            kind = Literal::Kind::kBoolean;
            return true;
        case TokenKind::kIdentifier:
            if (t.text == "nan" || t.text == "infinity") {
                kind = Literal::Kind::kFloat;
                return true;
            }
            return false;
        default:
            return false;
    }
}

// Text a constant keeps: the unescaped string, the lower-cased boolean, or the
// source spelling for everything else ("NaN", "0xCAFE", "1h30m").
std::string constant_text(std::string_view src, const Token& t) {
    if (t.kind == TokenKind::kString || t.kind == TokenKind::kBoolean) return t.text;
    return std::string(src.substr(t.offset, t.length));
}

}  // namespace

Term fold_collection(CollectionTerm c) {
    bool constant = true;
    for (const Term& e : c.elements)
        constant = constant && e.is_literal() && e.type_hint.empty();
    for (const auto& [k, v] : c.entries)
        constant = constant && k.is_literal() && v.is_literal() && k.type_hint.empty() &&
                   v.type_hint.empty();
    for (const auto& f : c.fields)
        constant = constant && f.second.is_literal() && f.second.type_hint.empty();
    Term t;
    if (!constant) {
        t.value = std::move(c);
        return t;
    }
    Literal lit;
    lit.kind = c.kind;
    for (Term& e : c.elements)
        lit.elements.push_back(std::get<Literal>(std::move(e.value)));
    for (auto& [k, v] : c.entries)
        lit.entries.emplace_back(std::get<Literal>(std::move(k.value)),
                                 std::get<Literal>(std::move(v.value)));
    for (auto& [name, v] : c.fields)
        lit.fields.emplace_back(std::move(name), std::get<Literal>(std::move(v.value)));
    t.value = std::move(lit);
    return t;
}

BindMarker Parser::new_bind_marker(std::string marker_name) {
    BindMarker m;
    m.index = static_cast<int>(bind_names_.size());
    m.name = marker_name;
    bind_names_.push_back(std::move(marker_name));
    return m;
}

bool Parser::at_bind_marker() const {
    return peek().is_punct("?") ||
           (peek().is_punct(":") && (peek(1).kind == TokenKind::kIdentifier ||
                                     peek(1).kind == TokenKind::kQuotedIdentifier));
}

Result<Term> Parser::bind_marker() {
    Term t;
    if (accept_punct("?")) {
        t.value = new_bind_marker("");
        return t;
    }
    TESSEL_RETURN_IF_ERROR(expect_punct(":"));
    const Token& n = peek();
    if (n.kind != TokenKind::kIdentifier && n.kind != TokenKind::kQuotedIdentifier)
        return mismatched("IDENT");
    std::string marker_name = advance().text;
    t.value = new_bind_marker(std::move(marker_name));
    return t;
}

// term: constant | NULL | bind marker | -number | function call
//     | [list] | {set} | {map} | {udt} | (tuple) | (type) term
Result<Term> Parser::term() {
    const DepthGuard guard = enter();
    if (guard.too_deep()) return too_deep();
    const Token& t = peek();
    Literal::Kind kind;
    if (constant_kind(t, kind)) {
        Term out;
        out.value = Literal::scalar(kind, constant_text(text_, t));
        advance();
        return out;
    }
    if (t.is_punct("-")) {
        // A negative number: '-' directly applied to a numeric constant.
        const Token& n = peek(1);
        if (constant_kind(n, kind) &&
            (kind == Literal::Kind::kInteger || kind == Literal::Kind::kFloat ||
             kind == Literal::Kind::kDuration)) {
            Term out;
            out.value = Literal::scalar(kind, "-" + constant_text(text_, n));
            advance();
            advance();
            return out;
        }
        return no_viable();
    }
    if (t.is_keyword("null")) {
        advance();
        return Term{Literal::null(), {}};
    }
    if (at_bind_marker()) return bind_marker();
    if (t.is_punct("[")) return collection_term('[');
    if (t.is_punct("{")) return collection_term('{');
    if (t.is_punct("(")) {
        // A type hint `(int) ?` starts with a type name not followed by '('
        // (which would make it a function call inside a tuple).
        const Token& n = peek(1);
        Literal::Kind k;
        bool hint = (n.kind == TokenKind::kIdentifier && !constant_kind(n, k) && n.text != "null" &&
                     !peek(2).is_punct("(")) ||
                    (n.kind == TokenKind::kQuotedIdentifier && peek(2).is_punct(")"));
        if (hint) {
            advance();
            TESSEL_ASSIGN_OR_RETURN(TypeName type_name, type());
            TESSEL_RETURN_IF_ERROR(expect_punct(")"));
            TESSEL_ASSIGN_OR_RETURN(Term inner, term());
            inner.type_hint.clear();
            inner.type_hint.push_back(std::move(type_name));
            return inner;
        }
        return collection_term('(');
    }
    if ((t.kind == TokenKind::kIdentifier || t.kind == TokenKind::kQuotedIdentifier)) {
        // Function call: f(args) or ks.f(args).
        FunctionCall call;
        if (peek(1).is_punct("(")) {
            call.name = advance().text;
        } else if (peek(1).is_punct(".") &&
                   (peek(2).kind == TokenKind::kIdentifier ||
                    peek(2).kind == TokenKind::kQuotedIdentifier) &&
                   peek(3).is_punct("(")) {
            call.keyspace = advance().text;
            advance();
            call.name = advance().text;
        } else {
            return no_viable();
        }
        advance();  // (
        if (!peek().is_punct(")")) {
            do {
                TESSEL_ASSIGN_OR_RETURN(Term arg, term());
                call.args.push_back(std::move(arg));
            } while (accept_punct(","));
        }
        TESSEL_RETURN_IF_ERROR(expect_punct(")"));
        Term out;
        out.value = std::move(call);
        return out;
    }
    return no_viable();
}

// [a, b] lists, (a, b) tuples, and {...}: {} (empty set), {a, b} sets,
// {k: v} maps and {field: v} user type values (bare identifier keys).
Result<Term> Parser::collection_term(char open) {
    advance();  // the opening bracket
    CollectionTerm c;
    if (open == '[') {
        c.kind = Literal::Kind::kList;
        if (!accept_punct("]")) {
            do {
                TESSEL_ASSIGN_OR_RETURN(Term e, term());
                c.elements.push_back(std::move(e));
            } while (accept_punct(","));
            TESSEL_RETURN_IF_ERROR(expect_punct("]"));
        }
        return fold_collection(std::move(c));
    }
    if (open == '(') {
        c.kind = Literal::Kind::kTuple;
        do {
            TESSEL_ASSIGN_OR_RETURN(Term e, term());
            c.elements.push_back(std::move(e));
        } while (accept_punct(","));
        TESSEL_RETURN_IF_ERROR(expect_punct(")"));
        return fold_collection(std::move(c));
    }
    // '{'
    if (accept_punct("}")) {
        c.kind = Literal::Kind::kSet;
        return fold_collection(std::move(c));
    }
    // A user type literal: a bare name followed by ':' (a function call or a
    // NaN/Infinity constant would not be followed by ':').
    bool udt =
        (peek().kind == TokenKind::kIdentifier || peek().kind == TokenKind::kQuotedIdentifier) &&
        peek(1).is_punct(":") && peek().text != "nan" && peek().text != "infinity";
    if (udt) {
        c.kind = Literal::Kind::kUdt;
        do {
            const Token& f = peek();
            if (f.kind != TokenKind::kIdentifier && f.kind != TokenKind::kQuotedIdentifier)
                return mismatched("IDENT");
            std::string field = advance().text;
            TESSEL_RETURN_IF_ERROR(expect_punct(":"));
            TESSEL_ASSIGN_OR_RETURN(Term v, term());
            c.fields.emplace_back(std::move(field), std::move(v));
        } while (accept_punct(","));
        TESSEL_RETURN_IF_ERROR(expect_punct("}"));
        return fold_collection(std::move(c));
    }
    TESSEL_ASSIGN_OR_RETURN(Term first, term());
    if (accept_punct(":")) {
        c.kind = Literal::Kind::kMap;
        TESSEL_ASSIGN_OR_RETURN(Term v, term());
        c.entries.emplace_back(std::move(first), std::move(v));
        while (accept_punct(",")) {
            TESSEL_ASSIGN_OR_RETURN(Term k, term());
            TESSEL_RETURN_IF_ERROR(expect_punct(":"));
            TESSEL_ASSIGN_OR_RETURN(Term val, term());
            c.entries.emplace_back(std::move(k), std::move(val));
        }
    } else {
        c.kind = Literal::Kind::kSet;
        c.elements.push_back(std::move(first));
        while (accept_punct(",")) {
            TESSEL_ASSIGN_OR_RETURN(Term e, term());
            c.elements.push_back(std::move(e));
        }
    }
    TESSEL_RETURN_IF_ERROR(expect_punct("}"));
    return fold_collection(std::move(c));
}

// type: native | list<T> | set<T> | map<K, V> | tuple<T, ...> | frozen<T>
//     | [ks.]udt | 'custom.Class'
Result<TypeName> Parser::type() {
    const DepthGuard guard = enter();
    if (guard.too_deep()) return too_deep();
    TypeName out;
    const Token& t = peek();
    if (t.kind == TokenKind::kString) {
        out.name = advance().text;
        out.custom = true;
        return out;
    }
    if (t.kind == TokenKind::kIdentifier && peek(1).is_punct("<")) {
        const std::string n = t.text;
        std::size_t arity = 0;  // 0 = one or more
        if (n == "frozen" || n == "list" || n == "set") {
            arity = 1;
        } else if (n == "map") {
            arity = 2;
        } else if (n != "tuple") {
            return no_viable();
        }
        advance();
        advance();  // <
        std::vector<TypeName> params;
        do {
            TESSEL_ASSIGN_OR_RETURN(TypeName p, type());
            params.push_back(std::move(p));
        } while (accept_punct(","));
        if (arity != 0 && params.size() != arity) {
            return error_here("the type " + n + " takes " + std::to_string(arity) +
                              (arity == 1 ? " parameter" : " parameters") + ", got " +
                              std::to_string(params.size()) + " " + snippet());
        }
        TESSEL_RETURN_IF_ERROR(expect_punct(">"));
        if (n == "frozen") {
            out = std::move(params[0]);
            out.frozen = true;
            return out;
        }
        out.name = n;
        out.params = std::move(params);
        return out;
    }
    if (t.kind == TokenKind::kIdentifier && is_native_type(t.text)) {
        out.name = advance().text;
        return out;
    }
    // A user type: [ks.]name. Reserved words need quoting here like anywhere.
    TESSEL_ASSIGN_OR_RETURN(QualifiedName q, qualified_name());
    out.keyspace = std::move(q.keyspace);
    out.name = std::move(q.name);
    return out;
}

// name = value, where value is a constant, a map literal or a bare identifier.
Result<Property> Parser::property() {
    Property p;
    const Token& n = peek();
    if (n.kind != TokenKind::kIdentifier && n.kind != TokenKind::kQuotedIdentifier)
        return mismatched("IDENT");
    p.name = advance().text;
    TESSEL_RETURN_IF_ERROR(expect_punct("="));
    const Token& v = peek();
    if ((v.kind == TokenKind::kIdentifier || v.kind == TokenKind::kQuotedIdentifier) &&
        v.text != "nan" && v.text != "infinity" && v.text != "null") {
        p.identifier = true;
        p.value = Literal::scalar(Literal::Kind::kString, advance().text);
        return p;
    }
    const std::size_t at = pos_;
    TESSEL_ASSIGN_OR_RETURN(Term value, term());
    if (!value.is_literal()) {
        pos_ = at;
        return error_here("option '" + p.name +
                          "' needs a constant or a map of constants, not a bind marker or "
                          "function call " +
                          snippet());
    }
    p.value = std::get<Literal>(std::move(value.value));
    // Cassandra's convertPropertyMap: a key given twice is a syntax error.
    std::set<std::string_view> keys;
    for (const auto& [k, _] : p.value.entries) {
        if (!keys.insert(k.text).second) {
            return Status::syntax("Multiple definition for property " + k.text);
        }
    }
    return p;
}

Status Parser::add_property(std::vector<Property>& props, Property p) {
    // Cassandra's PropertyDefinitions.addProperty.
    for (const auto& q : props) {
        if (q.name == p.name) {
            return Status::syntax("Multiple definition for property '" + p.name + "'");
        }
    }
    props.push_back(std::move(p));
    return Status::ok();
}

Result<std::vector<Property>> Parser::properties() {
    std::vector<Property> out;
    do {
        TESSEL_ASSIGN_OR_RETURN(Property p, property());
        TESSEL_RETURN_IF_ERROR(add_property(out, std::move(p)));
    } while (accept_keyword("and"));
    return out;
}

}  // namespace tessel::cql
