#include "schema/table_builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace tessel {
namespace {

Status invalid(std::string m) {
    return Status::invalid(std::move(m));
}

Status check_key_column(const ColumnDeclaration& col, const CqlType& type) {
    if (type.is_multi_cell()) {
        return invalid(
            fmt::format(fmt::runtime(type.is_collection()
                                         ? "Invalid non-frozen collection type for PRIMARY KEY "
                                           "component {}"
                                         : "Invalid non-frozen user-defined type for PRIMARY KEY "
                                           "component {}"),
                        col.name));
    }
    if (type.is_counter()) {
        return invalid(
            fmt::format("counter type is not supported for PRIMARY KEY part {}", col.name));
    }
    if (type_references_duration(type)) {
        return invalid(
            fmt::format("duration type is not supported for PRIMARY KEY part {}", col.name));
    }
    if (col.is_static) {
        return invalid(fmt::format("Static column {} cannot be part of the PRIMARY KEY", col.name));
    }
    return Status::ok();
}

Status check_clustering_order(const TableSpec& spec) {
    const auto& order = spec.clustering_order;
    if (order.empty()) return Status::ok();
    if (order.size() > spec.clustering_key.size()) {
        return invalid("Only clustering key columns can be defined in CLUSTERING ORDER directive");
    }
    for (size_t i = 0; i < order.size(); ++i) {
        const std::string& expected = spec.clustering_key[i];
        if (order[i].first == expected) continue;
        bool listed = false;
        for (const auto& [name, _] : order)
            listed = listed || name == expected;
        if (listed) {
            return invalid(fmt::format(
                "The order of columns in the CLUSTERING ORDER directive must be the one of the "
                "clustering key ({} must appear before {})",
                expected, order[i].first));
        }
        return invalid(fmt::format("Missing CLUSTERING ORDER for column {}", expected));
    }
    return Status::ok();
}

}  // namespace

bool is_word(std::string_view name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
}

bool is_valid_schema_name(std::string_view name) {
    return is_word(name) && name.size() <= 48;
}

Status validate_non_key_column_type(const CqlType& type) {
    if (type.kind == TypeKind::kUdt && type.is_multi_cell()) {
        for (const auto& field : type.params) {
            if (field->is_multi_cell()) {
                return invalid(
                    "Non-frozen UDTs with nested non-frozen collections are not supported");
            }
        }
    }
    return Status::ok();
}

Status validate_layout_columns(const TableDef& t) {
    if (const auto& ws = t.options.write_sharding) {
        std::set<std::string> seen;
        for (const std::string& name : ws->columns) {
            const ColumnDef* c = t.column(name);
            if (!c) {
                return invalid(fmt::format("write_sharding column {} does not exist in table {}",
                                           name, t.name));
            }
            if (c->kind != ColumnKind::kClustering && c->kind != ColumnKind::kRegular) {
                return invalid(fmt::format(
                    "write_sharding column {} must be a clustering or regular column (it is a {} "
                    "column)",
                    name, c->kind == ColumnKind::kStatic ? "static" : "partition key"));
            }
            if (c->type->is_multi_cell() || c->type->is_counter()) {
                return invalid(fmt::format(
                    "write_sharding column {} cannot be a counter or a non-frozen collection",
                    name));
            }
            if (!seen.insert(name).second) {
                return invalid(
                    fmt::format("write_sharding column {} is listed more than once", name));
            }
        }
    }
    if (const auto& tb = t.options.time_bucket) {
        const ColumnDef* c = t.column(tb->column);
        if (!c || c->kind != ColumnKind::kClustering || c->type->kind != TypeKind::kTimestamp) {
            return invalid(fmt::format(
                "time_bucket column {} must be a clustering column of type timestamp", tb->column));
        }
    }
    return Status::ok();
}

Result<TableDef> build_table(const Schema& schema, const TableSpec& spec) {
    // Cassandra checks the characters first, then the length.
    if (!is_word(spec.name)) {
        return invalid(fmt::format(
            "\"{}\" is not a valid table name (must be alphanumeric character or underscore only: "
            "[a-zA-Z_0-9]+)",
            spec.name));
    }
    if (spec.name.size() > 48) {
        return invalid(fmt::format(
            "Table names shouldn't be more than 48 characters long (got \"{}\")", spec.name));
    }
    TESSEL_RETURN_IF_ERROR(validate_table_options(spec.options));

    std::map<std::string, size_t> by_name;
    std::vector<TypePtr> types;
    bool has_counters = false;
    for (size_t i = 0; i < spec.columns.size(); ++i) {
        const ColumnDeclaration& col = spec.columns[i];
        if (!by_name.emplace(col.name, i).second) {
            return invalid(fmt::format("Multiple definition of identifier {}", col.name));
        }
        TESSEL_ASSIGN_OR_RETURN(TypePtr type, schema.resolve_type(spec.keyspace, col.type));
        TESSEL_RETURN_IF_ERROR(validate_non_key_column_type(*type));
        has_counters = has_counters || type->is_counter();
        types.push_back(std::move(type));
    }
    if (spec.partition_key.empty()) {
        return invalid("No PRIMARY KEY specifed (exactly one required)");
    }
    if (has_counters && spec.options.default_time_to_live > 0) {
        return invalid("Cannot set default_time_to_live on a table with counters");
    }

    TableDef t;
    t.keyspace = spec.keyspace;
    t.name = spec.name;
    t.id = spec.id.value_or(Uuid::random());
    t.options = spec.options;
    std::vector<bool> used(spec.columns.size(), false);
    auto add_key = [&](const std::string& name, ColumnKind kind, int position) -> Status {
        auto it = by_name.find(name);
        if (it == by_name.end()) {
            return invalid(fmt::format("Unknown definition {} referenced in PRIMARY KEY", name));
        }
        if (used[it->second]) {
            return invalid(
                fmt::format("Column {} appears more than once in the PRIMARY KEY", name));
        }
        const ColumnDeclaration& col = spec.columns[it->second];
        TESSEL_RETURN_IF_ERROR(check_key_column(col, *types[it->second]));
        used[it->second] = true;
        ColumnDef def{t.next_column_id++,   name, types[it->second], kind, position,
                      ClusteringOrder::kAsc};
        if (kind == ColumnKind::kClustering &&
            static_cast<size_t>(position) < spec.clustering_order.size()) {
            def.order = spec.clustering_order[position].second;
        }
        t.columns.push_back(std::move(def));
        return Status::ok();
    };
    for (size_t i = 0; i < spec.partition_key.size(); ++i) {
        TESSEL_RETURN_IF_ERROR(
            add_key(spec.partition_key[i], ColumnKind::kPartitionKey, static_cast<int>(i)));
    }
    for (size_t i = 0; i < spec.clustering_key.size(); ++i) {
        TESSEL_RETURN_IF_ERROR(
            add_key(spec.clustering_key[i], ColumnKind::kClustering, static_cast<int>(i)));
    }
    bool has_static = false;
    bool has_non_counter = false;
    for (size_t i = 0; i < spec.columns.size(); ++i) {
        if (used[i]) continue;
        const ColumnDeclaration& col = spec.columns[i];
        has_static = has_static || col.is_static;
        has_non_counter = has_non_counter || !types[i]->is_counter();
        t.columns.push_back(ColumnDef{t.next_column_id++, col.name, types[i],
                                      col.is_static ? ColumnKind::kStatic : ColumnKind::kRegular,
                                      -1, ClusteringOrder::kAsc});
    }
    if (has_static && spec.clustering_key.empty()) {
        return invalid(
            "Static columns are only useful (and thus allowed) if the table has at least one "
            "clustering column");
    }
    TESSEL_RETURN_IF_ERROR(check_clustering_order(spec));
    if (has_counters && has_non_counter) {
        return invalid("Cannot mix counter and non counter columns in the same table");
    }
    t.counter = has_counters;
    t.finalize();
    TESSEL_RETURN_IF_ERROR(validate_layout_columns(t));
    return t;
}

}  // namespace tessel
