// Prepare: binds a parsed statement to a schema snapshot, checks Cassandra's
// rules (the prefix rule, ALLOW FILTERING, primary-key immutability, literal
// types...) and produces the Plan the coordinator executes.
//
// Every error is Invalid (or Syntax_error where Cassandra's grammar would
// reject the statement) with Cassandra's wording, naming the column at fault.
#pragma once

#include <memory>
#include <string>

#include "common/status.h"
#include "cql/ast.h"
#include "cql/plan.h"
#include "cql/prepare_term.h"

namespace tessel::cql {

// `session_keyspace` resolves unqualified names (may be empty).
Result<std::shared_ptr<const Plan>> prepare(const Statement& statement,
                                            const std::string& session_keyspace,
                                            const SchemaView& schema);

// A type as written, resolved against the schema (user types of `keyspace`).
Result<TypePtr> resolve_type(const TypeName& name, const std::string& keyspace,
                             const SchemaView& schema);

// The TableInfo a CREATE TABLE would define (used for virtual tables, whose
// schema is CREATE TABLE text). Column ids are positions in declaration order.
Result<TableInfo> table_info_from_create(const CreateTableStatement& create,
                                         const std::string& keyspace, const SchemaView& schema);

// --- internal steps, shared by the prepare_*.cpp files ---------------------

enum class WhereMode { kSelect, kUpdate, kDelete };

Result<WherePlan> prepare_where(const std::vector<Relation>& relations, const TableInfo& table,
                                WhereMode mode, bool allow_filtering, BindContext* ctx);

Result<SelectPlan> prepare_select(const SelectStatement& select, const TablePtr& table,
                                  BindContext* ctx, std::vector<ColumnSpec>* result_columns);

Result<ModifyPlan> prepare_insert(const InsertStatement& insert, const TablePtr& table,
                                  BindContext* ctx);
Result<ModifyPlan> prepare_update(const UpdateStatement& update, const TablePtr& table,
                                  BindContext* ctx);
Result<ModifyPlan> prepare_delete(const DeleteStatement& del, const TablePtr& table,
                                  BindContext* ctx);
Status prepare_using(const UsingClause& using_clause, ModifyPlan* plan, BindContext* ctx);

// Messages shared by several steps.
Status undefined_column(const std::string& name);
std::string join_names(const std::vector<std::string>& names, const char* sep = ", ");

}  // namespace tessel::cql
