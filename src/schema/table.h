// ColumnDef and TableDef: the logical description of a table, as drivers see
// it in system_schema, plus the stable column ids storage keys cells by.
//
// A published TableDef is immutable and shared (std::shared_ptr<const TableDef>)
// by every reader of a schema snapshot; DDL builds a modified copy.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "schema/table_options.h"
#include "schema/uuid.h"
#include "types/cql_type.h"

namespace tessel {

enum class ColumnKind : uint8_t { kPartitionKey = 0, kClustering = 1, kStatic = 2, kRegular = 3 };
enum class ClusteringOrder : uint8_t { kAsc = 0, kDesc = 1 };

// system_schema.columns.kind: 'partition_key', 'clustering', 'static', 'regular'.
std::string_view column_kind_name(ColumnKind kind);

struct ColumnDef {
    // Stable for the table's life and never reused, even after a drop: storage
    // keys cells by id, so a dropped column's old cells can never resurface
    // under a re-added column of the same name.
    uint32_t id = 0;
    std::string name;
    TypePtr type;
    ColumnKind kind = ColumnKind::kRegular;
    // Index within the partition key or clustering key; -1 for other columns
    // (what system_schema.columns.position shows).
    int position = -1;
    // Meaningful for clustering columns only.
    ClusteringOrder order = ClusteringOrder::kAsc;

    bool is_primary_key() const {
        return kind == ColumnKind::kPartitionKey || kind == ColumnKind::kClustering;
    }
    bool is_static() const { return kind == ColumnKind::kStatic; }
    bool is_reversed() const {
        return kind == ColumnKind::kClustering && order == ClusteringOrder::kDesc;
    }
    std::string_view kind_name() const { return column_kind_name(kind); }
    // system_schema.columns.clustering_order: 'asc' | 'desc' | 'none'.
    std::string_view clustering_order_name() const;
};

// What Cassandra keeps in system_schema.dropped_columns.
struct DroppedColumn {
    int64_t dropped_time_micros = 0;
    TypePtr type;
    ColumnKind kind = ColumnKind::kRegular;
};

class TableDef {
  public:
    std::string keyspace;
    std::string name;
    Uuid id;
    // Canonical order, kept by finalize(): partition key columns by position,
    // clustering columns by position, static columns by name, regular columns by
    // name. This is also the order of SELECT *.
    std::vector<ColumnDef> columns;
    TableOptions options;
    uint32_t next_column_id = 0;
    std::map<std::string, DroppedColumn> dropped_columns;
    // A counter table (fixed at creation, as Cassandra's 'counter' flag is):
    // every non-key column is a counter.
    bool counter = false;

    // Must be called after the public fields are changed and before the
    // definition is read through the accessors below: restores the canonical
    // column order and rebuilds the lookup indexes.
    void finalize();

    // Lookups by exact (case-sensitive) name or id; nullptr when absent.
    const ColumnDef* column(std::string_view name) const;
    const ColumnDef* column_by_id(uint32_t id) const;

    std::span<const ColumnDef> partition_key() const { return {columns.data(), pk_count_}; }
    std::span<const ColumnDef> clustering_key() const {
        return {columns.data() + pk_count_, ck_count_};
    }
    // Static then regular columns.
    std::span<const ColumnDef> non_key_columns() const {
        return {columns.data() + pk_count_ + ck_count_, columns.size() - pk_count_ - ck_count_};
    }
    bool has_static_columns() const { return has_static_; }
    bool is_counter() const { return counter; }

    // The name of the table's storage family: the id as 32 hex digits.
    std::string storage_name() const { return id.hex(); }
    // system_schema.tables.flags: {'compound'} plus 'counter' for counter tables.
    std::vector<std::string> flags() const;

  private:
    // Transparent hashing: lookups by string_view allocate nothing.
    struct NameHash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_map<std::string, size_t, NameHash, std::equal_to<>> by_name_;
    std::unordered_map<uint32_t, size_t> by_id_;
    size_t pk_count_ = 0;
    size_t ck_count_ = 0;
    bool has_static_ = false;
};

}  // namespace tessel
