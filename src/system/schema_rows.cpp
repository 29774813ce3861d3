#include "system/schema_rows.h"

#include "system/builtin_tables.h"
#include "system/cell_encoding.h"
#include "system/row_builder.h"

namespace tessel::system {
namespace {

Cell blob_map_cell(const std::map<std::string, std::string>& entries) {
    // map<text, blob> and map<text, text> share one encoding.
    return text_map_cell(entries);
}

void keyspace_rows(const SchemaModel& m, std::vector<query::VirtualRow>* out) {
    const auto& def = builtin_table("system_schema", "keyspaces");
    for (const auto& ks : m.keyspaces) {
        out->push_back(RowBuilder(def)
                           .set("keyspace_name", text_cell(ks.name))
                           .set("durable_writes", bool_cell(ks.durable_writes))
                           .set("replication", text_map_cell(ks.replication))
                           .take());
    }
}

void table_rows(const SchemaModel& m, std::vector<query::VirtualRow>* out) {
    const auto& def = builtin_table("system_schema", "tables");
    for (const auto& ks : m.keyspaces) {
        for (const auto& t : ks.tables) {
            const auto& o = t.options;
            out->push_back(
                RowBuilder(def)
                    .set("keyspace_name", text_cell(ks.name))
                    .set("table_name", text_cell(t.name))
                    .set("bloom_filter_fp_chance", double_cell(o.bloom_filter_fp_chance))
                    .set("caching", text_map_cell(o.caching))
                    .set("cdc", bool_cell(o.cdc))
                    .set("comment", text_cell(o.comment))
                    .set("compaction", text_map_cell(o.compaction))
                    .set("compression", text_map_cell(o.compression))
                    .set("crc_check_chance", double_cell(o.crc_check_chance))
                    .set("dclocal_read_repair_chance", double_cell(o.dclocal_read_repair_chance))
                    .set("default_time_to_live", int_cell(o.default_time_to_live))
                    .set("extensions", blob_map_cell(o.extensions))
                    .set("flags", text_set_cell(t.flags))
                    .set("gc_grace_seconds", int_cell(o.gc_grace_seconds))
                    .set("id", uuid_cell(t.id))
                    .set("max_index_interval", int_cell(o.max_index_interval))
                    .set("memtable_flush_period_in_ms", int_cell(o.memtable_flush_period_in_ms))
                    .set("min_index_interval", int_cell(o.min_index_interval))
                    .set("read_repair_chance", double_cell(o.read_repair_chance))
                    .set("speculative_retry", text_cell(o.speculative_retry))
                    .take());
        }
    }
}

void column_rows(const SchemaModel& m, std::vector<query::VirtualRow>* out) {
    const auto& def = builtin_table("system_schema", "columns");
    for (const auto& ks : m.keyspaces) {
        for (const auto& t : ks.tables) {
            for (const auto& c : t.columns) {
                out->push_back(RowBuilder(def)
                                   .set("keyspace_name", text_cell(ks.name))
                                   .set("table_name", text_cell(t.name))
                                   .set("column_name", text_cell(c.name))
                                   .set("clustering_order", text_cell(c.clustering_order))
                                   .set("column_name_bytes", blob_cell(c.name))
                                   .set("kind", text_cell(c.kind))
                                   .set("position", int_cell(c.position))
                                   .set("type", text_cell(c.type))
                                   .take());
            }
        }
    }
}

void type_rows(const SchemaModel& m, std::vector<query::VirtualRow>* out) {
    const auto& def = builtin_table("system_schema", "types");
    for (const auto& ks : m.keyspaces) {
        for (const auto& t : ks.types) {
            out->push_back(RowBuilder(def)
                               .set("keyspace_name", text_cell(ks.name))
                               .set("type_name", text_cell(t.name))
                               .set("field_names", text_list_cell(t.field_names))
                               .set("field_types", text_list_cell(t.field_types))
                               .take());
        }
    }
}

}  // namespace

std::vector<query::VirtualRow> schema_table_rows(const std::string& table,
                                                 const SchemaModel& model) {
    std::vector<query::VirtualRow> rows;
    if (table == "keyspaces") {
        keyspace_rows(model, &rows);
    } else if (table == "tables") {
        table_rows(model, &rows);
    } else if (table == "columns") {
        column_rows(model, &rows);
    } else if (table == "types") {
        type_rows(model, &rows);
    }
    // functions, aggregates, triggers, indexes, views: none are defined yet
    // (user functions, triggers, secondary indexes and views are not supported).
    return rows;
}

}  // namespace tessel::system
