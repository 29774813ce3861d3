// Data modification: INSERT, UPDATE, DELETE, BATCH, and the WHERE relations
// and IF conditions they share with SELECT.
#include <string>

#include "cql/parser_impl.h"

namespace tessel::cql {

// USING TTL x AND TIMESTAMP y (either order, each at most once).
Result<UsingClause> Parser::using_clause(bool allow_ttl) {
    UsingClause u;
    do {
        if (allow_ttl && peek().is_keyword("ttl")) {
            if (u.ttl) return error_here("TTL given more than once " + snippet());
            advance();
            TESSEL_ASSIGN_OR_RETURN(Term t, term());
            u.ttl = std::move(t);
        } else if (peek().is_keyword("timestamp")) {
            if (u.timestamp) return error_here("TIMESTAMP given more than once " + snippet());
            advance();
            TESSEL_ASSIGN_OR_RETURN(Term t, term());
            u.timestamp = std::move(t);
        } else {
            return mismatched(allow_ttl ? "K_TTL or K_TIMESTAMP" : "K_TIMESTAMP");
        }
    } while (accept_keyword("and"));
    return u;
}

// INSERT INTO t (cols) VALUES (terms) | INSERT INTO t JSON 'doc' [DEFAULT NULL|UNSET]
//   then [IF NOT EXISTS] [USING ...] (accepted in either order).
Result<InsertStatement> Parser::insert_statement() {
    TESSEL_RETURN_IF_ERROR(expect_keyword("insert"));
    TESSEL_RETURN_IF_ERROR(expect_keyword("into"));
    InsertStatement s;
    TESSEL_ASSIGN_OR_RETURN(s.table, qualified_name());
    if (peek().is_keyword("json") && !peek(1).is_punct("(")) {
        advance();
        s.json = true;
        if (peek().kind == TokenKind::kString) {
            Term t;
            t.value = Literal::scalar(Literal::Kind::kString, advance().text);
            s.json_value = std::move(t);
        } else if (at_bind_marker()) {
            TESSEL_ASSIGN_OR_RETURN(Term t, bind_marker());
            s.json_value = std::move(t);
        } else {
            return mismatched("STRING_LITERAL or a bind marker");
        }
        if (accept_keyword("default")) {
            if (accept_keyword("unset")) {
                s.json_default_unset = true;
            } else if (!accept_keyword("null")) {
                return mismatched("K_NULL or K_UNSET");
            }
        }
    } else {
        const Token& open = peek();
        TESSEL_ASSIGN_OR_RETURN(s.columns, name_list_in_parens());
        TESSEL_RETURN_IF_ERROR(expect_keyword("values"));
        TESSEL_RETURN_IF_ERROR(expect_punct("("));
        do {
            TESSEL_ASSIGN_OR_RETURN(Term t, term());
            s.values.push_back(std::move(t));
        } while (accept_punct(","));
        TESSEL_RETURN_IF_ERROR(expect_punct(")"));
        if (s.columns.size() != s.values.size()) {
            return Status::syntax(
                "line " + std::to_string(open.line) + ":" + std::to_string(open.column) +
                " Unmatched column names/values: " + std::to_string(s.columns.size()) +
                " columns, " + std::to_string(s.values.size()) + " values");
        }
    }
    for (int i = 0; i < 2; ++i) {
        if (!s.if_not_exists && peek().is_keyword("if")) {
            TESSEL_ASSIGN_OR_RETURN(s.if_not_exists, if_not_exists());
        } else if (!s.using_clause.ttl && !s.using_clause.timestamp && accept_keyword("using")) {
            TESSEL_ASSIGN_OR_RETURN(s.using_clause, using_clause(true));
        }
    }
    return s;
}

// One SET assignment (see Assignment::Kind).
Result<Assignment> Parser::assignment() {
    Assignment a;
    TESSEL_ASSIGN_OR_RETURN(a.column, name());
    if (accept_punct("[")) {
        a.kind = Assignment::Kind::kSetElement;
        TESSEL_ASSIGN_OR_RETURN(Term key, term());
        a.key = std::move(key);
        TESSEL_RETURN_IF_ERROR(expect_punct("]"));
        TESSEL_RETURN_IF_ERROR(expect_punct("="));
        TESSEL_ASSIGN_OR_RETURN(a.value, term());
        return a;
    }
    if (accept_punct(".")) {
        a.kind = Assignment::Kind::kSetField;
        TESSEL_ASSIGN_OR_RETURN(a.field, name());
        TESSEL_RETURN_IF_ERROR(expect_punct("="));
        TESSEL_ASSIGN_OR_RETURN(a.value, term());
        return a;
    }
    if (accept_punct("+=")) {
        a.kind = Assignment::Kind::kAdd;
        TESSEL_ASSIGN_OR_RETURN(a.value, term());
        return a;
    }
    if (accept_punct("-=")) {
        a.kind = Assignment::Kind::kSubtract;
        TESSEL_ASSIGN_OR_RETURN(a.value, term());
        return a;
    }
    TESSEL_RETURN_IF_ERROR(expect_punct("="));
    // c = c + term | c = c - term
    if (at_name() && (peek(1).is_punct("+") || peek(1).is_punct("-"))) {
        std::string other = advance().text;
        const std::string op = advance().text;
        if (other != a.column) {
            return error_here("Only expressions of the form X = X " + op +
                              " <value> are supported " + snippet());
        }
        a.kind = op == "+" ? Assignment::Kind::kAdd : Assignment::Kind::kSubtract;
        TESSEL_ASSIGN_OR_RETURN(a.value, term());
        return a;
    }
    TESSEL_ASSIGN_OR_RETURN(a.value, term());
    // c = term + c (list prepend)
    if (accept_punct("+")) {
        TESSEL_ASSIGN_OR_RETURN(std::string other, name());
        if (other != a.column) {
            return error_here("Only expressions of the form X = <value> + X are supported " +
                              snippet());
        }
        a.kind = Assignment::Kind::kPrepend;
        return a;
    }
    a.kind = Assignment::Kind::kSet;
    return a;
}

Result<UpdateStatement> Parser::update_statement() {
    TESSEL_RETURN_IF_ERROR(expect_keyword("update"));
    UpdateStatement s;
    TESSEL_ASSIGN_OR_RETURN(s.table, qualified_name());
    if (accept_keyword("using")) {
        TESSEL_ASSIGN_OR_RETURN(s.using_clause, using_clause(true));
    }
    TESSEL_RETURN_IF_ERROR(expect_keyword("set"));
    do {
        TESSEL_ASSIGN_OR_RETURN(Assignment a, assignment());
        s.assignments.push_back(std::move(a));
    } while (accept_punct(","));
    TESSEL_ASSIGN_OR_RETURN(s.where, where_clause());
    if (accept_keyword("if")) TESSEL_RETURN_IF_ERROR(if_clause(s.if_exists, s.conditions));
    return s;
}

// DELETE [targets] FROM t [USING TIMESTAMP x] WHERE ... [IF ...]
Result<DeleteStatement> Parser::delete_statement() {
    TESSEL_RETURN_IF_ERROR(expect_keyword("delete"));
    DeleteStatement s;
    if (!peek().is_keyword("from")) {
        do {
            Deletion d;
            TESSEL_ASSIGN_OR_RETURN(d.column, name());
            if (accept_punct("[")) {
                TESSEL_ASSIGN_OR_RETURN(Term e, term());
                d.element = std::move(e);
                TESSEL_RETURN_IF_ERROR(expect_punct("]"));
            } else if (accept_punct(".")) {
                TESSEL_ASSIGN_OR_RETURN(d.field, name());
            }
            s.columns.push_back(std::move(d));
        } while (accept_punct(","));
    }
    TESSEL_RETURN_IF_ERROR(expect_keyword("from"));
    TESSEL_ASSIGN_OR_RETURN(s.table, qualified_name());
    if (accept_keyword("using")) {
        TESSEL_ASSIGN_OR_RETURN(s.using_clause, using_clause(false));
    }
    TESSEL_ASSIGN_OR_RETURN(s.where, where_clause());
    if (accept_keyword("if")) TESSEL_RETURN_IF_ERROR(if_clause(s.if_exists, s.conditions));
    return s;
}

// BEGIN [UNLOGGED | COUNTER] BATCH [USING TIMESTAMP x] stmt [;] ... APPLY BATCH
Result<StatementNode> Parser::batch_statement() {
    TESSEL_RETURN_IF_ERROR(expect_keyword("begin"));
    BatchStatement b;
    if (accept_keyword("unlogged")) {
        b.kind = BatchStatement::Kind::kUnlogged;
    } else if (accept_keyword("counter")) {
        b.kind = BatchStatement::Kind::kCounter;
    }
    TESSEL_RETURN_IF_ERROR(expect_keyword("batch"));
    // TTL is accepted here and rejected when the batch is prepared, as
    // Cassandra does ("Global TTL on the BATCH statement is not supported").
    if (accept_keyword("using")) {
        TESSEL_ASSIGN_OR_RETURN(b.using_clause, using_clause(true));
    }
    while (true) {
        while (accept_punct(";")) {
        }
        if (peek().is_keyword("apply")) break;
        if (peek().is_keyword("insert")) {
            TESSEL_ASSIGN_OR_RETURN(InsertStatement s, insert_statement());
            b.statements.emplace_back(std::move(s));
        } else if (peek().is_keyword("update")) {
            TESSEL_ASSIGN_OR_RETURN(UpdateStatement s, update_statement());
            b.statements.emplace_back(std::move(s));
        } else if (peek().is_keyword("delete")) {
            TESSEL_ASSIGN_OR_RETURN(DeleteStatement s, delete_statement());
            b.statements.emplace_back(std::move(s));
        } else {
            return mismatched("K_INSERT, K_UPDATE, K_DELETE or K_APPLY");
        }
    }
    TESSEL_RETURN_IF_ERROR(expect_keyword("apply"));
    TESSEL_RETURN_IF_ERROR(expect_keyword("batch"));
    return StatementNode(std::move(b));
}

Result<std::vector<Relation>> Parser::where_clause() {
    TESSEL_RETURN_IF_ERROR(expect_keyword("where"));
    std::vector<Relation> out;
    do {
        TESSEL_ASSIGN_OR_RETURN(Relation r, relation());
        out.push_back(std::move(r));
    } while (accept_keyword("and"));
    return out;
}

Result<Operator> Parser::relation_operator() {
    const Token& t = peek();
    if (t.kind == TokenKind::kPunct) {
        static const std::pair<std::string_view, Operator> kOps[] = {
            {"=", Operator::kEq},   {"!=", Operator::kNeq}, {"<", Operator::kLt},
            {"<=", Operator::kLte}, {">", Operator::kGt},   {">=", Operator::kGte},
        };
        for (const auto& [sym, op] : kOps) {
            if (t.text == sym) {
                advance();
                return op;
            }
        }
    } else if (t.kind == TokenKind::kIdentifier) {
        if (accept_keyword("in")) return Operator::kIn;
        if (accept_keyword("like")) return Operator::kLike;
        if (accept_keyword("contains")) {
            return accept_keyword("key") ? Operator::kContainsKey : Operator::kContains;
        }
        if (peek().is_keyword("is") && peek(1).is_keyword("not") && peek(2).is_keyword("null")) {
            advance();
            advance();
            advance();
            return Operator::kIsNotNull;
        }
    }
    return no_viable();
}

// The right side of IN: `(t1, t2, ...)` (possibly empty) or one bind marker.
Result<InValues> Parser::in_values(bool tuples) {
    InValues v;
    if (at_bind_marker()) {
        TESSEL_ASSIGN_OR_RETURN(Term t, bind_marker());
        v.single = std::move(t);
        return v;
    }
    TESSEL_RETURN_IF_ERROR(expect_punct("("));
    v.is_list = true;
    if (accept_punct(")")) return v;
    do {
        if (tuples && !peek().is_punct("(") && !at_bind_marker()) return mismatched("'('");
        TESSEL_ASSIGN_OR_RETURN(Term t, term());
        v.list.push_back(std::move(t));
    } while (accept_punct(","));
    TESSEL_RETURN_IF_ERROR(expect_punct(")"));
    return v;
}

Result<Relation> Parser::relation() {
    Relation r;
    if (peek().is_punct("(")) {
        r.kind = Relation::Kind::kMultiColumn;
        TESSEL_ASSIGN_OR_RETURN(r.columns, name_list_in_parens());
    } else if (peek().is_keyword("token") && peek(1).is_punct("(")) {
        r.kind = Relation::Kind::kToken;
        advance();
        TESSEL_ASSIGN_OR_RETURN(r.columns, name_list_in_parens());
    } else {
        TESSEL_ASSIGN_OR_RETURN(std::string col, name());
        r.columns.push_back(std::move(col));
        if (accept_punct("[")) {
            r.kind = Relation::Kind::kMapEntry;
            TESSEL_ASSIGN_OR_RETURN(Term key, term());
            r.map_key = std::move(key);
            TESSEL_RETURN_IF_ERROR(expect_punct("]"));
        }
    }
    TESSEL_ASSIGN_OR_RETURN(r.op, relation_operator());
    if (r.op == Operator::kIsNotNull) return r;
    if (r.op == Operator::kIn) {
        TESSEL_ASSIGN_OR_RETURN(r.in_values, in_values(r.kind == Relation::Kind::kMultiColumn));
        return r;
    }
    if (r.kind == Relation::Kind::kMultiColumn && !peek().is_punct("(") && !at_bind_marker()) {
        return mismatched("'(' or a bind marker");
    }
    TESSEL_ASSIGN_OR_RETURN(Term v, term());
    r.value = std::move(v);
    return r;
}

// col op term | col[key] op term | col.field op term | col IN (...)
Result<Condition> Parser::condition() {
    Condition c;
    TESSEL_ASSIGN_OR_RETURN(c.column, name());
    if (accept_punct("[")) {
        TESSEL_ASSIGN_OR_RETURN(Term e, term());
        c.element = std::move(e);
        TESSEL_RETURN_IF_ERROR(expect_punct("]"));
    } else if (accept_punct(".")) {
        TESSEL_ASSIGN_OR_RETURN(c.field, name());
    }
    TESSEL_ASSIGN_OR_RETURN(c.op, relation_operator());
    if (c.op == Operator::kIsNotNull) return no_viable();
    if (c.op == Operator::kIn) {
        TESSEL_ASSIGN_OR_RETURN(c.in_values, in_values(false));
        return c;
    }
    TESSEL_ASSIGN_OR_RETURN(Term v, term());
    c.value = std::move(v);
    return c;
}

// After IF: EXISTS, or conditions joined by AND.
Status Parser::if_clause(bool& exists, std::vector<Condition>& conditions) {
    if (accept_keyword("exists")) {
        exists = true;
        return Status::ok();
    }
    do {
        TESSEL_ASSIGN_OR_RETURN(Condition c, condition());
        conditions.push_back(std::move(c));
    } while (accept_keyword("and"));
    return Status::ok();
}

}  // namespace tessel::cql
