// ALTER TABLE: add, drop and rename columns, change options. The primary key
// never changes; every attempt is refused with the same clear message.
#include <fmt/format.h>

#include <algorithm>

#include "schema/catalog.h"
#include "types/type_compatibility.h"

namespace tessel {
namespace {

using Type = CatalogChange::Type;
using Target = CatalogChange::Target;

CatalogChange updated(const std::string& ks, const std::string& table) {
    return CatalogChange{Type::kUpdated, Target::kTable, ks, table, true};
}

Status check_add(const TableDef& t, const NewColumn& col, const CqlType& type) {
    if (col.kind == ColumnKind::kPartitionKey || col.kind == ColumnKind::kClustering) {
        return immutable_primary_key_error("add", col.name);
    }
    if (t.column(col.name)) {
        return Status::invalid(fmt::format("Column with name '{}' already exists", col.name));
    }
    if (col.kind == ColumnKind::kStatic && t.clustering_key().empty()) {
        return Status::invalid(
            "Static columns are only useful (and thus allowed) if the table has at least one "
            "clustering column");
    }
    // A name dropped before may come back only with a type that reads what
    // was written under the old one, and as the same kind (Cassandra 4.0).
    if (auto dropped = t.dropped_columns.find(col.name); dropped != t.dropped_columns.end()) {
        const DroppedColumn& d = dropped->second;
        if (d.type && !is_value_compatible_with(type, *d.type)) {
            return Status::invalid(
                fmt::format("Cannot re-add previously dropped column '{}' of type {}, "
                            "incompatible with previous type {}",
                            col.name, type.cql_name(), d.type->cql_name()));
        }
        const auto kind_name = [](ColumnKind k) {
            return k == ColumnKind::kStatic ? "STATIC" : "REGULAR";
        };
        if ((col.kind == ColumnKind::kStatic) != (d.kind == ColumnKind::kStatic)) {
            return Status::invalid(
                fmt::format("Cannot re-add previously dropped column '{}' of kind {}, "
                            "incompatible with previous kind {}",
                            col.name, kind_name(col.kind), kind_name(d.kind)));
        }
        if (t.is_counter()) {
            return Status::invalid(
                fmt::format("Cannot re-add previously dropped counter column {}", col.name));
        }
    }
    if (type.is_counter() && !t.is_counter()) {
        return Status::invalid(fmt::format(
            "Cannot add a counter column ({}) in a non counter column family", col.name));
    }
    if (!type.is_counter() && t.is_counter()) {
        return Status::invalid(fmt::format(
            "Cannot add a non counter column ({}) in a counter column family", col.name));
    }
    return validate_non_key_column_type(type);
}

// Rewrites column names inside the layout options after a rename.
void rename_in_options(TableOptions& o, const std::string& from, const std::string& to) {
    if (o.write_sharding) {
        for (auto& c : o.write_sharding->columns) {
            if (c == from) c = to;
        }
    }
    if (o.time_bucket && o.time_bucket->column == from) o.time_bucket->column = to;
}

bool used_by_layout(const TableOptions& o, const std::string& column) {
    if (o.write_sharding) {
        const auto& cols = o.write_sharding->columns;
        if (std::find(cols.begin(), cols.end(), column) != cols.end()) return true;
    }
    return o.time_bucket && o.time_bucket->column == column;
}

}  // namespace

Result<CatalogChange> Catalog::alter_table_add(const std::string& keyspace,
                                               const std::string& table,
                                               const std::vector<NewColumn>& columns) {
    return run([&](Txn& txn) -> Result<CatalogChange> {
        TESSEL_ASSIGN_OR_RETURN(auto current, existing_table(txn.next, keyspace, table));
        TableDef t = *current;
        for (const NewColumn& col : columns) {
            TESSEL_ASSIGN_OR_RETURN(TypePtr type, txn.next.resolve_type(keyspace, col.type));
            TESSEL_RETURN_IF_ERROR(check_add(t, col, *type));
            t.columns.push_back(ColumnDef{
                t.next_column_id++, col.name, type,
                col.kind == ColumnKind::kStatic ? ColumnKind::kStatic : ColumnKind::kRegular, -1,
                ClusteringOrder::kAsc});
            t.finalize();
        }
        replace_table(txn, std::move(t));
        return updated(keyspace, table);
    });
}

Result<CatalogChange> Catalog::alter_table_drop(const std::string& keyspace,
                                                const std::string& table,
                                                const std::vector<std::string>& columns,
                                                int64_t timestamp_micros) {
    return run([&](Txn& txn) -> Result<CatalogChange> {
        TESSEL_ASSIGN_OR_RETURN(auto current, existing_table(txn.next, keyspace, table));
        TableDef t = *current;
        for (const std::string& name : columns) {
            const ColumnDef* c = t.column(name);
            if (!c) {
                return Status::invalid(
                    fmt::format("Column {} was not found in table {}", name, table));
            }
            if (c->is_primary_key()) return immutable_primary_key_error("drop", name);
            if (used_by_layout(t.options, name)) {
                return Status::invalid(fmt::format(
                    "Cannot drop column {}: the table's write_sharding or time_bucket option uses "
                    "it",
                    name));
            }
            t.dropped_columns[name] = DroppedColumn{timestamp_micros, c->type, c->kind};
            uint32_t id = c->id;
            std::erase_if(t.columns, [id](const ColumnDef& col) { return col.id == id; });
            t.finalize();
        }
        replace_table(txn, std::move(t));
        return updated(keyspace, table);
    });
}

Result<CatalogChange> Catalog::alter_table_rename(
    const std::string& keyspace, const std::string& table,
    const std::vector<std::pair<std::string, std::string>>& renames) {
    return run([&](Txn& txn) -> Result<CatalogChange> {
        TESSEL_ASSIGN_OR_RETURN(auto current, existing_table(txn.next, keyspace, table));
        TableDef t = *current;
        for (const auto& [from, to] : renames) {
            const ColumnDef* c = t.column(from);
            // Cassandra 3.11 prints the table name where its message says "keyspace".
            if (!c) {
                return Status::invalid(
                    fmt::format("Cannot rename unknown column {} in keyspace {}", from, table));
            }
            if (t.column(to)) {
                return Status::invalid(fmt::format(
                    "Cannot rename column {} to {} in keyspace {}; another column of that name "
                    "already exist",
                    from, to, table));
            }
            if (!c->is_primary_key()) {
                return Status::invalid(fmt::format("Cannot rename non PRIMARY KEY part {}", from));
            }
            uint32_t id = c->id;
            for (ColumnDef& col : t.columns) {
                if (col.id == id) col.name = to;
            }
            rename_in_options(t.options, from, to);
            t.finalize();
        }
        replace_table(txn, std::move(t));
        return updated(keyspace, table);
    });
}

Result<CatalogChange> Catalog::alter_table_type(const std::string& keyspace,
                                                const std::string& table, const std::string& column,
                                                const TypeSpec&) {
    auto schema = snapshot();
    TESSEL_ASSIGN_OR_RETURN(auto t, existing_table(*schema, keyspace, table));
    const ColumnDef* c = t->column(column);
    if (!c) {
        return Status::invalid(fmt::format("Column {} was not found in table {}", column, table));
    }
    if (c->is_primary_key()) return immutable_primary_key_error("alter", column);
    // Cells keep their encoding; a type change would reinterpret stored bytes.
    return Status::invalid("Altering of types is not allowed");
}

namespace {

// ALTER ... WITH write_sharding = {'shards': M}: the only layout change that
// leaves every stored row where reads look for it, since reads cover shards
// 0..M-1 and rows written so far live in 0..N-1 with N <= M. The suffix kind
// and columns stay (a calculated shard of a row changes with them).
Status raise_write_sharding(TableDef& t, const std::string& keyspace, const std::string& table,
                            const OptionValue& value) {
    const WriteSharding cur = *t.options.write_sharding;
    OptionValue v = value;
    if (v.is_map()) {
        if (!v.map.count("suffix")) v.map["suffix"] = std::string(shard_suffix_name(cur.suffix));
        if (!v.map.count("columns") && cur.suffix == ShardSuffix::kCalculated) {
            std::string cols;
            for (const auto& c : cur.columns)
                cols += (cols.empty() ? "" : ",") + c;
            v.map["columns"] = cols;
        }
    }
    TableOptions parsed = t.options;
    TESSEL_RETURN_IF_ERROR(apply_table_option(parsed, "write_sharding", v));
    const WriteSharding& next = *parsed.write_sharding;
    if (next.suffix != cur.suffix || next.columns != cur.columns) {
        return Status::invalid(fmt::format(
            "Cannot change the write_sharding suffix or columns of table {}.{}: rows are stored "
            "in the shard they decide; only 'shards' may be raised",
            keyspace, table));
    }
    if (next.shards < cur.shards) {
        return Status::invalid(fmt::format(
            "write_sharding shards cannot be lowered (from {} to {}): existing rows live in "
            "shards {}..{}",
            cur.shards, next.shards, next.shards, cur.shards - 1));
    }
    t.options.write_sharding = next;
    return Status::ok();
}

}  // namespace

Result<CatalogChange> Catalog::alter_table_options(
    const std::string& keyspace, const std::string& table,
    const std::vector<std::pair<std::string, OptionValue>>& options) {
    return run([&](Txn& txn) -> Result<CatalogChange> {
        TESSEL_ASSIGN_OR_RETURN(auto current, existing_table(txn.next, keyspace, table));
        TableDef t = *current;
        for (const auto& [name, value] : options) {
            // Raising the shard count is the one layout change that leaves every
            // stored row where reads look for it.
            if (name == "write_sharding") {
                if (!t.options.write_sharding) {
                    return Status::invalid(fmt::format(
                        "Cannot alter option 'write_sharding' of table {}.{}: it was created "
                        "without write_sharding, and adding it would move every stored row; "
                        "create a new table and copy the data",
                        keyspace, table));
                }
                TESSEL_RETURN_IF_ERROR(raise_write_sharding(t, keyspace, table, value));
                continue;
            }
            if (is_layout_option(name)) {
                return Status::invalid(fmt::format(
                    "Cannot alter option '{}' of table {}.{}: it decides where rows are stored; "
                    "create a new table and copy the data",
                    name, keyspace, table));
            }
            TESSEL_RETURN_IF_ERROR(apply_table_option(t.options, name, value));
        }
        TESSEL_RETURN_IF_ERROR(validate_table_options(t.options));
        if (t.is_counter() && t.options.default_time_to_live > 0) {
            return Status::invalid("Cannot set default_time_to_live on a table with counters");
        }
        replace_table(txn, std::move(t));
        return updated(keyspace, table);
    });
}

}  // namespace tessel
