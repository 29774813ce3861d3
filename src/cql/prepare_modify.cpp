// INSERT, UPDATE and DELETE: assignments, deletions, conditions, USING.
#include <set>

#include "cql/prepare.h"

namespace tessel::cql {
namespace {

using OK = OperationPlan::Kind;

Status check_full_clustering(const TableInfo& t, const WherePlan& w, bool static_only) {
    if (static_only) return Status::ok();
    if (w.clustering_prefix_columns < static_cast<int>(t.clustering.size())) {
        std::vector<std::string> missing;
        for (size_t i = w.clustering_prefix_columns; i < t.clustering.size(); ++i) {
            missing.push_back(t.ck(i).name);
        }
        return Status::invalid("Some clustering keys are missing: " + join_names(missing));
    }
    return Status::ok();
}

Status check_conditional(const ModifyPlan& p) {
    if (!p.is_conditional()) return Status::ok();
    for (const auto& kv : p.where.partition_values) {
        if (kv.is_in) {
            return Status::invalid(
                "IN on the partition key is not supported with conditional "
                "updates");
        }
    }
    for (const auto& kv : p.where.clustering_prefix) {
        if (kv.is_in) {
            return Status::invalid(
                "IN on the clustering key columns is not supported with "
                "conditional updates");
        }
    }
    return Status::ok();
}

Result<std::vector<ConditionPlan>> prepare_conditions(const std::vector<Condition>& conds,
                                                      const TableInfo& t, BindContext* ctx) {
    std::vector<ConditionPlan> out;
    for (const auto& c : conds) {
        const int idx = t.find(c.column);
        if (idx < 0) return undefined_column(c.column);
        const ColumnInfo& col = t.columns[idx];
        if (col.is_primary_key()) {
            return Status::invalid("PRIMARY KEY column '" + col.name +
                                   "' cannot have IF conditions");
        }
        ConditionPlan cp;
        cp.column = idx;
        cp.op = c.op;
        TypePtr receiver = col.type;
        std::string name = col.name;
        if (c.element) {
            if (col.type->kind == TypeKind::kList) {
                TESSEL_ASSIGN_OR_RETURN(auto e,
                                        prepare_term(*c.element, native_type(TypeKind::kInt),
                                                     "idx(" + col.name + ")", ctx));
                cp.element = std::move(e);
                receiver = col.type->params[0];
            } else if (col.type->kind == TypeKind::kMap) {
                TESSEL_ASSIGN_OR_RETURN(auto e, prepare_term(*c.element, col.type->params[0],
                                                             "key(" + col.name + ")", ctx));
                cp.element = std::move(e);
                receiver = col.type->params[1];
            } else {
                return Status::invalid("Invalid element access syntax for non-collection column " +
                                       col.name);
            }
            name = "value(" + col.name + ")";
        } else if (!c.field.empty()) {
            if (col.type->kind != TypeKind::kUdt) {
                return Status::invalid("Invalid field access syntax for non-UDT column " +
                                       col.name);
            }
            for (size_t i = 0; i < col.type->field_names.size(); ++i) {
                if (col.type->field_names[i] == c.field) cp.field_index = static_cast<int>(i);
            }
            if (cp.field_index < 0) {
                return Status::invalid("Unknown field " + c.field + " for column " + col.name);
            }
            receiver = col.type->params[cp.field_index];
        }
        if (c.op == Operator::kIn) {
            cp.in_values.is_in = true;
            if (c.in_values.is_list) {
                for (const auto& term : c.in_values.list) {
                    TESSEL_ASSIGN_OR_RETURN(auto v, prepare_term(term, receiver, name, ctx));
                    cp.in_values.alternatives.push_back({std::move(v)});
                }
            } else if (c.in_values.single) {
                TESSEL_ASSIGN_OR_RETURN(
                    auto v, prepare_term(*c.in_values.single, list_type(receiver, false),
                                         "in(" + name + ")", ctx));
                cp.in_values.list_marker = std::move(v);
            }
        } else if (c.op == Operator::kContains || c.op == Operator::kContainsKey) {
            return Status::invalid("Unsupported operator in IF condition on " + col.name);
        } else {
            if (!c.value) return Status::invalid("Missing value in IF condition on " + col.name);
            TESSEL_ASSIGN_OR_RETURN(auto v, prepare_term(*c.value, receiver, name, ctx));
            cp.value = std::move(v);
        }
        out.push_back(std::move(cp));
    }
    return out;
}

std::string assignment_text(const Assignment& a) {
    switch (a.kind) {
        case Assignment::Kind::kAdd:
            return a.column + " = " + a.column + " + " + to_string(a.value);
        case Assignment::Kind::kSubtract:
            return a.column + " = " + a.column + " - " + to_string(a.value);
        case Assignment::Kind::kPrepend:
            return a.column + " = " + to_string(a.value) + " + " + a.column;
        default:
            return a.column + " = " + to_string(a.value);
    }
}

Result<OperationPlan> prepare_assignment(const Assignment& a, const TableInfo& t,
                                         BindContext* ctx) {
    const int idx = t.find(a.column);
    if (idx < 0) return undefined_column(a.column);
    const ColumnInfo& col = t.columns[idx];
    if (col.is_primary_key()) {
        return Status::invalid("PRIMARY KEY part " + col.name + " found in SET part");
    }
    OperationPlan op;
    op.column = idx;
    const CqlType& type = *col.type;
    switch (a.kind) {
        case Assignment::Kind::kSet: {
            if (type.is_counter()) {
                return Status::invalid("Cannot set the value of counter column " + col.name +
                                       " (counters can only be incremented/decremented, not set)");
            }
            op.kind = OK::kSet;
            TESSEL_ASSIGN_OR_RETURN(auto v, prepare_term(a.value, col.type, col.name, ctx));
            op.value = std::move(v);
            return op;
        }
        case Assignment::Kind::kSetElement: {
            if (!type.is_collection() || type.kind == TypeKind::kSet) {
                return Status::invalid("Invalid operation (" + col.name + "[" + to_string(*a.key) +
                                       "] = " + to_string(a.value) + ") for non list/map column " +
                                       col.name);
            }
            if (type.frozen) {
                return Status::invalid("Invalid operation (" + col.name + "[" + to_string(*a.key) +
                                       "] = " + to_string(a.value) +
                                       ") for frozen collection column " + col.name);
            }
            op.kind = OK::kSetElement;
            const bool list = type.kind == TypeKind::kList;
            TESSEL_ASSIGN_OR_RETURN(
                auto k,
                prepare_term(*a.key, list ? native_type(TypeKind::kInt) : type.params[0],
                             list ? "idx(" + col.name + ")" : "key(" + col.name + ")", ctx));
            TESSEL_ASSIGN_OR_RETURN(auto v,
                                    prepare_term(a.value, list ? type.params[0] : type.params[1],
                                                 "value(" + col.name + ")", ctx));
            op.key = std::move(k);
            op.value = std::move(v);
            return op;
        }
        case Assignment::Kind::kSetField: {
            if (type.kind != TypeKind::kUdt || type.frozen) {
                return Status::invalid("Invalid operation (" + col.name + "." + a.field + " = " +
                                       to_string(a.value) + ") for " +
                                       (type.kind == TypeKind::kUdt ? "frozen UDT" : "non-UDT") +
                                       " column " + col.name);
            }
            op.kind = OK::kSetField;
            for (size_t i = 0; i < type.field_names.size(); ++i) {
                if (type.field_names[i] == a.field) op.field_index = static_cast<int>(i);
            }
            if (op.field_index < 0) {
                return Status::invalid("UDT column " + col.name + " does not have a field named " +
                                       a.field);
            }
            TESSEL_ASSIGN_OR_RETURN(auto v, prepare_term(a.value, type.params[op.field_index],
                                                         col.name + "." + a.field, ctx));
            op.value = std::move(v);
            return op;
        }
        case Assignment::Kind::kAdd:
        case Assignment::Kind::kSubtract:
        case Assignment::Kind::kPrepend: {
            const bool prepend = a.kind == Assignment::Kind::kPrepend;
            if (type.is_counter() && !prepend) {
                op.kind = a.kind == Assignment::Kind::kAdd ? OK::kAdd : OK::kSubtract;
                TESSEL_ASSIGN_OR_RETURN(
                    auto v, prepare_term(a.value, native_type(TypeKind::kBigint), col.name, ctx));
                op.value = std::move(v);
                return op;
            }
            if (!type.is_collection()) {
                return Status::invalid("Invalid operation (" + assignment_text(a) +
                                       ") for non counter column " + col.name);
            }
            if (type.frozen) {
                return Status::invalid("Invalid operation (" + assignment_text(a) +
                                       ") for frozen collection column " + col.name);
            }
            if (prepend && type.kind != TypeKind::kList) {
                return Status::invalid("Invalid operation (" + assignment_text(a) +
                                       ") for non list column " + col.name);
            }
            op.kind = prepend ? OK::kPrepend
                              : (a.kind == Assignment::Kind::kAdd ? OK::kAdd : OK::kSubtract);
            TypePtr receiver = col.type;
            if (op.kind == OK::kSubtract && type.kind == TypeKind::kMap) {
                receiver = set_type(type.params[0], false);
            }
            TESSEL_ASSIGN_OR_RETURN(auto v, prepare_term(a.value, receiver, col.name, ctx));
            op.value = std::move(v);
            return op;
        }
    }
    return op;
}

}  // namespace

Status prepare_using(const UsingClause& u, ModifyPlan* plan, BindContext* ctx) {
    if (u.ttl) {
        TESSEL_ASSIGN_OR_RETURN(auto v,
                                prepare_term(*u.ttl, native_type(TypeKind::kInt), "[ttl]", ctx));
        plan->ttl = std::move(v);
    }
    if (u.timestamp) {
        TESSEL_ASSIGN_OR_RETURN(
            auto v, prepare_term(*u.timestamp, native_type(TypeKind::kBigint), "[timestamp]", ctx));
        plan->timestamp = std::move(v);
    }
    return Status::ok();
}

Result<ModifyPlan> prepare_insert(const InsertStatement& ins, const TablePtr& table,
                                  BindContext* ctx) {
    const TableInfo& t = *table;
    ModifyPlan p;
    p.kind = ModifyPlan::Kind::kInsert;
    p.table = table;
    if (t.is_counter) {
        return Status::invalid(
            "INSERT statements are not allowed on counter tables, use UPDATE "
            "instead");
    }
    if (ins.json) {
        TESSEL_ASSIGN_OR_RETURN(
            auto j, prepare_term(*ins.json_value, native_type(TypeKind::kVarchar), "[json]", ctx));
        p.json = std::move(j);
        p.json_default_unset = ins.json_default_unset;
    }
    std::vector<std::optional<TermPlan>> pk(t.partition_key.size()), ck(t.clustering.size());
    std::set<std::string> seen;
    bool only_static = true;
    for (size_t i = 0; i < ins.columns.size(); ++i) {
        const int idx = t.find(ins.columns[i]);
        if (idx < 0) return undefined_column(ins.columns[i]);
        if (!seen.insert(ins.columns[i]).second) {
            return Status::invalid("Multiple definitions found for column " + ins.columns[i]);
        }
        const ColumnInfo& col = t.columns[idx];
        TESSEL_ASSIGN_OR_RETURN(auto v, prepare_term(ins.values[i], col.type, col.name, ctx));
        if (col.kind == ColumnKind::kPartitionKey) {
            pk[col.position] = std::move(v);
        } else if (col.kind == ColumnKind::kClustering) {
            ck[col.position] = std::move(v);
        } else {
            if (col.kind != ColumnKind::kStatic) only_static = false;
            OperationPlan op;
            op.kind = OK::kSet;
            op.column = idx;
            op.value = std::move(v);
            p.operations.push_back(std::move(op));
        }
    }
    if (!ins.json) {
        std::vector<std::string> missing;
        for (size_t i = 0; i < pk.size(); ++i) {
            if (!pk[i]) missing.push_back(t.pk(i).name);
        }
        if (!missing.empty()) {
            return Status::invalid("Some partition key parts are missing: " + join_names(missing));
        }
        for (size_t i = 0; i < ck.size(); ++i) {
            if (!ck[i] && !(only_static && !p.operations.empty())) missing.push_back(t.ck(i).name);
        }
        if (!missing.empty()) {
            return Status::invalid("Some clustering keys are missing: " + join_names(missing));
        }
        for (auto& v : pk) {
            KeyValues kv;
            kv.alternatives.push_back({std::move(*v)});
            p.where.partition_values.push_back(std::move(kv));
        }
        for (auto& v : ck) {
            if (!v) break;
            KeyValues kv;
            kv.alternatives.push_back({std::move(*v)});
            p.where.clustering_prefix.push_back(std::move(kv));
            ++p.where.clustering_prefix_columns;
        }
    }
    p.if_not_exists = ins.if_not_exists;
    TESSEL_RETURN_IF_ERROR(prepare_using(ins.using_clause, &p, ctx));
    return p;
}

Result<ModifyPlan> prepare_update(const UpdateStatement& upd, const TablePtr& table,
                                  BindContext* ctx) {
    const TableInfo& t = *table;
    ModifyPlan p;
    p.kind = ModifyPlan::Kind::kUpdate;
    p.table = table;
    TESSEL_RETURN_IF_ERROR(prepare_using(upd.using_clause, &p, ctx));
    if (t.is_counter) {
        if (p.timestamp) {
            return Status::invalid("Cannot provide custom timestamp for counter updates");
        }
        if (p.ttl) return Status::invalid("Cannot provide custom TTL for counter updates");
        if (upd.if_exists || !upd.conditions.empty()) {
            return Status::invalid("Conditional updates are not supported on counter tables");
        }
    }
    bool only_static = true;
    for (const auto& a : upd.assignments) {
        TESSEL_ASSIGN_OR_RETURN(auto op, prepare_assignment(a, t, ctx));
        if (t.columns[op.column].kind != ColumnKind::kStatic) only_static = false;
        p.operations.push_back(std::move(op));
    }
    TESSEL_ASSIGN_OR_RETURN(p.where, prepare_where(upd.where, t, WhereMode::kUpdate, false, ctx));
    const bool static_only_write = only_static && p.where.clustering_prefix_columns == 0;
    TESSEL_RETURN_IF_ERROR(check_full_clustering(t, p.where, static_only_write));
    p.if_exists = upd.if_exists;
    TESSEL_ASSIGN_OR_RETURN(p.conditions, prepare_conditions(upd.conditions, t, ctx));
    TESSEL_RETURN_IF_ERROR(check_conditional(p));
    return p;
}

Result<ModifyPlan> prepare_delete(const DeleteStatement& del, const TablePtr& table,
                                  BindContext* ctx) {
    const TableInfo& t = *table;
    ModifyPlan p;
    p.kind = ModifyPlan::Kind::kDelete;
    p.table = table;
    if (del.using_clause.ttl) return Status::invalid("Cannot provide custom TTL on DELETE");
    bool only_static = !del.columns.empty();
    for (const auto& d : del.columns) {
        const int idx = t.find(d.column);
        if (idx < 0) return undefined_column(d.column);
        const ColumnInfo& col = t.columns[idx];
        if (col.is_primary_key()) {
            return Status::invalid("Invalid identifier " + col.name +
                                   " for deletion (should not be a PRIMARY KEY part)");
        }
        if (col.kind != ColumnKind::kStatic) only_static = false;
        OperationPlan op;
        op.column = idx;
        op.kind = OK::kDelete;
        if (d.element) {
            if (!col.type->is_multi_cell() || !col.type->is_collection()) {
                return Status::invalid("Invalid deletion operation for non collection column " +
                                       col.name);
            }
            op.kind = OK::kDeleteElement;
            TypePtr kt = col.type->kind == TypeKind::kList ? native_type(TypeKind::kInt)
                                                           : col.type->params[0];
            TESSEL_ASSIGN_OR_RETURN(auto k,
                                    prepare_term(*d.element, kt, "key(" + col.name + ")", ctx));
            op.key = std::move(k);
        } else if (!d.field.empty()) {
            if (col.type->kind != TypeKind::kUdt) {
                return Status::invalid("Invalid field deletion operation for non-UDT column " +
                                       col.name);
            }
            if (col.type->frozen) {
                return Status::invalid("Frozen UDT column " + col.name +
                                       " does not support field deletions");
            }
            op.kind = OK::kDeleteField;
            for (size_t i = 0; i < col.type->field_names.size(); ++i) {
                if (col.type->field_names[i] == d.field) op.field_index = static_cast<int>(i);
            }
            if (op.field_index < 0) {
                return Status::invalid("UDT column " + col.name + " does not have a field named " +
                                       d.field);
            }
        }
        p.operations.push_back(std::move(op));
    }
    TESSEL_RETURN_IF_ERROR(prepare_using(del.using_clause, &p, ctx));
    TESSEL_ASSIGN_OR_RETURN(p.where, prepare_where(del.where, t, WhereMode::kDelete, false, ctx));
    const bool full = p.where.clustering_prefix_columns == static_cast<int>(t.clustering.size());
    if (!del.columns.empty() && !full && !(only_static && p.where.clustering_prefix_columns == 0)) {
        if (p.where.slice_first_column >= 0) {
            return Status::invalid("Range deletions are not supported for specific columns");
        }
        TESSEL_RETURN_IF_ERROR(check_full_clustering(t, p.where, false));
    }
    p.if_exists = del.if_exists;
    TESSEL_ASSIGN_OR_RETURN(p.conditions, prepare_conditions(del.conditions, t, ctx));
    if (p.is_conditional() && !full && !t.clustering.empty() &&
        !(only_static && p.where.clustering_prefix_columns == 0 &&
          p.where.slice_first_column < 0)) {
        return Status::invalid(
            "DELETE statements must restrict all PRIMARY KEY columns with "
            "equality relations in order to use IF conditions, but column '" +
            t.ck(p.where.clustering_prefix_columns).name + "' is not restricted");
    }
    TESSEL_RETURN_IF_ERROR(check_conditional(p));
    return p;
}

}  // namespace tessel::cql
