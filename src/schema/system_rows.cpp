#include "schema/system_rows.h"

#include <algorithm>

namespace tessel {

std::vector<KeyspaceRow> keyspace_rows(const Schema& schema) {
    std::vector<KeyspaceRow> rows;
    for (const auto& [name, ks] : schema.keyspaces) {
        rows.push_back(KeyspaceRow{name, ks->durable_writes, ks->replication});
    }
    return rows;
}

TableRow table_row(const TableDef& t) {
    const TableOptions& o = t.options;
    TableRow r;
    r.keyspace_name = t.keyspace;
    r.table_name = t.name;
    r.bloom_filter_fp_chance = o.bloom_filter_fp_chance;
    r.caching = o.caching;
    r.comment = o.comment;
    r.compaction = o.compaction;
    r.compression = o.compression;
    r.crc_check_chance = o.crc_check_chance;
    r.dclocal_read_repair_chance = o.dclocal_read_repair_chance;
    r.default_time_to_live = o.default_time_to_live;
    r.extensions = o.extensions;
    r.flags = t.flags();
    r.gc_grace_seconds = o.gc_grace_seconds;
    r.id = t.id;
    r.max_index_interval = o.max_index_interval;
    r.memtable_flush_period_in_ms = o.memtable_flush_period_in_ms;
    r.min_index_interval = o.min_index_interval;
    r.read_repair_chance = o.read_repair_chance;
    r.speculative_retry = o.speculative_retry;
    return r;
}

std::vector<TableRow> table_rows(const Schema& schema) {
    std::vector<TableRow> rows;
    for (const auto& [_, ks] : schema.keyspaces) {
        for (const auto& [__, t] : ks->tables)
            rows.push_back(table_row(*t));
    }
    return rows;
}

std::vector<ColumnRow> column_rows(const TableDef& t) {
    std::vector<ColumnRow> rows;
    for (const ColumnDef& c : t.columns) {
        rows.push_back(ColumnRow{t.keyspace, t.name, c.name, std::string(c.clustering_order_name()),
                                 std::string(c.kind_name()), c.position, c.type->cql_name()});
    }
    std::sort(rows.begin(), rows.end(),
              [](const ColumnRow& a, const ColumnRow& b) { return a.column_name < b.column_name; });
    return rows;
}

std::vector<ColumnRow> column_rows(const Schema& schema) {
    std::vector<ColumnRow> rows;
    for (const auto& [_, ks] : schema.keyspaces) {
        for (const auto& [__, t] : ks->tables) {
            auto more = column_rows(*t);
            rows.insert(rows.end(), more.begin(), more.end());
        }
    }
    return rows;
}

std::vector<DroppedColumnRow> dropped_column_rows(const Schema& schema) {
    std::vector<DroppedColumnRow> rows;
    for (const auto& [_, ks] : schema.keyspaces) {
        for (const auto& [__, t] : ks->tables) {
            for (const auto& [name, d] : t->dropped_columns) {
                rows.push_back(DroppedColumnRow{t->keyspace, t->name, name, d.dropped_time_micros,
                                                std::string(column_kind_name(d.kind)),
                                                d.type->cql_name()});
            }
        }
    }
    return rows;
}

std::vector<TypeRow> type_rows(const Schema& schema) {
    std::vector<TypeRow> rows;
    for (const auto& [_, ks] : schema.keyspaces) {
        for (const auto& [name, u] : ks->types) {
            TypeRow r{u->keyspace, name, u->field_names, {}};
            for (const auto& f : u->field_types)
                r.field_types.push_back(f->cql_name());
            rows.push_back(std::move(r));
        }
    }
    return rows;
}

}  // namespace tessel
