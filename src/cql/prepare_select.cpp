// SELECT: selectors, ORDER BY, GROUP BY, DISTINCT, LIMIT.
#include <algorithm>

#include "cql/prepare.h"
#include "types/type_compatibility.h"

namespace tessel::cql {
namespace {

using SK = SelectorPlan::Kind;

std::string lower(std::string s) {
    for (auto& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

class SelectorBuilder {
  public:
    SelectorBuilder(const TableInfo& t, BindContext* c) : table_(t), ctx_(c) {}

    Result<SelectorPlan> build(const Selector& s) {
        TESSEL_ASSIGN_OR_RETURN(auto p, build_inner(s));
        if (!s.alias.empty()) p.name = s.alias;
        return p;
    }

  private:
    Result<SelectorPlan> column(const std::string& name) {
        const int idx = table_.find(name);
        if (idx < 0) return undefined_column(name);
        SelectorPlan p;
        p.kind = SK::kColumn;
        p.column = idx;
        p.type = table_.columns[idx].type;
        p.name = name;
        return p;
    }

    // The type of a constant in the selection clause, as Cassandra infers it
    // from the literal (a string is text, an integer int, a float double...);
    // null for bind markers and nulls, which only a function argument types.
    static TypePtr inferred_type(const Term& t) {
        if (!t.type_hint.empty()) return native_type_by_name(t.type_hint[0].name);
        if (!t.is_literal()) return nullptr;
        switch (std::get<Literal>(t.value).kind) {
            case Literal::Kind::kString:
                return native_type(TypeKind::kVarchar);
            case Literal::Kind::kInteger:
                return native_type(TypeKind::kInt);
            case Literal::Kind::kFloat:
                return native_type(TypeKind::kDouble);
            case Literal::Kind::kBoolean:
                return native_type(TypeKind::kBoolean);
            case Literal::Kind::kUuid:
                return native_type(TypeKind::kUuid);
            case Literal::Kind::kHex:
                return native_type(TypeKind::kBlob);
            case Literal::Kind::kDuration:
                return native_type(TypeKind::kDuration);
            default:
                return nullptr;
        }
    }

    // A constant or bind marker; its type is null when it cannot be inferred.
    Result<SelectorPlan> term(const Selector& s) {
        if (s.term.empty()) return Status::invalid("Invalid selector: missing term");
        SelectorPlan p;
        p.kind = SK::kTerm;
        p.name = to_string(s.term[0]);
        p.type = inferred_type(s.term[0]);
        if (p.type) {
            // A constant that does not fit its inferred type (an integer past
            // int's range) is typed by the parameter it is passed to.
            auto t = prepare_term(s.term[0], p.type, "term", ctx_);
            if (t.is_ok()) {
                p.term = std::move(t).value();
            } else {
                p.type = nullptr;
            }
        }
        return p;
    }

    Result<SelectorPlan> build_inner(const Selector& s) {
        switch (s.kind) {
            case Selector::Kind::kColumn:
                return column(s.column);
            case Selector::Kind::kStar: {
                SelectorPlan p;
                p.kind = SK::kTerm;
                p.type = native_type(TypeKind::kInt);
                p.name = "*";
                return p;
            }
            case Selector::Kind::kTerm: {
                TESSEL_ASSIGN_OR_RETURN(auto p, term(s));
                if (!p.type) {
                    return Status::invalid("Cannot infer type for term " + p.name +
                                           " in selection clause (try using a cast to force a "
                                           "type)");
                }
                return p;
            }
            case Selector::Kind::kCast:
                return cast(s);
            case Selector::Kind::kField:
                return field(s);
            case Selector::Kind::kFunction:
                return function(s);
        }
        return Status::invalid("Unsupported selector");
    }

    Result<SelectorPlan> cast(const Selector& s) {
        if (s.args.size() != 1) return Status::invalid("Invalid CAST selector");
        TESSEL_ASSIGN_OR_RETURN(auto arg, build_inner(s.args[0]));
        TypePtr to = native_type_by_name(s.cast_type.name);
        if (!to) return Status::invalid("Cannot cast to type " + s.cast_type.name);
        // A cast to the argument's own type is ignored, as Cassandra does.
        if (arg.type->equals(*to)) return arg;
        if (!castable(arg.type->kind, to->kind)) {
            return Status::invalid(first_column_name(arg) + " cannot be cast to " + to->cql_name());
        }
        SelectorPlan p;
        p.kind = SK::kCast;
        p.type = to;
        p.name = "cast(" + arg.name + " as " + to->cql_name() + ")";
        p.args.push_back(std::move(arg));
        return p;
    }

    // The column an error about a selector names: its first column, as
    // Cassandra's does.
    std::string first_column_name(const SelectorPlan& p) const {
        if (p.column >= 0) return table_.columns[p.column].name;
        for (const auto& a : p.args) {
            if (a.column >= 0 || !a.args.empty()) return first_column_name(a);
        }
        return p.name;
    }

    Result<SelectorPlan> field(const Selector& s) {
        if (s.args.size() != 1) return Status::invalid("Invalid field selector");
        TESSEL_ASSIGN_OR_RETURN(auto arg, build_inner(s.args[0]));
        if (arg.type->kind != TypeKind::kUdt) {
            return Status::invalid("Invalid field selection: " + arg.name + " of type " +
                                   arg.type->cql_name() + " is not a user type");
        }
        SelectorPlan p;
        p.kind = SK::kField;
        for (size_t i = 0; i < arg.type->field_names.size(); ++i) {
            if (arg.type->field_names[i] == s.field) p.field_index = static_cast<int>(i);
        }
        if (p.field_index < 0) {
            return Status::invalid(arg.type->udt_name + " has no field " + s.field);
        }
        p.type = arg.type->params[p.field_index];
        p.name = arg.name + "." + s.field;
        p.args.push_back(std::move(arg));
        return p;
    }

    Result<SelectorPlan> writetime_or_ttl(const Selector& s, bool writetime) {
        const char* fname = writetime ? "writeTime" : "ttl";
        if (s.args.size() != 1 || s.args[0].kind != Selector::Kind::kColumn) {
            return Status::invalid(std::string("Invalid arguments for ") + fname);
        }
        TESSEL_ASSIGN_OR_RETURN(auto col, column(s.args[0].column));
        const ColumnInfo& c = table_.columns[col.column];
        if (c.is_primary_key()) {
            return Status::invalid(std::string("Cannot use selection function ") + fname +
                                   " on PRIMARY KEY part " + c.name);
        }
        if (c.type->is_multi_cell()) {
            return Status::invalid(
                std::string("Cannot use selection function ") + fname + " on non-frozen " +
                (c.type->is_collection() ? "collection " : "user type ") + c.name);
        }
        SelectorPlan p;
        p.kind = writetime ? SK::kWritetime : SK::kTtl;
        p.column = col.column;
        p.type = native_type(writetime ? TypeKind::kBigint : TypeKind::kInt);
        p.name = std::string(writetime ? "writetime(" : "ttl(") + c.name + ")";
        return p;
    }

    Result<SelectorPlan> token(const Selector& s) {
        std::vector<std::string> names;
        for (const auto& a : s.args) {
            if (a.kind != Selector::Kind::kColumn) {
                return Status::invalid("Invalid arguments for token()");
            }
            if (table_.find(a.column) < 0) return undefined_column(a.column);
            names.push_back(a.column);
        }
        std::vector<std::string> pk;
        for (size_t i = 0; i < table_.partition_key.size(); ++i)
            pk.push_back(table_.pk(i).name);
        if (names != pk) {
            return Status::invalid("Type error: token(" + join_names(names) +
                                   ") cannot be used: the token function arguments must be the "
                                   "partition key columns in order: " +
                                   join_names(pk));
        }
        SelectorPlan p;
        p.kind = SK::kToken;
        p.type = native_type(TypeKind::kBigint);
        p.name = "system.token(" + join_names(names) + ")";
        return p;
    }

    Result<SelectorPlan> aggregate(const Selector& s, const std::string& fn) {
        SelectorPlan p;
        if (fn == "count") {
            p.kind = SK::kCount;
            p.type = native_type(TypeKind::kBigint);
            const bool star = s.args.size() == 1 && (s.args[0].kind == Selector::Kind::kStar ||
                                                     s.args[0].kind == Selector::Kind::kTerm);
            if (s.args.size() != 1) {
                return Status::invalid(
                    "Invalid number of arguments in call to function "
                    "system.count: 1 required but " +
                    std::to_string(s.args.size()) + " provided");
            }
            if (star) {
                p.name = "count";
                return p;
            }
            TESSEL_ASSIGN_OR_RETURN(auto a, build_inner(s.args[0]));
            p.name = "system.count(" + a.name + ")";
            p.args.push_back(std::move(a));
            return p;
        }
        if (s.args.size() != 1) {
            return Status::invalid("Invalid number of arguments in call to function system." + fn +
                                   ": 1 required but " + std::to_string(s.args.size()) +
                                   " provided");
        }
        TESSEL_ASSIGN_OR_RETURN(auto a, build_inner(s.args[0]));
        p.kind = fn == "min"   ? SK::kMin
                 : fn == "max" ? SK::kMax
                 : fn == "sum" ? SK::kSum
                               : SK::kAvg;
        if ((p.kind == SK::kSum || p.kind == SK::kAvg)) {
            switch (a.type->kind) {
                case TypeKind::kInt:
                case TypeKind::kBigint:
                case TypeKind::kSmallint:
                case TypeKind::kTinyint:
                case TypeKind::kFloat:
                case TypeKind::kDouble:
                case TypeKind::kCounter:
                case TypeKind::kVarint:
                case TypeKind::kDecimal:
                    break;
                default:
                    return Status::invalid("Invalid call to function system." + fn +
                                           ", none of its type signatures match (argument of "
                                           "type " +
                                           a.type->cql_name() + ")");
            }
        }
        p.type = a.type->kind == TypeKind::kCounter ? native_type(TypeKind::kBigint) : a.type;
        p.name = "system." + fn + "(" + a.name + ")";
        p.args.push_back(std::move(a));
        return p;
    }

    Result<SelectorPlan> function(const Selector& s) {
        const std::string fn = lower(s.function);
        if (fn == "writetime") return writetime_or_ttl(s, true);
        if (fn == "ttl") return writetime_or_ttl(s, false);
        if (fn == "token") return token(s);
        if (fn == "count" || fn == "min" || fn == "max" || fn == "sum" || fn == "avg") {
            return aggregate(s, fn);
        }
        if (fn == "fromjson") {
            return Status::invalid(
                "fromJson() cannot be used in the selection clause of a SELECT statement");
        }
        if (fn == "tojson") {
            if (s.args.size() != 1) return Status::invalid("toJson() takes exactly one argument");
            TESSEL_ASSIGN_OR_RETURN(auto a, build_inner(s.args[0]));
            SelectorPlan p;
            p.kind = SK::kFunction;
            p.type = native_type(TypeKind::kVarchar);
            p.name = "system.tojson(" + a.name + ")";
            p.field_index = -2;  // marks toJson (no ScalarFunction)
            p.args.push_back(std::move(a));
            return p;
        }
        std::vector<SelectorPlan> args;
        for (const auto& a : s.args) {
            // Constants take the type of the parameter they are passed to.
            TESSEL_ASSIGN_OR_RETURN(auto p,
                                    a.kind == Selector::Kind::kTerm ? term(a) : build_inner(a));
            args.push_back(std::move(p));
        }
        auto candidates = find_functions(fn, args.size());
        if (candidates.empty()) {
            if (is_scalar_function(fn)) {
                return Status::invalid("Invalid number of arguments in call to function system." +
                                       fn);
            }
            return Status::invalid("Unknown function '" + s.function + "'");
        }
        // Cassandra's FunctionResolver: an exact match first, else a
        // parameter that can read the argument's values (a blob reads any).
        auto hinted = [&](size_t i) -> TypePtr {
            if (args[i].kind != SK::kTerm || s.args[i].term.empty()) return nullptr;
            const Term& t = s.args[i].term[0];
            return t.type_hint.empty() ? nullptr : args[i].type;
        };
        auto matches = [&](const ScalarFunction* f, bool weakly) {
            for (size_t i = 0; i < args.size(); ++i) {
                const TypePtr hint = hinted(i);
                if (args[i].kind == SK::kTerm && !s.args[i].term.empty() && !hint) {
                    // A constant fits a parameter its literal converts to.
                    if (!prepare_term(s.args[i].term[0], f->arg_types[i], "arg", ctx_).is_ok())
                        return false;
                    continue;
                }
                const CqlType& from = hint ? *hint : *args[i].type;
                if (type_assignable(*f->arg_types[i], from)) continue;
                if (!weakly || !is_value_compatible_with(*f->arg_types[i], from)) return false;
            }
            return true;
        };
        const ScalarFunction* chosen = nullptr;
        for (bool weakly : {false, true}) {
            for (const ScalarFunction* f : candidates) {
                if (matches(f, weakly)) {
                    chosen = f;
                    break;
                }
            }
            if (chosen) break;
        }
        for (const ScalarFunction* f : candidates) {
            if (f != chosen) continue;
            SelectorPlan p;
            p.kind = SK::kFunction;
            p.function = f;
            p.type = f->return_type;
            std::vector<std::string> names;
            for (auto& a : args) {
                names.push_back(a.name);
            }
            for (size_t i = 0; i < args.size(); ++i) {
                if (args[i].kind == SK::kTerm && !s.args[i].term.empty()) {
                    // A hinted term keeps its hinted type (its marker's type).
                    const TypePtr hint = hinted(i);
                    const TypePtr receiver = hint ? hint : f->arg_types[i];
                    TESSEL_ASSIGN_OR_RETURN(auto t,
                                            prepare_term(s.args[i].term[0], receiver, "arg", ctx_));
                    args[i].term = std::move(t);
                    args[i].type = receiver;
                }
            }
            p.name = "system." + f->name + "(" + join_names(names) + ")";
            p.args = std::move(args);
            return p;
        }
        return Status::invalid("Invalid call to function system." + fn +
                               ", none of its type signatures match");
    }

    const TableInfo& table_;
    BindContext* ctx_;
};

// Time-bucketed tables: the bucket column must be restricted by EQ/IN, or by
// a slice with both bounds starting at it, so a read knows its buckets.
bool bucket_column_bounded(const TableInfo& t, const WherePlan& where) {
    const int k = t.columns[t.bucket_column].position;
    if (k < where.clustering_prefix_columns) return true;
    return where.slice_first_column == k && where.slice_start && where.slice_end;
}

// "(a ASC, b DESC)"
std::string clustering_order_text(const TableInfo& t) {
    std::string out = "(";
    for (size_t i = 0; i < t.clustering.size(); ++i) {
        out += (i ? ", " : "") + t.ck(i).name + (t.ck(i).descending ? " DESC" : " ASC");
    }
    return out + ")";
}

Status check_order_by(const SelectStatement& sel, const TableInfo& t, const WherePlan& where,
                      SelectPlan* plan) {
    if (sel.order_by.empty()) return Status::ok();
    std::optional<bool> reversed;
    int expected = 0;
    for (const auto& o : sel.order_by) {
        const int idx = t.find(o.column);
        if (idx < 0) return Status::invalid("Order by on unknown column " + o.column);
        const ColumnInfo& c = t.columns[idx];
        if (c.kind != ColumnKind::kClustering) {
            return Status::invalid(
                "Order by is currently only supported on the clustered "
                "columns of the PRIMARY KEY, got " +
                c.name);
        }
        // Columns restricted by EQ before this one may be skipped.
        if (c.position < expected ||
            (c.position > expected && c.position > where.clustering_prefix_columns)) {
            return Status::invalid(
                "Order by currently only supports the ordering of columns "
                "following their declared order in the PRIMARY KEY (" +
                c.name + " is not the clustering column " +
                (expected < static_cast<int>(t.clustering.size())
                     ? t.ck(expected).name + " that comes next"
                     : std::string("that comes next")) +
                "; the clustering order is " + clustering_order_text(t) + ")");
        }
        expected = c.position + 1;
        const bool rev = o.descending != c.descending;
        if (reversed && *reversed != rev) {
            return Status::invalid("Unsupported order by relation (" + c.name + " " +
                                   (o.descending ? "DESC" : "ASC") +
                                   " neither follows nor reverses the clustering order " +
                                   clustering_order_text(t) + " as the columns before it do)");
        }
        reversed = rev;
    }
    if (!where.partition_restricted()) {
        return Status::invalid(
            "ORDER BY is only supported when the partition key is restricted by an EQ or an IN.");
    }
    plan->reversed = reversed.value_or(false);
    plan->order_by = true;
    return Status::ok();
}

// The columns a selector reads, nested function arguments included
// (Cassandra's Selection.getColumns()).
void selected_columns(const SelectorPlan& s, std::vector<int>* out) {
    if (s.column >= 0 && (s.kind == SK::kColumn || s.kind == SK::kWritetime || s.kind == SK::kTtl ||
                          s.kind == SK::kField)) {
        out->push_back(s.column);
    }
    for (const auto& a : s.args)
        selected_columns(a, out);
}

Status check_distinct(const TableInfo& t, SelectPlan* plan) {
    bool non_static_filter = false;
    for (const auto& f : plan->where.filters) {
        non_static_filter =
            non_static_filter || f.column < 0 || t.columns[f.column].kind != ColumnKind::kStatic;
    }
    if (plan->where.slice_first_column >= 0 || plan->where.clustering_prefix_columns > 0 ||
        non_static_filter) {
        return Status::invalid(
            "SELECT DISTINCT with WHERE clause only supports restriction by "
            "partition key and/or static columns.");
    }
    std::vector<int> columns;
    for (const auto& s : plan->selectors)
        selected_columns(s, &columns);
    std::vector<bool> seen(t.columns.size(), false);
    for (int col : columns) {
        const ColumnInfo& c = t.columns[col];
        if (c.kind != ColumnKind::kPartitionKey && c.kind != ColumnKind::kStatic) {
            return Status::invalid(
                "SELECT DISTINCT queries must only request partition key "
                "columns and/or static columns (not " +
                c.name + ")");
        }
        seen[col] = true;
    }
    // Only a key range must name every partition key column: when the
    // partition key is restricted, the partitions are known.
    if (plan->where.partition_restricted() || plan->aggregate) return Status::ok();
    for (size_t i = 0; i < t.partition_key.size(); ++i) {
        if (!seen[t.partition_key[i]]) {
            return Status::invalid(
                "SELECT DISTINCT queries must request all the partition key "
                "columns (missing " +
                t.pk(i).name + ")");
        }
    }
    return Status::ok();
}

Status check_group_by(const SelectStatement& sel, const TableInfo& t, SelectPlan* plan) {
    int expected = 0;
    const int pk_count = static_cast<int>(t.partition_key.size());
    for (const auto& g : sel.group_by) {
        const int idx = t.find(g);
        if (idx < 0) return undefined_column(g);
        const ColumnInfo& c = t.columns[idx];
        int pos = c.kind == ColumnKind::kPartitionKey ? c.position
                  : c.kind == ColumnKind::kClustering ? pk_count + c.position
                                                      : -1;
        // Clustering columns fixed by EQ may be skipped in GROUP BY.
        while (pos > expected && expected >= pk_count &&
               expected - pk_count < plan->where.clustering_prefix_columns) {
            ++expected;
        }
        if (pos != expected) {
            return Status::invalid(
                "Group by currently only support groups of columns following "
                "their declared order in the PRIMARY KEY");
        }
        ++expected;
    }
    plan->group_by_columns = expected;
    return Status::ok();
}

}  // namespace

Result<SelectPlan> prepare_select(const SelectStatement& sel, const TablePtr& table,
                                  BindContext* ctx, std::vector<ColumnSpec>* result_columns) {
    const TableInfo& t = *table;
    SelectPlan plan;
    plan.table = table;
    plan.distinct = sel.distinct;
    plan.json = sel.json;
    // Bind markers in the select clause come first in the statement text.
    SelectorBuilder sb(t, ctx);
    if (sel.select_all) {
        for (size_t i = 0; i < t.columns.size(); ++i) {
            SelectorPlan p;
            p.kind = SK::kColumn;
            p.column = static_cast<int>(i);
            p.type = t.columns[i].type;
            p.name = t.columns[i].name;
            plan.selectors.push_back(std::move(p));
        }
    } else {
        for (const auto& s : sel.selectors) {
            TESSEL_ASSIGN_OR_RETURN(auto p, sb.build(s));
            plan.aggregate = plan.aggregate || p.is_aggregate();
            plan.selectors.push_back(std::move(p));
        }
    }
    TESSEL_ASSIGN_OR_RETURN(
        plan.where, prepare_where(sel.where, t, WhereMode::kSelect, sel.allow_filtering, ctx));
    TESSEL_RETURN_IF_ERROR(check_order_by(sel, t, plan.where, &plan));
    if (t.bucketed() && !sel.distinct && !sel.allow_filtering &&
        !bucket_column_bounded(t, plan.where)) {
        return Status::invalid("A range on time-bucket column " + t.columns[t.bucket_column].name +
                               " is required for table " + t.keyspace + "." + t.name +
                               " (or use ALLOW FILTERING to scan all buckets)");
    }
    if (plan.distinct) {
        TESSEL_RETURN_IF_ERROR(check_distinct(t, &plan));
        plan.static_only = true;
    }
    if (!sel.group_by.empty()) {
        TESSEL_RETURN_IF_ERROR(check_group_by(sel, t, &plan));
        // Without aggregate functions GROUP BY still returns one row per
        // group (its first row), as Cassandra does.
        plan.aggregate = true;
    }
    if (sel.per_partition_limit) {
        TESSEL_ASSIGN_OR_RETURN(auto l,
                                prepare_term(*sel.per_partition_limit, native_type(TypeKind::kInt),
                                             "[per_partition_limit]", ctx));
        plan.per_partition_limit = std::move(l);
    }
    if (sel.limit) {
        TESSEL_ASSIGN_OR_RETURN(
            auto l, prepare_term(*sel.limit, native_type(TypeKind::kInt), "[limit]", ctx));
        plan.limit = std::move(l);
    }
    if (plan.json) {
        result_columns->push_back(
            ColumnSpec{t.keyspace, t.name, "[json]", native_type(TypeKind::kVarchar)});
    } else {
        for (const auto& s : plan.selectors) {
            result_columns->push_back(ColumnSpec{t.keyspace, t.name, s.name, s.type});
        }
    }
    return plan;
}

}  // namespace tessel::cql
