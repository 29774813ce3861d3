// The CQL abstract syntax tree: what the parser (cql/parser.h) produces and
// what prepare binds to the schema.
//
// Everything here is a plain value type (copyable, movable, comparable by
// inspection): no pointers into the source text, no schema knowledge. Names
// are already normalised the way Cassandra does it: unquoted identifiers are
// lower-cased, double-quoted ones keep their case. Types stay as written
// (TypeName) because resolving a user type needs the schema.
//
// Bind markers (`?` and `:name`) are numbered 0, 1, 2... in order of
// appearance across the whole statement (a BATCH numbers across its children),
// and Statement::bind_names records one entry per marker.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "cql/ast_auth.h"
#include "types/literal.h"

namespace tessel::cql {

// ---------------------------------------------------------------------------
// Names and types

// [keyspace.]name. An empty keyspace means "the session's current keyspace".
struct QualifiedName {
    std::string keyspace;
    std::string name;
};

// A type as written: int, list<text>, frozen<map<int, text>>, tuple<int, text>,
// ks.my_udt, 'org.example.CustomType'. Resolution to CqlType happens at
// prepare time (user types live in the schema).
struct TypeName {
    // Lower-cased native name ("int", "text", "varchar", "timeuuid", ...),
    // "list" / "set" / "map" / "tuple" for parameterised types, the user type
    // name for a UDT, or the class string for a custom type.
    std::string name;
    // For user types written ks.name; empty otherwise.
    std::string keyspace;
    // list/set: {element}; map: {key, value}; tuple: its components.
    std::vector<TypeName> params;
    // Written inside frozen<...>. frozen<frozen<x>> collapses to one flag.
    bool frozen = false;
    // Written as a quoted class string ('org.apache...'); name holds the string.
    bool custom = false;
};

// ---------------------------------------------------------------------------
// Terms: the right-hand sides of assignments, relations and conditions.

struct Term;

// `?` (name empty) or `:name`. index is the position among all markers of the
// statement, starting at 0.
struct BindMarker {
    int index = 0;
    std::string name;  // lower-cased unless it was double-quoted; empty for `?`
};

// f(args), e.g. now(), uuid(), toTimestamp(now()), textAsBlob('x'),
// system.blobAsText(?). The name keeps its case as normalised by the lexer
// (unquoted names lower-cased: "totimestamp").
struct FunctionCall {
    std::string keyspace;  // empty unless written ks.f(...)
    std::string name;
    std::vector<Term> args;
};

// A collection, tuple or UDT literal that contains at least one non-constant
// element (a bind marker, a function call or a type-hinted term), e.g. [?, ?],
// {'a': ?}, (1, ?). When every element is a plain constant the parser folds it
// into a Literal instead, so a CollectionTerm always has something to
// evaluate or check at prepare/execution time.
struct CollectionTerm {
    CollectionTerm();
    CollectionTerm(const CollectionTerm&);
    CollectionTerm(CollectionTerm&&) noexcept;
    CollectionTerm& operator=(const CollectionTerm&);
    CollectionTerm& operator=(CollectionTerm&&) noexcept;
    ~CollectionTerm();
    // Uses Literal's kinds: kList, kSet, kMap, kTuple or kUdt.
    Literal::Kind kind = Literal::Kind::kList;
    std::vector<Term> elements;                        // kList, kSet, kTuple
    std::vector<std::pair<Term, Term>> entries;        // kMap
    std::vector<std::pair<std::string, Term>> fields;  // kUdt (field name, value)
};

// One term. Exactly one alternative is held:
//   Literal         constants, including fully constant collections/tuples/UDTs
//                   and negative numbers ("-42" is one kInteger literal)
//   BindMarker      ? or :name
//   FunctionCall    now(), toTimestamp(?)...
//   CollectionTerm  collection/tuple/UDT literals containing markers or calls
struct Term {
    std::variant<Literal, BindMarker, FunctionCall, CollectionTerm> value;

    // A type hint written `(int) ?` or `(text) 'x'`; the parser records it
    // when present. Stored as a vector of 0 or 1 elements to keep Term a
    // plain value type without pointers.
    std::vector<TypeName> type_hint;

    bool is_literal() const { return std::holds_alternative<Literal>(value); }
    bool is_bind_marker() const { return std::holds_alternative<BindMarker>(value); }
    bool is_function_call() const { return std::holds_alternative<FunctionCall>(value); }
    bool is_collection() const { return std::holds_alternative<CollectionTerm>(value); }
    // Preconditions: the matching is_*() is true.
    const Literal& literal() const { return std::get<Literal>(value); }
    const BindMarker& bind_marker() const { return std::get<BindMarker>(value); }
    const FunctionCall& function_call() const { return std::get<FunctionCall>(value); }
    const CollectionTerm& collection() const { return std::get<CollectionTerm>(value); }
};

inline CollectionTerm::CollectionTerm() = default;
inline CollectionTerm::CollectionTerm(const CollectionTerm&) = default;
inline CollectionTerm::CollectionTerm(CollectionTerm&&) noexcept = default;
inline CollectionTerm& CollectionTerm::operator=(const CollectionTerm&) = default;
inline CollectionTerm& CollectionTerm::operator=(CollectionTerm&&) noexcept = default;
inline CollectionTerm::~CollectionTerm() = default;

// ---------------------------------------------------------------------------
// WHERE relations and IF conditions

enum class Operator {
    kEq,           // =
    kNeq,          // !=
    kLt,           // <
    kLte,          // <=
    kGt,           // >
    kGte,          // >=
    kIn,           // IN
    kContains,     // CONTAINS
    kContainsKey,  // CONTAINS KEY
    kLike,         // LIKE
    kIsNotNull,    // IS NOT NULL (materialized-view syntax; value is unused)
};

// The right-hand side of an IN: either a parenthesised list `IN (a, b)`
// (list holds the terms, possibly empty) or one term, usually a bind marker,
// `IN ?` (single holds it).
struct InValues {
    bool is_list = false;
    std::vector<Term> list;
    std::optional<Term> single;
};

struct Relation {
    enum class Kind {
        kSingleColumn,  // col op term / col IN (...)
        kToken,         // token(a, b) op term
        kMultiColumn,   // (c1, c2) op (t1, t2) / (c1, c2) IN ((..), (..)) / (c1, c2) > ?
        kMapEntry,      // col[key] op term (filter on a map entry)
    };
    Kind kind = Kind::kSingleColumn;
    // kSingleColumn / kMapEntry: {col}; kToken: token's arguments;
    // kMultiColumn: the tuple of columns.
    std::vector<std::string> columns;
    Operator op = Operator::kEq;
    // The right-hand side for every operator except IN. For kMultiColumn it is
    // a tuple term (Literal kTuple, CollectionTerm kTuple) or a bind marker.
    std::optional<Term> value;
    // Only for op == kIn. For kMultiColumn, list elements are tuple terms or
    // bind markers.
    InValues in_values;
    // Only for kMapEntry: the key between brackets.
    std::optional<Term> map_key;
};

// One IF condition of a lightweight transaction: col op term,
// col[key] op term, col.field op term, col IN (...).
struct Condition {
    std::string column;
    std::optional<Term> element;  // col[element]
    std::string field;            // col.field (empty if none)
    Operator op = Operator::kEq;
    std::optional<Term> value;  // every op except IN
    InValues in_values;         // op == kIn
};

// USING TTL x AND TIMESTAMP y (either, both, any order; each at most once).
struct UsingClause {
    std::optional<Term> ttl;
    std::optional<Term> timestamp;
};

// ---------------------------------------------------------------------------
// Options: WITH name = value AND ...

struct Property {
    std::string name;  // lower-cased unless quoted
    // The value: a constant (kString, kInteger, kFloat, kBoolean...) or a map
    // literal (kMap whose keys are strings), e.g. replication = {...},
    // write_sharding = {'shards': 16, 'suffix': 'random'}.
    Literal value;
    // True when the value was a bare identifier (e.g. `distribution = ordered`);
    // value then is kString with the (normalised) identifier text.
    bool identifier = false;
};

// ---------------------------------------------------------------------------
// Keyspace statements

struct UseStatement {
    std::string keyspace;
};

struct CreateKeyspaceStatement {
    std::string keyspace;
    bool if_not_exists = false;
    std::vector<Property> properties;  // replication, durable_writes, ...
};

struct AlterKeyspaceStatement {
    std::string keyspace;
    std::vector<Property> properties;
};

struct DropKeyspaceStatement {
    std::string keyspace;
    bool if_exists = false;
};

// ---------------------------------------------------------------------------
// Table statements

struct ColumnDefinition {
    std::string name;
    TypeName type;
    bool is_static = false;
    // Written `col type PRIMARY KEY` inline. The parser also puts the column in
    // CreateTableStatement::partition_key, so prepare need not look at this
    // except to reject a second primary key definition (the parser already does).
    bool primary_key = false;
};

struct ClusteringOrder {
    std::string column;
    bool descending = false;
};

struct CreateTableStatement {
    QualifiedName table;
    bool if_not_exists = false;
    std::vector<ColumnDefinition> columns;    // in declaration order
    std::vector<std::string> partition_key;   // at least one column
    std::vector<std::string> clustering_key;  // in PRIMARY KEY order
    // WITH CLUSTERING ORDER BY (...): as written, possibly a prefix.
    std::vector<ClusteringOrder> clustering_order;
    bool compact_storage = false;      // WITH COMPACT STORAGE
    std::vector<Property> properties;  // every other WITH option
};

struct AlterTableStatement {
    enum class Kind {
        kAdd,        // ADD col type [STATIC] | ADD (c1 t1, c2 t2)
        kDrop,       // DROP col | DROP (c1, c2)
        kRename,     // RENAME a TO b [AND c TO d]
        kAlterType,  // ALTER col TYPE t
        kWith,       // WITH options
    };
    QualifiedName table;
    Kind kind = Kind::kAdd;
    std::vector<ColumnDefinition> added;                       // kAdd
    std::vector<std::string> dropped;                          // kDrop
    std::optional<int64_t> drop_timestamp;                     // kDrop USING TIMESTAMP
    std::vector<std::pair<std::string, std::string>> renames;  // kRename (from, to)
    std::string column;                                        // kAlterType
    TypeName new_type;                                         // kAlterType
    std::vector<Property> properties;                          // kWith
};

struct DropTableStatement {
    QualifiedName table;
    bool if_exists = false;
};

struct TruncateStatement {
    QualifiedName table;
};

// ---------------------------------------------------------------------------
// User type statements

struct FieldDefinition {
    std::string name;
    TypeName type;
};

struct CreateTypeStatement {
    QualifiedName type;
    bool if_not_exists = false;
    std::vector<FieldDefinition> fields;
};

struct AlterTypeStatement {
    enum class Kind {
        kAdd,        // ADD f type
        kRename,     // RENAME f TO g [AND h TO i]
        kAlterType,  // ALTER f TYPE t
    };
    QualifiedName type;
    Kind kind = Kind::kAdd;
    FieldDefinition added;                                     // kAdd, kAlterType
    std::vector<std::pair<std::string, std::string>> renames;  // kRename
};

struct DropTypeStatement {
    QualifiedName type;
    bool if_exists = false;
};

// ---------------------------------------------------------------------------
// Data modification

struct InsertStatement {
    QualifiedName table;
    // INSERT ... (columns) VALUES (values): same length, checked by the parser.
    std::vector<std::string> columns;
    std::vector<Term> values;
    // INSERT ... JSON 'text' | JSON ?: json is true and json_value holds the
    // string literal or bind marker; columns/values are empty.
    bool json = false;
    std::optional<Term> json_value;
    // DEFAULT UNSET (omitted columns are left alone); DEFAULT NULL is the default.
    bool json_default_unset = false;
    bool if_not_exists = false;
    UsingClause using_clause;
};

struct Assignment {
    enum class Kind {
        kSet,         // c = term
        kSetElement,  // c[key] = term  (list index or map key)
        kSetField,    // c.f = term     (UDT field)
        kAdd,         // c = c + term  |  c += term  (counter, collection append)
        kSubtract,    // c = c - term  |  c -= term
        kPrepend,     // c = term + c  (list prepend)
    };
    Kind kind = Kind::kSet;
    std::string column;
    std::optional<Term> key;  // kSetElement
    std::string field;        // kSetField
    Term value;
};

struct UpdateStatement {
    QualifiedName table;
    UsingClause using_clause;
    std::vector<Assignment> assignments;
    std::vector<Relation> where;
    bool if_exists = false;
    std::vector<Condition> conditions;  // IF c = x AND ...
};

// One target of DELETE: a whole column, c[key] (list index / map key / set
// element) or c.field.
struct Deletion {
    std::string column;
    std::optional<Term> element;
    std::string field;
};

struct DeleteStatement {
    QualifiedName table;
    std::vector<Deletion> columns;  // empty: delete whole rows
    UsingClause using_clause;       // TIMESTAMP only: `USING TTL` is a syntax error here
    std::vector<Relation> where;
    bool if_exists = false;
    std::vector<Condition> conditions;
};

using BatchChild = std::variant<InsertStatement, UpdateStatement, DeleteStatement>;

struct BatchStatement {
    enum class Kind { kLogged, kUnlogged, kCounter };
    Kind kind = Kind::kLogged;
    // TTL parses (as in Cassandra's grammar) but is not legal on a batch:
    // prepare rejects it ("Global TTL on the BATCH statement is not supported").
    UsingClause using_clause;
    std::vector<BatchChild> statements;
};

// ---------------------------------------------------------------------------
// SELECT

struct Selector {
    enum class Kind {
        kColumn,    // col
        kFunction,  // f(args): writetime(c), ttl(c), token(a, b), count(*), toJson(c)...
        kCast,      // CAST(arg AS type)
        kField,     // arg.field (UDT field selection)
        kStar,      // `*` as a function argument: count(*)
        kTerm,      // a constant or bind marker argument: count(1), toDate('2024-01-01')
    };
    Kind kind = Kind::kColumn;
    std::string column;          // kColumn
    std::string keyspace;        // kFunction, when written ks.f(...)
    std::string function;        // kFunction (normalised name, e.g. "writetime")
    std::vector<Selector> args;  // kFunction args; kCast / kField: {arg}
    TypeName cast_type;          // kCast
    std::string field;           // kField
    std::vector<Term> term;      // kTerm: exactly one element
    std::string alias;           // AS alias; empty if none
};

struct Ordering {
    std::string column;
    bool descending = false;
};

struct SelectStatement {
    QualifiedName table;
    bool json = false;
    bool distinct = false;
    bool select_all = false;          // SELECT *; selectors is then empty
    std::vector<Selector> selectors;  // in written order
    std::vector<Relation> where;
    std::vector<std::string> group_by;
    std::vector<Ordering> order_by;
    std::optional<Term> per_partition_limit;  // integer literal or bind marker
    std::optional<Term> limit;                // integer literal or bind marker
    bool allow_filtering = false;
};

// ---------------------------------------------------------------------------
// DESCRIBE (a shell command, kept in the grammar so the shell and the server
// agree on its syntax).

struct DescribeStatement {
    enum class Kind { kKeyspaces, kKeyspace, kTables, kTable, kTypes, kType, kSchema };
    Kind kind = Kind::kSchema;
    // kKeyspace: name.name is the keyspace (empty = current keyspace);
    // kTable / kType: the object.
    QualifiedName name;
};

// ---------------------------------------------------------------------------

using StatementNode =
    std::variant<UseStatement, CreateKeyspaceStatement, AlterKeyspaceStatement,
                 DropKeyspaceStatement, CreateTableStatement, AlterTableStatement,
                 DropTableStatement, TruncateStatement, CreateTypeStatement, AlterTypeStatement,
                 DropTypeStatement, InsertStatement, UpdateStatement, DeleteStatement,
                 BatchStatement, SelectStatement, DescribeStatement, AuthStatement>;

struct Statement {
    StatementNode node;
    // One entry per bind marker in index order: the marker's name, or empty
    // for `?`. bind_names.size() is the number of values a client must bind.
    std::vector<std::string> bind_names;
    // The statement's own source text (trimmed, without the trailing `;`).
    std::string text;

    std::size_t bind_count() const { return bind_names.size(); }

    template <typename T>
    bool is() const {
        return std::holds_alternative<T>(node);
    }
    // Precondition: is<T>().
    template <typename T>
    const T& as() const {
        return std::get<T>(node);
    }
};

// A short upper-case name for diagnostics and logs: "SELECT", "INSERT",
// "CREATE TABLE", "BATCH", ...
const char* statement_kind_name(const Statement& statement);

// Debug renderings used by tests and error messages. Not CQL-round-trippable
// in every case, but stable.
std::string to_string(const TypeName& type);
std::string to_string(const Term& term);
std::string to_string(const Literal& literal);
// A selector the way Cassandra names an unaliased result column: "a",
// "writetime(c)", "count(*)", "cast(x as text)", "u.street", "totimestamp(now())".
std::string to_string(const Selector& selector);

}  // namespace tessel::cql
