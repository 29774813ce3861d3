#include "system/catalog_model.h"

#include "system/builtin_tables.h"

namespace tessel::system {
namespace {

TableOptionsModel options_model(const TableOptions& o) {
    TableOptionsModel m;
    m.bloom_filter_fp_chance = o.bloom_filter_fp_chance;
    m.caching = o.caching;
    m.comment = o.comment;
    m.compaction = o.compaction;
    m.compression = o.compression;
    m.crc_check_chance = o.crc_check_chance;
    m.dclocal_read_repair_chance = o.dclocal_read_repair_chance;
    m.default_time_to_live = o.default_time_to_live;
    m.extensions = o.extensions;
    m.gc_grace_seconds = o.gc_grace_seconds;
    m.max_index_interval = o.max_index_interval;
    m.memtable_flush_period_in_ms = o.memtable_flush_period_in_ms;
    m.min_index_interval = o.min_index_interval;
    m.read_repair_chance = o.read_repair_chance;
    m.speculative_retry = o.speculative_retry;
    return m;
}

TableModel table_model(const TableDef& t) {
    TableModel m;
    m.name = t.name;
    m.id = t.id.raw();
    m.options = options_model(t.options);
    m.flags = t.flags();
    for (const auto& c : t.columns) {
        ColumnModel col;
        col.name = c.name;
        col.kind = std::string(c.kind_name());
        col.position = c.position;
        col.clustering_order = std::string(c.clustering_order_name());
        col.type = c.type ? c.type->cql_name() : "blob";
        m.columns.push_back(std::move(col));
    }
    return m;
}

TypeModel type_model(const UserTypeDef& t) {
    TypeModel m;
    m.name = t.name;
    m.field_names = t.field_names;
    for (const auto& ft : t.field_types)
        m.field_types.push_back(ft ? ft->cql_name() : "blob");
    return m;
}

}  // namespace

SchemaModel model_of(const Schema& schema) {
    SchemaModel model;
    model.keyspaces = builtin_keyspaces();
    model.version = schema.version.raw();
    for (const auto& [name, ks] : schema.keyspaces) {
        if (!ks || is_builtin_keyspace(name)) continue;
        KeyspaceModel k;
        k.name = ks->name;
        k.durable_writes = ks->durable_writes;
        k.replication = ks->replication;
        for (const auto& [tname, table] : ks->tables) {
            if (table) k.tables.push_back(table_model(*table));
        }
        for (const auto& [uname, type] : ks->types) {
            if (type) k.types.push_back(type_model(*type));
        }
        model.keyspaces.push_back(std::move(k));
    }
    return model;
}

}  // namespace tessel::system
