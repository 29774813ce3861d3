#include "query/write_builder.h"

#include <algorithm>
#include <atomic>
#include <set>

#include "cql/prepare_functions.h"
#include "query/cells.h"
#include "query/key_values.h"
#include "query/table_source.h"
#include "query/term_eval.h"
#include "types/bytes_util.h"
#include "types/json.h"
#include "types/value.h"

namespace tessel::query {
namespace {

using OK = cql::OperationPlan::Kind;
constexpr int32_t kMaxTtl = 20 * 365 * 24 * 60 * 60;  // Cassandra's 20 years
// 100ns ticks of 2010-01-01 since the UUID epoch: prepended list elements get
// times mirrored below it, so later prepends sort first.
constexpr int64_t kPrependBase = 0x01B21DD213814000LL + 12623040000000000LL;

int64_t next_list_tick() {
    static std::atomic<int64_t> last{0};
    const int64_t now = cql::now_micros() * 10 + 0x01B21DD213814000LL;
    int64_t prev = last.load();
    while (true) {
        const int64_t next = std::max(now, prev + 1);
        if (last.compare_exchange_weak(prev, next)) return next;
    }
}

class RowWriter {
  public:
    RowWriter(const cql::ModifyPlan& plan, const std::vector<BoundValue>& values,
              const WriteParams& p, const RowFetcher& fetch)
        : plan_(plan), t_(*plan.table), values_(values), p_(p), fetch_(fetch) {}

    // Applies every operation to the row `clustering` of `m`.
    Status apply_ops(storage::PartitionMutation* m, const std::string& clustering, bool has_row) {
        storage::RowFragment* row = nullptr;
        for (const auto& op : plan_.operations) {
            const cql::ColumnInfo& col = t_.columns[op.column];
            const bool is_static = col.kind == cql::ColumnKind::kStatic;
            storage::RowFragment* frag;
            if (is_static) {
                if (!m->static_row) m->static_row.emplace();
                frag = &*m->static_row;
            } else {
                if (!has_row) continue;
                if (!row) row = &fragment(m, clustering);
                frag = row;
            }
            TESSEL_RETURN_IF_ERROR(
                apply(op, col, m->partition_key, is_static ? "" : clustering, frag));
        }
        if (plan_.kind == cql::ModifyPlan::Kind::kInsert && has_row) {
            if (!row) row = &fragment(m, clustering);
            row->marker.timestamp = p_.timestamp;
            row->marker.ttl = p_.ttl;
            row->marker.expiry = expiry();
        }
        return Status::ok();
    }

    static storage::RowFragment& fragment(storage::PartitionMutation* m, const std::string& ck) {
        for (auto& [c, f] : m->rows) {
            if (c == ck) return f;
        }
        m->rows.emplace_back(ck, storage::RowFragment{});
        return m->rows.back().second;
    }

  private:
    int32_t expiry() const {
        return p_.ttl > 0 ? static_cast<int32_t>(p_.now_seconds + p_.ttl) : 0;
    }
    storage::Cell live(uint32_t id, std::string path, std::string value) const {
        storage::Cell c;
        c.column_id = id;
        c.path = std::move(path);
        c.timestamp = p_.timestamp;
        c.ttl = p_.ttl;
        c.expiry = expiry();
        c.value = std::move(value);
        return c;
    }
    storage::Cell tombstone(uint32_t id, std::string path) const {
        storage::Cell c;
        c.column_id = id;
        c.path = std::move(path);
        c.kind = storage::Cell::Kind::kTombstone;
        c.timestamp = p_.timestamp;
        c.expiry = static_cast<int32_t>(p_.now_seconds);
        return c;
    }
    void complex_delete(storage::RowFragment* f, uint32_t id, storage::Timestamp ts) const {
        f->complex_deletions.push_back({id, {ts, static_cast<int32_t>(p_.now_seconds)}});
    }

    // Cells for every element of a collection/UDT value.
    Status add_elements(const cql::ColumnInfo& col, const std::string& value, bool prepend,
                        storage::RowFragment* f) {
        const CqlType& type = *col.type;
        if (type.kind == TypeKind::kUdt) {
            std::string_view in = value;
            for (int i = 0; in.size() >= 4; ++i) {
                const int32_t len = bytes::read_i32(in);
                in.remove_prefix(4);
                if (len < 0) continue;
                if (in.size() < static_cast<size_t>(len))
                    return Status::invalid("Invalid UDT value");
                f->cells.push_back(live(col.id, field_path(i), std::string(in.substr(0, len))));
                in.remove_prefix(len);
            }
            return Status::ok();
        }
        TESSEL_ASSIGN_OR_RETURN(auto els, split_collection(type, value));
        if (type.kind == TypeKind::kList) {
            std::vector<int64_t> ticks;
            for (size_t i = 0; i < els.size(); ++i)
                ticks.push_back(next_list_tick());
            for (size_t i = 0; i < els.size(); ++i) {
                const int64_t t = prepend ? 2 * kPrependBase - ticks[els.size() - 1 - i] : ticks[i];
                f->cells.push_back(live(col.id, list_path(t), std::move(els[i])));
            }
        } else if (type.kind == TypeKind::kSet) {
            for (auto& e : els)
                f->cells.push_back(live(col.id, element_path(*type.params[0], e), ""));
        } else {
            for (size_t i = 0; i + 1 < els.size(); i += 2) {
                f->cells.push_back(live(col.id, element_path(*type.params[0], els[i]), els[i + 1]));
            }
        }
        return Status::ok();
    }

    // The current list cells of a column (for index and removal operations).
    Result<std::vector<storage::Cell>> list_cells(const cql::ColumnInfo& col, const std::string& pk,
                                                  const std::string& ck) {
        TESSEL_ASSIGN_OR_RETURN(auto row, fetch_(pk, ck, col.kind == cql::ColumnKind::kStatic));
        std::vector<storage::Cell> out;
        if (!row) return out;
        auto [b, e] = column_cells(*row, col.id);
        out.assign(b, e);
        return out;
    }

    Status apply(const cql::OperationPlan& op, const cql::ColumnInfo& col, const std::string& pk,
                 const std::string& ck, storage::RowFragment* f) {
        const CqlType& type = *col.type;
        std::optional<TermValue> value;
        if (op.value) {
            TESSEL_ASSIGN_OR_RETURN(auto v, evaluate(*op.value, values_));
            if (v.is_unset()) return Status::ok();
            value = std::move(v);
        }
        switch (op.kind) {
            case OK::kSet:
                if (!type.is_multi_cell()) {
                    f->cells.push_back(value->is_null() ? tombstone(col.id, "")
                                                        : live(col.id, "", value->bytes));
                    return Status::ok();
                }
                complex_delete(f, col.id, value->is_null() ? p_.timestamp : p_.timestamp - 1);
                if (value->is_null()) return Status::ok();
                return add_elements(col, value->bytes, false, f);
            case OK::kDelete:
                if (type.is_multi_cell()) {
                    complex_delete(f, col.id, p_.timestamp);
                } else {
                    f->cells.push_back(tombstone(col.id, ""));
                }
                return Status::ok();
            case OK::kSetField:
            case OK::kDeleteField:
                if (op.kind == OK::kSetField && !value->is_null()) {
                    f->cells.push_back(live(col.id, field_path(op.field_index), value->bytes));
                } else {
                    f->cells.push_back(tombstone(col.id, field_path(op.field_index)));
                }
                return Status::ok();
            case OK::kAdd:
            case OK::kSubtract:
            case OK::kPrepend:
                return add_or_remove(op, col, pk, ck, value, f);
            case OK::kSetElement:
            case OK::kDeleteElement:
                return set_element(op, col, pk, ck, value, f);
        }
        return Status::ok();
    }

    Status add_or_remove(const cql::OperationPlan& op, const cql::ColumnInfo& col,
                         const std::string& pk, const std::string& ck,
                         const std::optional<TermValue>& value, storage::RowFragment* f) {
        const CqlType& type = *col.type;
        if (value->is_null()) {
            if (type.is_counter()) {
                return Status::invalid("Invalid null value for counter increment/decrement");
            }
            return Status::ok();
        }
        if (type.is_counter()) {
            int64_t delta = bytes::read_i64(value->bytes);
            if (op.kind == OK::kSubtract) delta = -delta;
            storage::Cell c = live(col.id, "", bytes::i64_bytes(delta));
            c.kind = storage::Cell::Kind::kCounterDelta;
            c.ttl = 0;
            c.expiry = 0;
            f->cells.push_back(std::move(c));
            return Status::ok();
        }
        if (op.kind != OK::kSubtract)
            return add_elements(col, value->bytes, op.kind == OK::kPrepend, f);
        TESSEL_ASSIGN_OR_RETURN(auto els, split_collection(*op.value->type, value->bytes));
        if (type.kind == TypeKind::kList) {
            TESSEL_ASSIGN_OR_RETURN(auto cells, list_cells(col, pk, ck));
            for (const auto& c : cells) {
                for (const auto& e : els) {
                    if (compare_values(*type.params[0], c.value, e) == 0) {
                        f->cells.push_back(tombstone(col.id, c.path));
                        break;
                    }
                }
            }
            return Status::ok();
        }
        for (const auto& e : els)
            f->cells.push_back(tombstone(col.id, element_path(*type.params[0], e)));
        return Status::ok();
    }

    Status set_element(const cql::OperationPlan& op, const cql::ColumnInfo& col,
                       const std::string& pk, const std::string& ck,
                       const std::optional<TermValue>& value, storage::RowFragment* f) {
        const CqlType& type = *col.type;
        TESSEL_ASSIGN_OR_RETURN(auto key, evaluate(*op.key, values_));
        if (!key.is_value()) {
            return Status::invalid(
                "Invalid null value for " +
                std::string(type.kind == TypeKind::kList ? "list index" : "map key"));
        }
        const bool remove = op.kind == OK::kDeleteElement || (value && value->is_null());
        if (type.kind == TypeKind::kList) {
            const int32_t idx = bytes::read_i32(key.bytes);
            TESSEL_ASSIGN_OR_RETURN(auto cells, list_cells(col, pk, ck));
            if (idx < 0 || static_cast<size_t>(idx) >= cells.size()) {
                if (op.kind == OK::kDeleteElement) return Status::ok();
                return Status::invalid("List index " + std::to_string(idx) +
                                       " out of bound, list has size " +
                                       std::to_string(cells.size()));
            }
            f->cells.push_back(remove ? tombstone(col.id, cells[idx].path)
                                      : live(col.id, cells[idx].path, value->bytes));
            return Status::ok();
        }
        const std::string path = element_path(*type.params[0], key.bytes);
        if (remove) {
            f->cells.push_back(tombstone(col.id, path));
        } else {
            f->cells.push_back(live(col.id, path, type.kind == TypeKind::kSet ? "" : value->bytes));
        }
        return Status::ok();
    }

    const cql::ModifyPlan& plan_;
    const cql::TableInfo& t_;
    const std::vector<BoundValue>& values_;
    const WriteParams& p_;
    const RowFetcher& fetch_;
};

Status add_deletion(const cql::ModifyPlan& plan, const std::vector<BoundValue>& values,
                    const WriteParams& p, const KeyLayout& layout, storage::PartitionMutation* m) {
    const cql::TableInfo& t = *plan.table;
    const storage::DeletionTime dt{p.timestamp, static_cast<int32_t>(p.now_seconds)};
    const auto& w = plan.where;
    if (w.clustering_prefix_columns == 0 && w.slice_first_column < 0) {
        m->partition_deletion = dt;
        return Status::ok();
    }
    if (w.clustering_prefix_columns == static_cast<int>(t.clustering.size()) &&
        w.slice_first_column < 0) {
        TESSEL_ASSIGN_OR_RETURN(auto prefixes, clustering_prefix_values(w, t, values));
        for (const auto& pv : prefixes) {
            RowWriter::fragment(m, encode_clustering(layout, pv)).deletion = dt;
        }
        return Status::ok();
    }
    TESSEL_ASSIGN_OR_RETURN(auto intervals, clustering_intervals(w, t, layout, values));
    for (const auto& iv : intervals) {
        m->range_tombstones.push_back({interval_start(iv), interval_end(iv), dt});
    }
    return Status::ok();
}

}  // namespace

Result<WriteParams> write_params(const cql::ModifyPlan& plan, const std::vector<BoundValue>& values,
                                 storage::Timestamp default_timestamp, int64_t now_seconds) {
    WriteParams p;
    p.now_seconds = now_seconds;
    p.timestamp = default_timestamp;
    p.ttl = plan.table->default_ttl;
    if (plan.timestamp) {
        TESSEL_ASSIGN_OR_RETURN(auto v, evaluate(*plan.timestamp, values));
        if (v.is_null()) return Status::invalid("Invalid null value of timestamp");
        if (v.is_value()) p.timestamp = bytes::read_i64(v.bytes);
    }
    if (plan.ttl) {
        TESSEL_ASSIGN_OR_RETURN(auto v, evaluate(*plan.ttl, values));
        if (v.is_null()) return Status::invalid("Invalid null value of TTL");
        if (v.is_value()) {
            const int32_t ttl = bytes::read_i32(v.bytes);
            if (ttl < 0) {
                return Status::invalid("A TTL must be greater or equal to 0, but was " +
                                       std::to_string(ttl));
            }
            if (ttl > kMaxTtl) {
                return Status::invalid("ttl is too large. requested (" + std::to_string(ttl) +
                                       ") maximum (" + std::to_string(kMaxTtl) + ")");
            }
            p.ttl = ttl;
        }
    }
    if (plan.table->is_counter) p.ttl = 0;
    // Cassandra's UpdateParameters: Long.MIN_VALUE means "no timestamp" inside
    // the storage (storage::kNoTimestamp), so no write may carry it. Any other
    // value, negative ones included, is accepted.
    if (p.timestamp == storage::kNoTimestamp) {
        return Status::invalid(
            "Out of bound timestamp, must be in [-9223372036854775807, 9223372036854775807]");
    }
    return p;
}

Result<std::vector<storage::PartitionMutation>> build_mutations(
    const cql::ModifyPlan& plan, const std::vector<BoundValue>& values, const WriteParams& params,
    const RowFetcher& fetch) {
    const cql::TableInfo& t = *plan.table;
    const KeyLayout layout = layout_of(t);
    TESSEL_ASSIGN_OR_RETURN(auto targets, partition_targets(plan.where, t, layout, values));
    std::vector<std::string> rows;
    const bool row_delete = plan.kind == cql::ModifyPlan::Kind::kDelete && plan.operations.empty();
    const bool has_row =
        plan.where.clustering_prefix_columns == static_cast<int>(t.clustering.size());
    if (!row_delete && has_row) {
        TESSEL_ASSIGN_OR_RETURN(auto prefixes, clustering_prefix_values(plan.where, t, values));
        for (const auto& pv : prefixes)
            rows.push_back(encode_clustering(layout, pv));
        std::sort(rows.begin(), rows.end());
        rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    }
    std::vector<storage::PartitionMutation> out;
    RowWriter writer(plan, values, params, fetch);
    for (const auto& target : targets) {
        storage::PartitionMutation m;
        m.partition_key = target.key;
        if (row_delete) {
            TESSEL_RETURN_IF_ERROR(add_deletion(plan, values, params, layout, &m));
        } else if (rows.empty()) {
            TESSEL_RETURN_IF_ERROR(writer.apply_ops(&m, "", false));
        } else {
            for (const auto& ck : rows)
                TESSEL_RETURN_IF_ERROR(writer.apply_ops(&m, ck, true));
        }
        out.push_back(std::move(m));
    }
    return out;
}

Result<cql::ModifyPlan> expand_insert_json(const cql::ModifyPlan& plan,
                                           const std::vector<BoundValue>& values) {
    const cql::TableInfo& t = *plan.table;
    TESSEL_ASSIGN_OR_RETURN(auto doc, evaluate(*plan.json, values));
    if (!doc.is_value()) return Status::invalid("Got null for INSERT JSON values");
    auto members = json::parse_object_raw(doc.bytes);
    if (!members.is_ok()) {
        return Status::invalid("Could not decode JSON string as a map: " +
                               members.status().message());
    }
    cql::ModifyPlan out = plan;
    out.json.reset();
    std::vector<std::optional<std::string>> given(t.columns.size());
    std::vector<bool> present(t.columns.size(), false);
    for (const auto& [key, raw] : *members) {
        std::string name = key;
        if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
            name = name.substr(1, name.size() - 2);
        } else {
            for (auto& c : name)
                c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        const int idx = t.find(name);
        if (idx < 0) return Status::invalid("JSON values map contains unrecognized column: " + key);
        present[idx] = true;
        if (json::is_null(raw)) continue;
        auto v = value_from_json(*t.columns[idx].type, raw);
        if (!v.is_ok()) {
            return Status::invalid("Error decoding JSON value for " + name + ": " +
                                   v.status().message());
        }
        given[idx] = std::move(v).value();
    }
    for (size_t i = 0; i < t.partition_key.size(); ++i) {
        const auto& v = given[t.partition_key[i]];
        if (!v)
            return Status::invalid("Invalid null value in condition for column " + t.pk(i).name);
        cql::KeyValues kv;
        kv.alternatives.push_back({cql::TermPlan::constant_of(t.pk(i).type, *v)});
        out.where.partition_values.push_back(std::move(kv));
    }
    for (size_t i = 0; i < t.clustering.size(); ++i) {
        const auto& v = given[t.clustering[i]];
        if (!v)
            return Status::invalid("Invalid null value in condition for column " + t.ck(i).name);
        cql::KeyValues kv;
        kv.alternatives.push_back({cql::TermPlan::constant_of(t.ck(i).type, *v)});
        out.where.clustering_prefix.push_back(std::move(kv));
        ++out.where.clustering_prefix_columns;
    }
    for (size_t i = 0; i < t.columns.size(); ++i) {
        if (t.columns[i].is_primary_key()) continue;
        if (!present[i] && plan.json_default_unset) continue;
        cql::OperationPlan op;
        op.kind = cql::OperationPlan::Kind::kSet;
        op.column = static_cast<int>(i);
        cql::TermPlan term;
        term.type = t.columns[i].type;
        if (given[i]) term = cql::TermPlan::constant_of(t.columns[i].type, *given[i]);
        op.value = std::move(term);
        out.operations.push_back(std::move(op));
    }
    return out;
}

}  // namespace tessel::query
