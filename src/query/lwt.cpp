// Writes: plain batches, and lightweight transactions (IF NOT EXISTS /
// IF EXISTS / IF conditions, alone or in a batch on one partition),
// serialised per partition by striped mutexes.
#include <set>

#include "query/cells.h"
#include "query/coordinator.h"
#include "query/key_values.h"
#include "query/shard_router.h"
#include "query/sharded_source.h"
#include "query/table_source.h"
#include "query/term_eval.h"
#include "query/write_builder.h"
#include "query/write_reads.h"
#include "storage/reconcile.h"
#include "types/bytes_util.h"
#include "types/value.h"

namespace tessel::query {
namespace {

using cql::Operator;

// Folds `from` into `into` (the same partition): what several conditional
// statements of one batch write, as one update.
void merge_mutation(storage::PartitionMutation* into, storage::PartitionMutation from) {
    into->partition_deletion =
        storage::max_deletion(into->partition_deletion, from.partition_deletion);
    for (auto& rt : from.range_tombstones)
        into->range_tombstones.push_back(std::move(rt));
    if (from.static_row) {
        if (into->static_row) {
            storage::merge_row(&*into->static_row, std::move(*from.static_row));
        } else {
            into->static_row = std::move(from.static_row);
        }
    }
    for (auto& r : from.rows)
        into->rows.push_back(std::move(r));
}

}  // namespace

// The single row a conditional statement targets.
struct CasTarget {
    PartitionTarget partition;
    std::string clustering;
    std::vector<std::string> clustering_values;
    bool static_only = false;
};

namespace {

Result<CasTarget> cas_target(const cql::ModifyPlan& p, const std::vector<BoundValue>& values) {
    const cql::TableInfo& t = *p.table;
    const KeyLayout layout = layout_of(t);
    TESSEL_ASSIGN_OR_RETURN(auto targets, partition_targets(p.where, t, layout, values));
    if (targets.size() != 1) {
        return Status::invalid("IN on the partition key is not supported with conditional updates");
    }
    CasTarget c;
    c.partition = std::move(targets[0]);
    TESSEL_ASSIGN_OR_RETURN(auto prefixes, clustering_prefix_values(p.where, t, values));
    if (prefixes.size() != 1) {
        return Status::invalid(
            "IN on the clustering key columns is not supported with conditional "
            "updates");
    }
    c.clustering_values = prefixes[0];
    c.clustering = encode_clustering(layout, prefixes[0]);
    c.static_only = !t.clustering.empty() && prefixes[0].empty();
    return c;
}

Result<bool> condition_holds(const cql::ConditionPlan& c, const cql::TableInfo& t,
                             const RowView& view, const std::vector<BoundValue>& values) {
    const cql::ColumnInfo& col = t.columns[c.column];
    TESSEL_ASSIGN_OR_RETURN(auto current, column_value(t, view, c.column));
    TypePtr type = col.type;
    if (c.element && current) {
        TESSEL_ASSIGN_OR_RETURN(auto key, evaluate(*c.element, values));
        TESSEL_ASSIGN_OR_RETURN(auto els, split_collection(*col.type, *current));
        std::optional<std::string> found;
        if (col.type->kind == TypeKind::kList) {
            const int32_t idx = key.is_value() ? bytes::read_i32(key.bytes) : -1;
            if (idx >= 0 && static_cast<size_t>(idx) < els.size()) found = els[idx];
            type = col.type->params[0];
        } else {
            for (size_t i = 0; i + 1 < els.size(); i += 2) {
                if (key.is_value() &&
                    compare_values(*col.type->params[0], els[i], key.bytes) == 0) {
                    found = els[i + 1];
                }
            }
            type = col.type->params[1];
        }
        current = found;
    } else if (c.element) {
        type = col.type->kind == TypeKind::kList ? col.type->params[0] : col.type->params[1];
    }
    if (c.field_index >= 0) {
        type = col.type->params[c.field_index];
        std::optional<std::string> found;
        if (current) {
            std::string_view in = *current;
            for (int i = 0; in.size() >= 4; ++i) {
                const int32_t len = bytes::read_i32(in);
                in.remove_prefix(4);
                if (len < 0) continue;
                if (i == c.field_index) found = std::string(in.substr(0, len));
                in.remove_prefix(std::min<size_t>(len, in.size()));
            }
        }
        current = found;
    }
    auto equal = [&](const TermValue& v) {
        if (!v.is_value()) return !current.has_value();
        return current && compare_values(*type, *current, v.bytes) == 0;
    };
    if (c.op == Operator::kIn) {
        if (c.in_values.list_marker) {
            TESSEL_ASSIGN_OR_RETURN(auto v, evaluate(*c.in_values.list_marker, values));
            if (!v.is_value()) return !current.has_value();
            TESSEL_ASSIGN_OR_RETURN(auto els,
                                    split_collection(*c.in_values.list_marker->type, v.bytes));
            for (auto& e : els) {
                if (equal(TermValue::value(e))) return true;
            }
            return false;
        }
        for (const auto& alt : c.in_values.alternatives) {
            TESSEL_ASSIGN_OR_RETURN(auto v, evaluate(alt[0], values));
            if (equal(v)) return true;
        }
        return false;
    }
    TESSEL_ASSIGN_OR_RETURN(auto v, evaluate(*c.value, values));
    if (v.is_unset()) return Status::invalid("Invalid 'unset' value in condition");
    if (c.op == Operator::kEq) return equal(v);
    if (c.op == Operator::kNeq) return !equal(v);
    if (!v.is_value()) {
        return Status::invalid("Invalid comparison with null for operator \"" +
                               std::string(c.op == Operator::kLt    ? "<"
                                           : c.op == Operator::kLte ? "<="
                                           : c.op == Operator::kGt  ? ">"
                                                                    : ">=") +
                               "\"");
    }
    if (!current) return false;
    const int cmp = compare_values(*type, *current, v.bytes);
    switch (c.op) {
        case Operator::kLt:
            return cmp < 0;
        case Operator::kLte:
            return cmp <= 0;
        case Operator::kGt:
            return cmp > 0;
        case Operator::kGte:
            return cmp >= 0;
        default:
            return false;
    }
}

ColumnSpec applied_spec(const cql::TableInfo& t) {
    return ColumnSpec{t.keyspace, t.name, "[applied]", native_type(TypeKind::kBoolean)};
}

std::optional<std::string> bool_value(bool b) {
    return std::string(1, b ? '\x01' : '\x00');
}

}  // namespace

Status Coordinator::observe_writes(const std::vector<TableMutation>& all) {
    if (!observer_) return Status::ok();
    for (const auto& [table, m] : all) {
        TESSEL_ASSIGN_OR_RETURN(auto comps,
                                decode_partition_key(layout_of(*table), m.partition_key));
        TESSEL_RETURN_IF_ERROR(observer_->before_write(*table, comps, m));
    }
    return Status::ok();
}

Task<Result<ResultSet>> Coordinator::run_batch(const std::vector<BatchItem>& items,
                                               int64_t timestamp, bool counter_batch,
                                               const RequestOptions& ro, bool is_batch) {
    bool conditional = false;
    bool has_counter = false, has_regular = false;
    for (const auto& it : items) {
        conditional = conditional || it.plan->is_conditional();
        (it.plan->table->is_counter ? has_counter : has_regular) = true;
    }
    if (counter_batch && has_regular) {
        co_return Status::invalid("Cannot include non-counter statement in a counter batch");
    }
    if (has_counter && has_regular) {
        co_return Status::invalid(
            "Counter and non-counter mutations cannot exist in the same batch");
    }
    // INSERT JSON becomes an ordinary insert of the document's values first.
    std::vector<cql::ModifyPlan> expanded;
    expanded.reserve(items.size());
    std::vector<BatchItem> resolved;
    for (const auto& it : items) {
        if (!it.plan->json) {
            resolved.push_back(it);
            continue;
        }
        TESSEL_CO_ASSIGN_OR_RETURN(auto e, expand_insert_json(*it.plan, *it.values));
        expanded.push_back(std::move(e));
        resolved.push_back({&expanded.back(), it.values});
    }
    if (conditional) co_return co_await run_conditional(resolved, timestamp, is_batch, ro);
    const int64_t now = replica_->now_seconds();
    WriteReads reads(replica_, now, ro);
    Writes writes;
    while (true) {
        auto built = build_writes(resolved, timestamp, now, reads);
        if (built.is_ok()) {
            writes = std::move(built).value();
            break;
        }
        if (!reads.has_missing()) co_return built.status();
        TESSEL_CO_RETURN_IF_ERROR(co_await reads.fetch_missing());
    }
    // Everything is validated before the first mutation is applied.
    ResultSet result;
    TESSEL_CO_RETURN_IF_ERROR(
        check_write_size(writes.logical, options_.limits, is_batch, &result.warnings));
    TESSEL_CO_RETURN_IF_ERROR(observe_writes(writes.logical));
    TESSEL_CO_RETURN_IF_ERROR(co_await apply_all(writes.to_apply(), ro));
    co_return result;
}

Result<Coordinator::Writes> Coordinator::build_writes(const std::vector<BatchItem>& items,
                                                      int64_t timestamp, int64_t now,
                                                      WriteReads& reads) {
    Writes w;
    for (const auto& it : items) {
        const cql::ModifyPlan* plan = it.plan;
        TESSEL_ASSIGN_OR_RETURN(auto params, write_params(*plan, *it.values, timestamp, now));
        TESSEL_ASSIGN_OR_RETURN(
            auto ms, build_mutations(*plan, *it.values, params, reads.rows(plan->table.get())));
        for (auto& m : ms)
            w.logical.emplace_back(plan->table.get(), std::move(m));
    }
    // Tables with hidden key components (write_sharding, time_bucket) are
    // written per physical partition; every statement is routed (and so
    // validated) before the first mutation is applied.
    for (const auto& [table, _] : w.logical)
        w.routed = w.routed || table->has_hidden_key();
    if (!w.routed) return w;
    for (size_t i = 0; i < w.logical.size(); ++i) {
        const cql::TableInfo* table = w.logical[i].first;
        if (!table->has_hidden_key()) {
            w.physical.push_back(w.logical[i]);
            continue;
        }
        TESSEL_ASSIGN_OR_RETURN(
            auto routed, route_mutations(*table, {w.logical[i].second}, reads.buckets(table)));
        for (auto& pm : routed)
            w.physical.emplace_back(table, std::move(pm));
    }
    return w;
}

Task<Status> Coordinator::apply_all(const std::vector<TableMutation>& mutations,
                                    const RequestOptions& ro) {
    // One partition (the common case): the replica's own Task, no layer here.
    if (mutations.size() == 1)
        return replica_->apply(mutations[0].first->id, mutations[0].second, ro);
    return apply_each(mutations, ro);
}

Task<Status> Coordinator::apply_each(const std::vector<TableMutation>& mutations,
                                     const RequestOptions& ro) {
    // Every partition's write is sent at once; on a cluster their replicas
    // work in parallel.
    std::vector<Task<Status>> applies;
    applies.reserve(mutations.size());
    for (const auto& [table, m] : mutations)
        applies.push_back(replica_->apply(table->id, m, ro));
    Status first;
    for (auto& a : applies) {
        Status st = co_await std::move(a);
        if (!st.is_ok() && first.is_ok()) first = std::move(st);
    }
    co_return first;
}

Task<Result<ResultSet>> Coordinator::run_conditional(const std::vector<BatchItem>& items,
                                                     int64_t timestamp, bool is_batch,
                                                     const RequestOptions& ro) {
    const int64_t now = replica_->now_seconds();
    const cql::TableInfo& t = *items[0].plan->table;
    if (t.has_hidden_key()) {
        co_return Status::invalid("Conditional updates are not supported on table " + t.keyspace +
                                  "." + t.name +
                                  ": its write_sharding or time_bucket option spreads a partition "
                                  "over several physical partitions");
    }
    std::vector<CasTarget> targets;
    for (const auto& it : items) {
        if (it.plan->table->id != t.id) {
            co_return Status::invalid("Batch with conditions cannot span multiple tables");
        }
        TESSEL_CO_ASSIGN_OR_RETURN(auto c, cas_target(*it.plan, *it.values));
        if (!targets.empty() && c.partition.key != targets[0].partition.key) {
            co_return Status::invalid("Batch with conditions cannot span multiple partitions");
        }
        targets.push_back(std::move(c));
    }
    // The replica runs the transaction: one node serialises the partition's
    // transactions, a cluster runs a Paxos round; `decide` reads what the
    // conditions need (at QUORUM on a cluster) and builds the update at the
    // transaction's timestamp.
    RequestOptions read_ro = ro;
    read_ro.consistency = ro.serial == cluster::Consistency::kLocalSerial
                              ? cluster::Consistency::kLocalQuorum
                              : cluster::Consistency::kQuorum;
    CasDecision decision;
    cluster::CasDecider decide =
        [&](int64_t ts) -> Task<Result<std::optional<storage::PartitionMutation>>> {
        WriteReads reads(replica_, now, read_ro);
        while (true) {
            // A Paxos round writes at its ballot's time; one node at the
            // statement's (ts 0).
            auto d = decide_conditional(items, targets, ts != 0 ? ts : timestamp, now,
                                        reads.rows(&t), is_batch);
            if (d.is_ok()) {
                decision = std::move(d).value();
                break;
            }
            if (!reads.has_missing()) co_return d.status();
            TESSEL_CO_RETURN_IF_ERROR(co_await reads.fetch_missing());
        }
        if (!decision.applied) co_return std::optional<storage::PartitionMutation>();
        TESSEL_CO_RETURN_IF_ERROR(observe_writes(decision.mutations));
        // One partition: the statements' mutations become one update.
        storage::PartitionMutation update;
        update.partition_key = targets[0].partition.key;
        for (auto& [_, m] : decision.mutations)
            merge_mutation(&update, std::move(m));
        co_return std::optional<storage::PartitionMutation>(std::move(update));
    };
    const std::string& key = targets[0].partition.key;
    TESSEL_CO_ASSIGN_OR_RETURN(bool written, co_await replica_->cas(t.id, key, ro, decide));
    (void)written;
    co_return std::move(decision.result);
}

Result<Coordinator::CasDecision> Coordinator::decide_conditional(
    const std::vector<BatchItem>& items, const std::vector<CasTarget>& targets, int64_t timestamp,
    int64_t now, const RowFetcher& fetch, bool is_batch) {
    const cql::TableInfo& t = *items[0].plan->table;
    const std::string& key = targets[0].partition.key;
    TESSEL_ASSIGN_OR_RETURN(auto static_row, fetch(key, "", true));
    // Every condition is evaluated; a failure shows the current values of
    // the rows they read, as Cassandra does: the condition columns (all
    // columns when any statement has IF [NOT] EXISTS), after the primary key
    // in a BATCH, one row per existing row, or [applied] alone when none exists.
    bool applied = true;
    bool wildcard = false;
    std::vector<int> shown;
    std::vector<std::optional<storage::Row>> rows(items.size());
    std::vector<size_t> existing;  // items whose row exists, one per clustering
    for (size_t i = 0; i < items.size(); ++i) {
        const cql::ModifyPlan& p = *items[i].plan;
        if (!p.is_conditional()) continue;
        const CasTarget& target = targets[i];
        if (!target.static_only) {
            TESSEL_ASSIGN_OR_RETURN(rows[i], fetch(key, target.clustering, false));
        }
        const bool exists = target.static_only ? static_row.has_value() : rows[i].has_value();
        RowView view{&target.partition.components, &target.clustering_values,
                     rows[i] ? &*rows[i] : nullptr, static_row ? &*static_row : nullptr, key};
        if (p.if_not_exists) {
            applied = applied && !exists;
            wildcard = true;
        } else if (p.if_exists) {
            applied = applied && exists;
            wildcard = true;
        } else {
            for (const auto& c : p.conditions) {
                TESSEL_ASSIGN_OR_RETURN(bool ok, condition_holds(c, t, view, *items[i].values));
                applied = applied && ok;
                if (std::find(shown.begin(), shown.end(), c.column) == shown.end()) {
                    shown.push_back(c.column);
                }
            }
        }
        // A row is shown once however many statements read it.
        if (exists) {
            const bool seen = std::any_of(existing.begin(), existing.end(), [&](size_t j) {
                return targets[j].clustering == target.clustering;
            });
            if (!seen) existing.push_back(i);
        }
    }
    // Without any of the rows, a static row read by the conditions stands for
    // the partition (clustering columns null).
    std::optional<size_t> static_only_row;
    const bool reads_static = wildcard || std::any_of(shown.begin(), shown.end(), [&](int c) {
                                  return t.columns[c].kind == cql::ColumnKind::kStatic;
                              });
    if (existing.empty() && static_row && reads_static) {
        for (size_t i = 0; i < items.size() && !static_only_row; ++i) {
            if (items[i].plan->is_conditional()) static_only_row = i;
        }
        if (static_only_row) existing.push_back(*static_only_row);
    }
    ResultSet failure;
    failure.kind = ResultSet::Kind::kRows;
    if (!applied) {
        std::vector<int> columns;
        auto add = [&](int c) {
            if (std::find(columns.begin(), columns.end(), c) == columns.end()) columns.push_back(c);
        };
        if (is_batch || wildcard) {
            for (int c : t.partition_key)
                add(c);
            for (int c : t.clustering)
                add(c);
        }
        if (wildcard) {
            for (size_t c = 0; c < t.columns.size(); ++c)
                add(static_cast<int>(c));
        }
        for (int c : shown)
            add(c);
        failure.columns.push_back(applied_spec(t));
        if (!existing.empty()) {
            for (int c : columns) {
                failure.columns.push_back(
                    ColumnSpec{t.keyspace, t.name, t.columns[c].name, t.columns[c].type});
            }
        }
        const std::vector<std::string> no_clustering;
        for (size_t i : existing) {
            const CasTarget& target = targets[i];
            // A missing row shown through its partition's static row has no
            // clustering values.
            const bool row_exists = target.static_only || rows[i].has_value();
            RowView view{&target.partition.components,
                         row_exists ? &target.clustering_values : &no_clustering,
                         rows[i] ? &*rows[i] : nullptr, static_row ? &*static_row : nullptr, key};
            std::vector<std::optional<std::string>> out{bool_value(false)};
            for (int c : columns) {
                TESSEL_ASSIGN_OR_RETURN(auto v, column_value(t, view, c));
                out.push_back(std::move(v));
            }
            failure.rows.push_back(std::move(out));
        }
        if (existing.empty()) failure.rows.push_back({bool_value(false)});
    }
    CasDecision decision;
    decision.applied = applied;
    if (!applied) {
        decision.result = std::move(failure);
        return decision;
    }
    for (const auto& it : items) {
        TESSEL_ASSIGN_OR_RETURN(auto params, write_params(*it.plan, *it.values, timestamp, now));
        TESSEL_ASSIGN_OR_RETURN(auto ms, build_mutations(*it.plan, *it.values, params, fetch));
        for (auto& m : ms)
            decision.mutations.emplace_back(&t, std::move(m));
    }
    decision.result.kind = ResultSet::Kind::kRows;
    decision.result.columns.push_back(applied_spec(t));
    decision.result.rows.push_back({bool_value(true)});
    return decision;
}

Task<Result<ResultSet>> Coordinator::execute_batch(BatchType type,
                                                   const std::vector<BatchEntry>& entries,
                                                   const QueryOptions& options,
                                                   std::string* keyspace, AccessControl* access) {
    std::vector<std::shared_ptr<const cql::Plan>> plans;
    std::vector<std::vector<BoundValue>> values;
    plans.reserve(entries.size());
    values.reserve(entries.size());
    for (const auto& e : entries) {
        std::shared_ptr<const cql::Plan> plan;
        if (!e.prepared_id.empty()) {
            TESSEL_CO_ASSIGN_OR_RETURN(plan, lookup_prepared(e.prepared_id));
        } else {
            TESSEL_CO_ASSIGN_OR_RETURN(plan, plan_for(e.query, *keyspace));
        }
        if (!std::holds_alternative<cql::ModifyPlan>(plan->node)) {
            co_return Status::invalid(
                "Invalid statement in batch: only UPDATE, INSERT and DELETE "
                "statements are allowed.");
        }
        if (access) TESSEL_CO_RETURN_IF_ERROR(access->authorize(*plan));
        QueryOptions o;
        o.values = e.values;
        o.named_values = options.named_values;
        TESSEL_CO_ASSIGN_OR_RETURN(auto v, bind(*plan, o));
        plans.push_back(std::move(plan));
        values.push_back(std::move(v));
    }
    std::vector<BatchItem> items;
    bool has_counter = false;
    for (size_t i = 0; i < plans.size(); ++i) {
        const auto* m = &std::get<cql::ModifyPlan>(plans[i]->node);
        has_counter = has_counter || m->table->is_counter;
        items.push_back({m, &values[i]});
    }
    if (type == BatchType::kLogged && has_counter) {
        co_return Status::invalid("Cannot include a counter statement in a logged batch");
    }
    const char* write_type = type == BatchType::kCounter
                                 ? "COUNTER"
                                 : (type == BatchType::kLogged ? "BATCH" : "UNLOGGED_BATCH");
    TESSEL_CO_RETURN_IF_ERROR(check_write_deadline(options, write_type));
    const int64_t ts = options.default_timestamp ? *options.default_timestamp : next_timestamp();
    co_return co_await run_batch(items, ts, type == BatchType::kCounter,
                                 request_options(options, write_type));
}

}  // namespace tessel::query
