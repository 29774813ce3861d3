#include "cql/parser.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <string>

#include "cql/parser_impl.h"

namespace tessel::cql {

namespace {

// Cassandra's reserved keywords (3.11, plus IS, MATERIALIZED and VIEW from
// 4.0): they need double quotes to be used as names. Every other keyword
// (key, value, type, ttl, writetime, count, json, date, text, ...) is a
// valid name.
constexpr std::string_view kReserved[] = {
    "add",      "allow",    "alter",        "and",          "apply",  "asc",         "authorize",
    "batch",    "begin",    "by",           "columnfamily", "create", "delete",      "desc",
    "describe", "drop",     "entries",      "execute",      "from",   "full",        "grant",
    "if",       "in",       "index",        "infinity",     "insert", "into",        "is",
    "keyspace", "limit",    "materialized", "modify",       "nan",    "norecursive", "not",
    "null",     "of",       "on",           "or",           "order",  "primary",     "rename",
    "revoke",   "schema",   "select",       "set",          "table",  "to",          "token",
    "truncate", "unlogged", "update",       "use",          "using",  "view",        "where",
    "with",
};

}  // namespace

bool is_reserved_keyword(std::string_view word) {
    return std::find(std::begin(kReserved), std::end(kReserved), word) != std::end(kReserved);
}

std::string maybe_quote(std::string_view name) {
    bool plain = !name.empty() && name[0] >= 'a' && name[0] <= 'z';
    for (char c : name) {
        plain = plain && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_');
    }
    if (plain && !is_reserved_keyword(name)) return std::string(name);
    std::string out = "\"";
    for (char c : name) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

// ---------------------------------------------------------------------------
// Token stream

const Token& Parser::peek(std::size_t ahead) const {
    std::size_t i = pos_ + ahead;
    return i < tokens_.size() ? tokens_[i] : tokens_.back();
}

const Token& Parser::advance() {
    const Token& t = peek();
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
}

bool Parser::accept_punct(std::string_view p) {
    if (!peek().is_punct(p)) return false;
    advance();
    return true;
}

bool Parser::accept_keyword(std::string_view kw) {
    if (!peek().is_keyword(kw)) return false;
    advance();
    return true;
}

Status Parser::expect_punct(std::string_view p) {
    if (accept_punct(p)) return Status::ok();
    return mismatched("'" + std::string(p) + "'");
}

Status Parser::expect_keyword(std::string_view kw) {
    if (accept_keyword(kw)) return Status::ok();
    std::string upper(kw);
    for (char& c : upper)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return mismatched("K_" + upper);
}

// The source around the current token, the offending token in brackets:
// up to 10 tokens before and 2 after, as Cassandra's error collector shows.
std::string Parser::snippet() const {
    const std::size_t eof = tokens_.size() - 1;  // index of the EOF token
    const std::size_t cur = std::min(pos_, eof);
    const std::size_t first = cur > 10 ? cur - 10 : 0;
    // Text ends at the last real token: trailing whitespace and comments are
    // not part of the snippet.
    auto end_of = [&](std::size_t i) { return tokens_[i].offset + tokens_[i].length; };
    const Token& t = tokens_[cur];
    std::string out = "(";
    if (cur > first) {
        const std::size_t begin = tokens_[first].offset;
        out.append(text_.substr(begin, end_of(cur - 1) - begin));
        if (t.kind != TokenKind::kEof)
            out.append(text_.substr(end_of(cur - 1), t.offset - end_of(cur - 1)));
    }
    out.append("[");
    if (t.kind != TokenKind::kEof) out.append(text_.substr(t.offset, t.length));
    out.append("]");
    if (cur < eof) {
        const std::size_t last = std::min(cur + 2, eof - 1);
        if (last > cur) out.append(text_.substr(end_of(cur), end_of(last) - end_of(cur)));
        if (last + 1 < eof) out.append("...");
    }
    out.append(")");
    return out;
}

static std::string token_display(std::string_view text, const Token& t) {
    if (t.kind == TokenKind::kEof) return "<EOF>";
    return std::string(text.substr(t.offset, t.length));
}

Status Parser::error_here(const std::string& message) const {
    const Token& t = peek();
    return Status::syntax("line " + std::to_string(t.line) + ":" + std::to_string(t.column) + " " +
                          message);
}

Status Parser::mismatched(const std::string& expected) const {
    return error_here("mismatched input '" + token_display(text_, peek()) + "' expecting " +
                      expected + " " + snippet());
}

Status Parser::no_viable() const {
    return error_here("no viable alternative at input '" + token_display(text_, peek()) + "' " +
                      snippet());
}

// ---------------------------------------------------------------------------
// Names

bool Parser::at_name(std::size_t ahead) const {
    const Token& t = peek(ahead);
    if (t.kind == TokenKind::kQuotedIdentifier) return true;
    return t.kind == TokenKind::kIdentifier && !is_reserved_keyword(t.text);
}

Result<std::string> Parser::name() {
    if (!at_name()) {
        if (peek().kind == TokenKind::kIdentifier) return no_viable();  // a reserved word
        return mismatched("IDENT");
    }
    return advance().text;
}

Result<QualifiedName> Parser::qualified_name() {
    QualifiedName q;
    TESSEL_ASSIGN_OR_RETURN(q.name, name());
    if (accept_punct(".")) {
        q.keyspace = std::move(q.name);
        TESSEL_ASSIGN_OR_RETURN(q.name, name());
    }
    return q;
}

Result<std::vector<std::string>> Parser::name_list_in_parens() {
    TESSEL_RETURN_IF_ERROR(expect_punct("("));
    std::vector<std::string> names;
    do {
        TESSEL_ASSIGN_OR_RETURN(auto n, name());
        names.push_back(std::move(n));
    } while (accept_punct(","));
    TESSEL_RETURN_IF_ERROR(expect_punct(")"));
    return names;
}

Result<bool> Parser::if_not_exists() {
    if (!peek().is_keyword("if")) return false;
    advance();
    TESSEL_RETURN_IF_ERROR(expect_keyword("not"));
    TESSEL_RETURN_IF_ERROR(expect_keyword("exists"));
    return true;
}

Result<bool> Parser::if_exists() {
    if (!peek().is_keyword("if")) return false;
    advance();
    TESSEL_RETURN_IF_ERROR(expect_keyword("exists"));
    return true;
}

// ---------------------------------------------------------------------------
// Statements

bool Parser::skip_semicolons() {
    while (accept_punct(";")) {
    }
    return !at_end();
}

Status Parser::expect_statement_end() {
    if (at_end() || peek().is_punct(";")) return Status::ok();
    return mismatched("';' or <EOF>");
}

Result<Statement> Parser::statement() {
    bind_names_.clear();
    const std::size_t start = peek().offset;
    const Token& first = peek();
    Result<StatementNode> node = no_viable();
    if (first.kind != TokenKind::kIdentifier) {
        node = no_viable();
    } else if (first.text == "select") {
        auto s = select_statement();
        node = s.is_ok() ? Result<StatementNode>(std::move(*s)) : s.status();
    } else if (first.text == "insert") {
        auto s = insert_statement();
        node = s.is_ok() ? Result<StatementNode>(std::move(*s)) : s.status();
    } else if (first.text == "update") {
        auto s = update_statement();
        node = s.is_ok() ? Result<StatementNode>(std::move(*s)) : s.status();
    } else if (first.text == "delete") {
        auto s = delete_statement();
        node = s.is_ok() ? Result<StatementNode>(std::move(*s)) : s.status();
    } else if (first.text == "begin") {
        node = batch_statement();
    } else if (first.text == "use") {
        node = use_statement();
    } else if (first.text == "create") {
        node = create_statement();
    } else if (first.text == "alter") {
        node = alter_statement();
    } else if (first.text == "drop") {
        node = drop_statement();
    } else if (first.text == "truncate") {
        node = truncate_statement();
    } else if (first.text == "describe" || first.text == "desc") {
        node = describe_statement();
    } else if (first.text == "grant" || first.text == "revoke" || first.text == "list") {
        node = auth_statement();
    }
    if (!node.is_ok()) return std::move(node).status();
    Statement st;
    st.node = std::move(*node);
    st.bind_names = std::move(bind_names_);
    bind_names_.clear();
    // The statement's text: from its first token to the end of its last one.
    const Token& last = tokens_[pos_ > 0 ? pos_ - 1 : 0];
    std::size_t end = last.offset + last.length;
    st.text = std::string(text_.substr(start, end > start ? end - start : 0));
    return st;
}

Result<Statement> parse_statement(std::string_view text) {
    TESSEL_ASSIGN_OR_RETURN(auto tokens, tokenize(text));
    Parser p(text, std::move(tokens));
    if (p.at_end()) return p.no_viable();
    TESSEL_ASSIGN_OR_RETURN(Statement st, p.statement());
    p.accept_punct(";");
    if (!p.at_end()) return p.mismatched("<EOF>");
    return st;
}

Result<std::vector<Statement>> parse_statements(std::string_view text) {
    TESSEL_ASSIGN_OR_RETURN(auto tokens, tokenize(text));
    Parser p(text, std::move(tokens));
    std::vector<Statement> out;
    while (p.skip_semicolons()) {
        TESSEL_ASSIGN_OR_RETURN(Statement st, p.statement());
        TESSEL_RETURN_IF_ERROR(p.expect_statement_end());
        out.push_back(std::move(st));
    }
    return out;
}

}  // namespace tessel::cql
