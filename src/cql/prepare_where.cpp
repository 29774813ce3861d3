// WHERE classification: which relations select partitions, which select a
// clustering prefix and slice, and which can only be checked row by row.
#include <algorithm>

#include "cql/prepare.h"
#include "cql/prepare_relation.h"

namespace tessel::cql {
namespace {

const std::string kFilteringMessage =
    "Cannot execute this query as it might involve data filtering and thus may have "
    "unpredictable performance. If you want to execute this query despite the performance "
    "unpredictability, use ALLOW FILTERING";

// Restrictions gathered on one key column (or starting at it, for tuples).
struct ColumnRestrictions {
    std::optional<KeyValues> eq;  // EQ or IN
    std::optional<SliceBound> start, end;
    bool multi = false;
    bool single_slice = false;   // a slice written on this column alone
    bool tuple_slice = false;    // a tuple slice starting at this column
    int covered_by = -1;         // first column of a tuple relation covering this later column
    bool covered_by_eq = false;  // ... which is an EQ or IN
    bool has_slice() const { return start || end; }
    bool any() const { return eq || start || end; }
};

class WhereBuilder {
  public:
    WhereBuilder(const TableInfo& t, WhereMode m, bool af, BindContext* c)
        : table_(t),
          mode_(m),
          allow_filtering_(af),
          ctx_(c),
          pk_(t.partition_key.size()),
          ck_(t.clustering.size()) {}

    Status add(const Relation& r) {
        // The parser guarantees these shapes; checked so that a malformed
        // tree is an error, never a crash.
        if (r.columns.empty() ||
            (r.op != Operator::kIn && r.op != Operator::kIsNotNull && !r.value) ||
            (r.kind == Relation::Kind::kMapEntry && !r.map_key)) {
            return Status::invalid("Invalid relation in WHERE clause");
        }
        switch (r.kind) {
            case Relation::Kind::kToken:
                return add_token(r);
            case Relation::Kind::kMultiColumn:
                return add_multi(r);
            case Relation::Kind::kMapEntry:
                return add_map_entry(r);
            case Relation::Kind::kSingleColumn:
                return add_single(r);
        }
        return Status::ok();
    }

    Result<WherePlan> finish() {
        TESSEL_RETURN_IF_ERROR(finish_partition());
        TESSEL_RETURN_IF_ERROR(finish_clustering());
        if (mode_ == WhereMode::kSelect && !table_.is_virtual && !allow_filtering_) {
            const bool clustering_without_partition =
                !plan_.partition_restricted() &&
                (plan_.clustering_prefix_columns > 0 || plan_.slice_first_column >= 0);
            if (!plan_.filters.empty() || clustering_without_partition) {
                return Status::invalid(kFilteringMessage + filtering_detail());
            }
        }
        return std::move(plan_);
    }

  private:
    // After Cassandra's text: which restriction needs the filtering.
    std::string filtering_detail() const {
        std::vector<std::string> filtered, unrestricted;
        for (const auto& f : plan_.filters) {
            const std::string& name = table_.columns[f.column].name;
            if (std::find(filtered.begin(), filtered.end(), name) == filtered.end()) {
                filtered.push_back(name);
            }
        }
        if (!plan_.partition_restricted()) {
            for (size_t i = 0; i < table_.partition_key.size(); ++i)
                unrestricted.push_back(table_.pk(i).name);
        }
        std::string out;
        if (!filtered.empty()) {
            out += std::string(filtered.size() > 1 ? "columns " : "column ") +
                   join_names(filtered) + " would be filtered row by row";
        }
        if (!unrestricted.empty()) {
            if (!out.empty()) out += "; ";
            out += std::string(unrestricted.size() > 1 ? "partition key columns "
                                                       : "partition key column ") +
                   join_names(unrestricted) + " not restricted by = or IN";
        }
        return " (" + out + ")";
    }

    Status add_token(const Relation& r) {
        if (mode_ != WhereMode::kSelect) {
            return Status::invalid(
                "The token function cannot be used in WHERE clauses for "
                "UPDATE and DELETE statements");
        }
        std::vector<std::string> pk_names;
        for (size_t i = 0; i < table_.partition_key.size(); ++i)
            pk_names.push_back(table_.pk(i).name);
        if (r.columns != pk_names) {
            for (const auto& c : r.columns) {
                if (table_.find(c) < 0) return undefined_column(c);
            }
            return Status::invalid(
                "The token function arguments must be in the partition key "
                "order: " +
                join_names(pk_names));
        }
        if (!r.value) return Status::invalid("Only EQ, <, <=, > and >= are supported on token()");
        TermPlan v;
        if (r.value->is_function_call() && r.value->function_call().name == "token") {
            TESSEL_ASSIGN_OR_RETURN(v, token_term(r.value->function_call()));
        } else {
            TESSEL_ASSIGN_OR_RETURN(v, prepare_term(*r.value, native_type(TypeKind::kBigint),
                                                    "partition key token", ctx_));
        }
        TokenBound b{v, is_inclusive(r.op) || r.op == Operator::kEq};
        if (r.op == Operator::kEq || is_start(r.op)) {
            if (plan_.token_start) return dup_token("start");
            plan_.token_start = b;
        }
        if (r.op == Operator::kEq || (is_slice(r.op) && !is_start(r.op))) {
            if (plan_.token_end) return dup_token("end");
            plan_.token_end = b;
        }
        if (r.op != Operator::kEq && !is_slice(r.op)) {
            return Status::invalid(std::string(op_text(r.op)) +
                                   " is not a supported operator on token()");
        }
        return Status::ok();
    }
    // token(v1, v2) on the right-hand side: the token of those key values.
    Result<TermPlan> token_term(const FunctionCall& call) {
        if (call.args.size() != table_.partition_key.size()) {
            return Status::invalid("Invalid number of arguments in call to function token: " +
                                   std::to_string(table_.partition_key.size()) + " required but " +
                                   std::to_string(call.args.size()) + " provided");
        }
        TermPlan t;
        t.kind = TermPlan::Kind::kFunction;
        t.function = token_function();
        t.type = native_type(TypeKind::kBigint);
        for (size_t i = 0; i < call.args.size(); ++i) {
            TESSEL_ASSIGN_OR_RETURN(
                auto a, prepare_term(call.args[i], table_.pk(i).type, table_.pk(i).name, ctx_));
            t.args.push_back(std::move(a));
        }
        return t;
    }

    Status dup_token(const char* which) {
        return Status::invalid(std::string("More than one restriction was found for the ") + which +
                               " bound on " + pk_list());
    }
    std::string pk_list() {
        std::vector<std::string> n;
        for (size_t i = 0; i < table_.partition_key.size(); ++i)
            n.push_back(table_.pk(i).name);
        return join_names(n);
    }

    Status add_map_entry(const Relation& r) {
        const int idx = table_.find(r.columns[0]);
        if (idx < 0) return undefined_column(r.columns[0]);
        const ColumnInfo& col = table_.columns[idx];
        if (col.type->kind != TypeKind::kMap) {
            return Status::invalid("Column " + col.name + " cannot be used as a map");
        }
        Filter f;
        f.column = idx;
        f.op = r.op;
        TESSEL_ASSIGN_OR_RETURN(
            auto k, prepare_term(*r.map_key, col.type->params[0], "key(" + col.name + ")", ctx_));
        TESSEL_ASSIGN_OR_RETURN(
            auto v, prepare_term(*r.value, col.type->params[1], "value(" + col.name + ")", ctx_));
        f.map_key = std::move(k);
        f.value = std::move(v);
        return add_filter(std::move(f), col);
    }

    Status add_filter(Filter f, const ColumnInfo& col) {
        if (mode_ != WhereMode::kSelect) {
            return Status::invalid("Non PRIMARY KEY columns found in where clause: " + col.name);
        }
        plan_.filters.push_back(std::move(f));
        return Status::ok();
    }

    Status add_single(const Relation& r) {
        const int idx = table_.find(r.columns[0]);
        if (idx < 0) return undefined_column(r.columns[0]);
        const ColumnInfo& col = table_.columns[idx];
        if (r.op == Operator::kNeq) {
            return Status::invalid("Unsupported \"!=\" relation: " + col.name +
                                   " != " + (r.value ? to_string(*r.value) : std::string()));
        }
        if (r.op == Operator::kIsNotNull) {
            return Status::invalid("Unsupported restriction: " + col.name + " IS NOT NULL");
        }
        if (r.op == Operator::kLike) {
            return Status::invalid(
                "LIKE restriction is only supported on properly indexed "
                "columns. " +
                col.name + " LIKE " + (r.value ? to_string(*r.value) : std::string()) +
                " is not valid.");
        }
        if (r.op == Operator::kContains || r.op == Operator::kContainsKey) {
            return add_contains(r, idx, col);
        }
        if (col.kind == ColumnKind::kRegular || col.kind == ColumnKind::kStatic) {
            if (col.type->is_multi_cell() && r.op != Operator::kEq) {
                return Status::invalid("Collection column '" + col.name + "' (" +
                                       col.type->cql_name() + ") cannot be restricted by a '" +
                                       op_text(r.op) + "' relation");
            }
            Filter f;
            f.column = idx;
            f.op = r.op;
            if (r.op == Operator::kIn) {
                TESSEL_ASSIGN_OR_RETURN(f.in_values, single_values(r, col, ctx_));
            } else {
                TESSEL_ASSIGN_OR_RETURN(auto v, prepare_term(*r.value, col.type, col.name, ctx_));
                f.value = std::move(v);
            }
            return add_filter(std::move(f), col);
        }
        ColumnRestrictions& cr =
            col.kind == ColumnKind::kPartitionKey ? pk_[col.position] : ck_[col.position];
        const bool eq_op = r.op == Operator::kEq || r.op == Operator::kIn;
        // A column inside a tuple relation, or starting a tuple slice, takes
        // no restriction of its own (Cassandra's merge rules).
        if (cr.covered_by >= 0 || (cr.tuple_slice && !eq_op)) {
            if (eq_op || cr.covered_by_eq) return equal_conflict(col.name);
            return tuple_and_single(col.name, r);
        }
        if (eq_op) {
            if (cr.any()) {
                return Status::invalid(col.name +
                                       " cannot be restricted by more than one "
                                       "relation if it includes an Equal");
            }
            TESSEL_ASSIGN_OR_RETURN(auto kv, single_values(r, col, ctx_));
            cr.eq = std::move(kv);
            return Status::ok();
        }
        // Slice.
        if (cr.eq) {
            return Status::invalid(col.name +
                                   " cannot be restricted by both an equality and an "
                                   "inequality relation");
        }
        TESSEL_ASSIGN_OR_RETURN(auto v, prepare_term(*r.value, col.type, col.name, ctx_));
        SliceBound b;
        b.values.push_back(std::move(v));
        b.inclusive = is_inclusive(r.op);
        auto& slot = is_start(r.op) ? cr.start : cr.end;
        if (slot) {
            return Status::invalid(std::string("More than one restriction was found for the ") +
                                   (is_start(r.op) ? "start" : "end") + " bound on " + col.name);
        }
        slot = std::move(b);
        cr.single_slice = true;
        return Status::ok();
    }

    static Status equal_conflict(const std::string& column) {
        return Status::invalid(column +
                               " cannot be restricted by more than one relation if it includes "
                               "an Equal");
    }
    static Status tuple_and_single(const std::string& column, const Relation& r) {
        return Status::invalid("Column \"" + column +
                               "\" cannot be restricted by both a tuple notation inequality and a "
                               "single column inequality (" +
                               relation_text(r) + ")");
    }
    static std::string relation_text(const Relation& r) {
        if (r.kind == Relation::Kind::kMultiColumn) return multi_text(r);
        return r.columns[0] + " " + op_text(r.op) + " " +
               (r.value ? to_string(*r.value) : std::string("(...)"));
    }

    Status add_contains(const Relation& r, int idx, const ColumnInfo& col) {
        if (!col.type->is_collection()) {
            return Status::invalid("Cannot use CONTAINS on non-collection column " + col.name);
        }
        if (r.op == Operator::kContainsKey && col.type->kind != TypeKind::kMap) {
            return Status::invalid("Cannot use CONTAINS KEY on non-map column " + col.name);
        }
        const TypePtr& et = col.type->kind == TypeKind::kMap && r.op == Operator::kContains
                                ? col.type->params[1]
                                : col.type->params[0];
        Filter f;
        f.column = idx;
        f.op = r.op;
        TESSEL_ASSIGN_OR_RETURN(auto v, prepare_term(*r.value, et, col.name, ctx_));
        f.value = std::move(v);
        if (col.is_primary_key() && mode_ == WhereMode::kSelect) {
            plan_.filters.push_back(std::move(f));
            return Status::ok();
        }
        return add_filter(std::move(f), col);
    }

    Status add_multi(const Relation& r) {
        std::vector<const ColumnInfo*> cols;
        int prev = -1;
        for (const auto& name : r.columns) {
            const int idx = table_.find(name);
            if (idx < 0) return undefined_column(name);
            const ColumnInfo& c = table_.columns[idx];
            if (c.kind != ColumnKind::kClustering) {
                return Status::invalid(
                    "Multi-column relations can only be applied to clustering "
                    "columns but was applied to: " +
                    c.name);
            }
            if (prev >= 0 && c.position != prev + 1) {
                return Status::invalid(
                    "Clustering columns must appear in the PRIMARY KEY order in "
                    "multi-column relations: " +
                    multi_text(r));
            }
            prev = c.position;
            cols.push_back(&c);
        }
        ColumnRestrictions& cr = ck_[cols[0]->position];
        const int width = static_cast<int>(cols.size());
        const bool eq_op = r.op == Operator::kEq || r.op == Operator::kIn;
        // The columns after the first may carry no other restriction, nor
        // belong to another tuple relation that starts elsewhere.
        for (int j = 1; j < width; ++j) {
            const ColumnRestrictions& o = ck_[cols[j]->position];
            const bool other_tuple = o.covered_by >= 0 && o.covered_by != cols[0]->position;
            if (!other_tuple && !o.any()) continue;
            if (eq_op || o.eq || o.covered_by_eq) return equal_conflict(cols[j]->name);
            if (o.single_slice) return tuple_and_single(cols[j]->name, r);
            return Status::invalid("Column \"" + cols[j]->name +
                                   "\" cannot be restricted by two inequalities not starting "
                                   "with the same column");
        }
        if (cr.covered_by >= 0) {
            if (eq_op || cr.covered_by_eq) return equal_conflict(cols[0]->name);
            return Status::invalid("Column \"" + cols[0]->name +
                                   "\" cannot be restricted by two inequalities not starting "
                                   "with the same column");
        }
        if (!eq_op && cr.eq) return equal_conflict(cols[0]->name);
        if (!eq_op && cr.single_slice) return tuple_and_single(cols[0]->name, r);
        cr.multi = true;
        for (int j = 1; j < width; ++j) {
            ck_[cols[j]->position].covered_by = cols[0]->position;
            ck_[cols[j]->position].covered_by_eq = eq_op;
        }
        if (!eq_op) cr.tuple_slice = true;
        if (r.op == Operator::kEq || r.op == Operator::kIn) {
            if (cr.any()) {
                return Status::invalid(cols[0]->name +
                                       " cannot be restricted by more than one "
                                       "relation if it includes an Equal");
            }
            KeyValues kv;
            kv.width = width;
            kv.is_in = r.op == Operator::kIn;
            if (r.op == Operator::kEq) {
                std::optional<TermPlan> marker;
                TESSEL_ASSIGN_OR_RETURN(auto vals, tuple_terms(*r.value, cols, &marker, ctx_));
                if (marker) {
                    kv.tuple_marker = std::move(marker);
                } else {
                    kv.alternatives.push_back(std::move(vals));
                }
            } else if (r.in_values.is_list) {
                for (const auto& t : r.in_values.list) {
                    std::optional<TermPlan> marker;
                    TESSEL_ASSIGN_OR_RETURN(auto vals, tuple_terms(t, cols, &marker, ctx_));
                    if (marker) {
                        kv.alternatives.push_back({std::move(*marker)});
                        kv.alternatives.back()[0].collection_kind = Literal::Kind::kTuple;
                    } else {
                        kv.alternatives.push_back(std::move(vals));
                    }
                }
            } else {
                std::vector<TypePtr> types;
                for (auto* c : cols)
                    types.push_back(c->type);
                TESSEL_ASSIGN_OR_RETURN(
                    auto p, prepare_term(*r.in_values.single, list_type(tuple_type(types), false),
                                         "in(" + multi_names(cols) + ")", ctx_));
                kv.list_marker = std::move(p);
            }
            cr.eq = std::move(kv);
            for (int i = 1; i < width; ++i)
                ck_[cols[0]->position + i].multi = true;
            return Status::ok();
        }
        if (!is_slice(r.op)) {
            return Status::invalid(std::string(op_text(r.op)) +
                                   " is not supported by multi-column relations");
        }
        std::optional<TermPlan> marker;
        TESSEL_ASSIGN_OR_RETURN(auto vals, tuple_terms(*r.value, cols, &marker, ctx_));
        SliceBound b;
        b.values = std::move(vals);
        b.tuple_marker = std::move(marker);
        b.width = width;
        b.inclusive = is_inclusive(r.op);
        auto& slot = is_start(r.op) ? cr.start : cr.end;
        if (slot) {
            return Status::invalid(std::string("More than one restriction was found for the ") +
                                   (is_start(r.op) ? "start" : "end") + " bound on " +
                                   cols[0]->name);
        }
        slot = std::move(b);
        for (int i = 1; i < width; ++i)
            ck_[cols[0]->position + i].multi = true;
        return Status::ok();
    }
    static std::string multi_names(const std::vector<const ColumnInfo*>& cols) {
        std::string s;
        for (size_t i = 0; i < cols.size(); ++i)
            s += (i ? "," : "") + cols[i]->name;
        return s;
    }
    static std::string multi_text(const Relation& r) {
        return "(" + join_names(r.columns) + ") " + op_text(r.op) + " " +
               (r.value ? to_string(*r.value) : std::string("(...)"));
    }

    Status finish_partition() {
        std::vector<std::string> missing;
        size_t eq_count = 0, slice_count = 0;
        for (size_t i = 0; i < pk_.size(); ++i) {
            if (pk_[i].eq) {
                ++eq_count;
            } else {
                missing.push_back(table_.pk(i).name);
            }
            if (pk_[i].has_slice()) ++slice_count;
        }
        if (slice_count > 0) {
            if (!table_.hashed && pk_.size() == 1 && mode_ == WhereMode::kSelect) {
                plan_.key_start = pk_[0].start;
                plan_.key_end = pk_[0].end;
                return Status::ok();
            }
            if (mode_ != WhereMode::kSelect || !allow_filtering_) {
                return Status::invalid(
                    "Only EQ and IN relation are supported on the partition "
                    "key (unless you use the token() function)");
            }
        }
        if (eq_count == pk_.size()) {
            for (auto& r : pk_)
                plan_.partition_values.push_back(std::move(*r.eq));
            return Status::ok();
        }
        if (mode_ != WhereMode::kSelect) {
            return Status::invalid("Some partition key parts are missing: " + join_names(missing));
        }
        if (eq_count > 0 && !allow_filtering_ && !table_.is_virtual) {
            return Status::invalid("Partition key parts: " + join_names(missing) +
                                   " must be restricted as other parts are");
        }
        // Partial partition key (with ALLOW FILTERING): checked row by row.
        for (size_t i = 0; i < pk_.size(); ++i)
            to_filters(pk_[i], table_.partition_key[i]);
        return Status::ok();
    }

    void to_filters(ColumnRestrictions& r, int column) {
        if (r.eq) {
            Filter f;
            f.column = column;
            if (r.eq->is_in) {
                f.op = Operator::kIn;
                f.in_values = *r.eq;
            } else if (!r.eq->alternatives.empty()) {
                f.value = r.eq->alternatives[0][0];
            }
            plan_.filters.push_back(std::move(f));
        }
        for (auto* b : {&r.start, &r.end}) {
            if (!*b || (*b)->values.empty()) continue;
            Filter f;
            f.column = column;
            const bool start = b == &r.start;
            f.op = start ? ((*b)->inclusive ? Operator::kGte : Operator::kGt)
                         : ((*b)->inclusive ? Operator::kLte : Operator::kLt);
            f.value = (*b)->values[0];
            plan_.filters.push_back(std::move(f));
        }
    }

    Status finish_clustering() {
        bool gap = false;          // an earlier column is unrestricted
        bool after_slice = false;  // an earlier column has a slice
        int prev_col = -1;
        for (size_t i = 0; i < ck_.size(); ++i) {
            ColumnRestrictions& r = ck_[i];
            if (!r.any()) {
                if (r.multi) continue;  // covered by a tuple relation
                if (!gap && !after_slice) prev_col = static_cast<int>(i);
                gap = gap || !after_slice;
                continue;
            }
            const ColumnInfo& col = table_.ck(i);
            if (gap || after_slice) {
                const bool filterable = mode_ == WhereMode::kSelect &&
                                        (allow_filtering_ || table_.is_virtual) && !r.multi;
                if (!filterable) {
                    if (gap) {
                        return Status::invalid("PRIMARY KEY column \"" + col.name +
                                               "\" cannot be restricted as preceding column \"" +
                                               table_.ck(i - 1).name + "\" is not restricted");
                    }
                    return Status::invalid("Clustering column \"" + col.name +
                                           "\" cannot be restricted (preceding column \"" +
                                           table_.ck(prev_col).name +
                                           "\" is restricted by a non-EQ relation)");
                }
                to_filters(r, table_.clustering[i]);
                continue;
            }
            if (r.eq) {
                const int width = r.eq->width;
                plan_.clustering_prefix.push_back(std::move(*r.eq));
                plan_.clustering_prefix_columns += width;
                prev_col = static_cast<int>(i) + width - 1;
                i += width - 1;
                continue;
            }
            if (mode_ == WhereMode::kUpdate) {
                return Status::invalid(
                    "Slice restrictions are not supported on the clustering "
                    "columns in UPDATE statements");
            }
            plan_.slice_first_column = static_cast<int>(i);
            plan_.slice_start = std::move(r.start);
            plan_.slice_end = std::move(r.end);
            after_slice = true;
            prev_col = static_cast<int>(i);
            const int width = std::max(plan_.slice_start ? plan_.slice_start->width : 1,
                                       plan_.slice_end ? plan_.slice_end->width : 1);
            i += width - 1;
        }
        return Status::ok();
    }

    const TableInfo& table_;
    WhereMode mode_;
    bool allow_filtering_;
    BindContext* ctx_;
    std::vector<ColumnRestrictions> pk_;
    std::vector<ColumnRestrictions> ck_;
    WherePlan plan_;
};

}  // namespace

Result<WherePlan> prepare_where(const std::vector<Relation>& relations, const TableInfo& table,
                                WhereMode mode, bool allow_filtering, BindContext* ctx) {
    WhereBuilder b(table, mode, allow_filtering, ctx);
    for (const auto& r : relations)
        TESSEL_RETURN_IF_ERROR(b.add(r));
    return b.finish();
}

Status undefined_column(const std::string& name) {
    return Status::invalid("Undefined column name " + name);
}

std::string join_names(const std::vector<std::string>& names, const char* sep) {
    std::string out;
    for (size_t i = 0; i < names.size(); ++i) {
        if (i) out += sep;
        out += names[i];
    }
    return out;
}

}  // namespace tessel::cql
