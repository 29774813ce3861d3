// Internal to the parser: the Parser class shared by parser*.cpp.
//
// Each grammar area lives in its own file: parser.cpp (token stream, errors,
// names, statement dispatch), parser_terms.cpp (terms, types, options),
// parser_ddl.cpp (keyspaces, tables, types, DESCRIBE), parser_dml.cpp
// (INSERT, UPDATE, DELETE, BATCH, relations, conditions) and
// parser_select.cpp (SELECT) and parser_auth.cpp (roles and permissions).
//
// Parse methods return Result/Status and never throw; the first error stops
// parsing and is returned unchanged.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "cql/ast.h"
#include "cql/lexer.h"

namespace tessel::cql {

class Parser {
  public:
    Parser(std::string_view text, std::vector<Token> tokens)
        : text_(text), tokens_(std::move(tokens)) {}

    // Parses one statement starting at the current token (not consuming the
    // terminating `;`). Bind markers are numbered from 0 for this statement.
    Result<Statement> statement();

    // Skips any `;` tokens; true if input remains.
    bool skip_semicolons();
    bool at_end() const { return peek().kind == TokenKind::kEof; }
    // Requires `;` or end of input after a statement.
    Status expect_statement_end();

    // --- token stream (parser.cpp) ---
    const Token& peek(std::size_t ahead = 0) const;
    const Token& advance();
    bool accept_punct(std::string_view p);
    bool accept_keyword(std::string_view kw);
    Status expect_punct(std::string_view p);
    Status expect_keyword(std::string_view kw);
    // "line L:C mismatched input 'x' expecting <expected> (snippet)".
    Status mismatched(const std::string& expected) const;
    // "line L:C no viable alternative at input 'x' (snippet)".
    Status no_viable() const;
    Status error_here(const std::string& message) const;

    // --- names (parser.cpp) ---
    // An identifier usable as a name: a quoted identifier, or an unquoted
    // word that is not a reserved keyword.
    bool at_name(std::size_t ahead = 0) const;
    Result<std::string> name();
    Result<QualifiedName> qualified_name();
    Result<std::vector<std::string>> name_list_in_parens();
    // IF NOT EXISTS / IF EXISTS when present.
    Result<bool> if_not_exists();
    Result<bool> if_exists();

    // --- terms, types, options (parser_terms.cpp) ---
    Result<Term> term();
    Result<TypeName> type();
    Result<std::vector<Property>> properties();
    Result<Property> property();
    // Appends `p`; a name given twice is Cassandra's syntax error.
    static Status add_property(std::vector<Property>& props, Property p);
    BindMarker new_bind_marker(std::string name);
    bool at_bind_marker() const;
    Result<Term> bind_marker();

    // --- DDL (parser_ddl.cpp) ---
    Result<StatementNode> use_statement();
    Result<StatementNode> create_statement();
    Result<StatementNode> alter_statement();
    Result<StatementNode> drop_statement();
    Result<StatementNode> truncate_statement();
    Result<StatementNode> describe_statement();

    // --- DML (parser_dml.cpp) ---
    Result<InsertStatement> insert_statement();
    Result<UpdateStatement> update_statement();
    Result<DeleteStatement> delete_statement();
    Result<StatementNode> batch_statement();
    Result<std::vector<Relation>> where_clause();
    Result<Relation> relation();
    Result<UsingClause> using_clause(bool allow_ttl);
    // After IF: EXISTS or conditions.
    Status if_clause(bool& if_exists, std::vector<Condition>& conditions);
    Result<InValues> in_values(bool tuples);

    // --- SELECT (parser_select.cpp) ---
    Result<SelectStatement> select_statement();

    // --- roles and permissions (parser_auth.cpp) ---
    // After CREATE/ALTER/DROP (verb): ROLE ... or USER ...
    Result<StatementNode> role_statement(std::string_view verb);
    // GRANT, REVOKE and LIST statements.
    Result<StatementNode> auth_statement();

  private:
    // allow_primary_key: CREATE TABLE accepts `col type PRIMARY KEY`, ALTER ADD does not.
    Result<ColumnDefinition> column_definition(bool allow_primary_key);
    Status table_body(CreateTableStatement& stmt);
    Status table_properties(CreateTableStatement& stmt);
    Result<StatementNode> create_table();
    Result<StatementNode> create_keyspace();
    Result<StatementNode> create_type();
    Result<StatementNode> alter_table();
    Result<StatementNode> alter_type();
    Result<Assignment> assignment();
    Result<Condition> condition();
    Result<Operator> relation_operator();
    Result<Selector> selector();
    Result<Selector> selector_argument();
    Result<Term> collection_term(char open);
    Result<Term> limit_value();
    Result<std::string> role_name();
    Status role_options(AuthStatement& s);
    Result<uint32_t> permissions();
    Result<AuthResource> auth_resource();

    Status unsupported_object(std::string_view verb, std::string_view expected);
    std::string snippet() const;

    std::string_view text_;
    std::vector<Token> tokens_;
    std::size_t pos_ = 0;
    std::vector<std::string> bind_names_;

  public:
    // Nesting limit for terms, types and selectors: deeper input is rejected
    // with Syntax_error instead of exhausting the stack.
    static constexpr int kMaxDepth = 64;
    // Counts one level of nesting for its lifetime (see enter()).
    class DepthGuard {
      public:
        explicit DepthGuard(int& depth) : depth_(depth) { ++depth_; }
        ~DepthGuard() { --depth_; }
        DepthGuard(const DepthGuard&) = delete;
        DepthGuard& operator=(const DepthGuard&) = delete;
        bool too_deep() const { return depth_ > kMaxDepth; }

      private:
        int& depth_;
    };
    DepthGuard enter() { return DepthGuard(depth_); }
    Status too_deep() const {
        return error_here("input is nested more than " + std::to_string(kMaxDepth) +
                          " levels deep");
    }

  private:
    int depth_ = 0;
};

// Folds a CollectionTerm to a Literal when every element is a constant.
Term fold_collection(CollectionTerm collection);

}  // namespace tessel::cql
