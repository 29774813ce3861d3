// The CQL parser: text -> AST (cql/ast.h).
//
// A hand-written recursive-descent parser for the Cassandra 3.11/4.0 grammar
// subset Tessel serves. It knows no schema: it checks syntax only (plus the
// few structural rules Cassandra's grammar itself enforces, such as matching
// column/value counts in INSERT and a single PRIMARY KEY in CREATE TABLE).
//
// Errors are Syntax_error with Cassandra-style messages:
//   line 1:9 no viable alternative at input 'FRM' (SELECT * [FRM]...)
//   line 1:14 mismatched input 'x' expecting K_FROM (SELECT a, b [x]...)
// Lines are 1-based, columns 0-based, as Cassandra reports them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "cql/ast.h"

namespace tessel::cql {

// Parses exactly one statement, optionally followed by `;`. Bind markers are
// numbered from 0 in order of appearance.
Result<Statement> parse_statement(std::string_view text);

// Parses a script of `;`-separated statements (empty statements are skipped;
// the last `;` is optional). Each statement numbers its own bind markers from
// 0 and carries its own source text. Stops at the first error.
Result<std::vector<Statement>> parse_statements(std::string_view text);

// True if `word` (lower-case) is a reserved CQL keyword, i.e. one that must be
// double-quoted to be used as a name. Used by DESCRIBE output to decide when
// to quote identifiers.
bool is_reserved_keyword(std::string_view word);

// A name as it must be written in CQL: unchanged if it is a valid unquoted
// identifier ([a-z][a-z0-9_]*) and not reserved, otherwise double-quoted with
// inner quotes doubled ("MyTable", "select", "a""b"), as Cassandra's
// ColumnIdentifier.maybeQuote does. For DESCRIBE output and error messages.
std::string maybe_quote(std::string_view name);

}  // namespace tessel::cql
