// TableInfo: the view of a table that prepared plans and the coordinator use.
//
// Built from the schema catalog's table definition (or, for virtual tables,
// from their CREATE TABLE text), so prepare and execution do not depend on
// how the catalog stores tables. Immutable once built and shared by every
// plan prepared against it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "types/cql_type.h"

namespace tessel::cql {

enum class ColumnKind { kPartitionKey, kClustering, kStatic, kRegular };

struct ColumnInfo {
    std::string name;
    TypePtr type;
    ColumnKind kind = ColumnKind::kRegular;
    int position = 0;         // within the partition key or clustering key
    bool descending = false;  // clustering columns only
    uint32_t id = 0;          // storage column id (cells are keyed by it)

    bool is_primary_key() const {
        return kind == ColumnKind::kPartitionKey || kind == ColumnKind::kClustering;
    }
};

struct TableInfo {
    std::string keyspace;
    std::string name;
    std::string id;  // opaque identity (the table uuid's bytes), used by paging states
    // Every column; `*` order is partition key, clustering, statics, regulars.
    std::vector<ColumnInfo> columns;
    std::vector<int> partition_key;  // indices into columns, in key order
    std::vector<int> clustering;     // indices into columns, in key order
    int32_t default_ttl = 0;
    bool hashed = true;  // distribution 'hash' (false: 'ordered')
    bool is_counter = false;
    bool is_virtual = false;
    bool has_static = false;
    // Hidden partition-key components (table options write_sharding and
    // time_bucket). `shards` is 0 when the table is not write-sharded; a
    // sharded table always stores a shard number, even with shards = 1.
    int32_t shards = 0;
    bool shard_calculated = false;   // suffix 'calculated' (else 'random')
    std::vector<int> shard_columns;  // calculated: indices into columns
    int bucket_column = -1;          // time_bucket column (index into columns)
    int64_t bucket_width_ms = 0;     // > 0 when time-bucketed

    bool sharded() const { return shards > 0; }
    bool bucketed() const { return bucket_width_ms > 0; }
    bool has_hidden_key() const { return sharded() || bucketed(); }

    // Index of the column named `name` (exact, case-sensitive), or -1.
    int find(const std::string& col) const {
        for (size_t i = 0; i < columns.size(); ++i) {
            if (columns[i].name == col) return static_cast<int>(i);
        }
        return -1;
    }
    const ColumnInfo& pk(size_t i) const { return columns[partition_key[i]]; }
    const ColumnInfo& ck(size_t i) const { return columns[clustering[i]]; }
};

using TablePtr = std::shared_ptr<const TableInfo>;

// Where prepare finds tables and user types: a snapshot of the catalog plus
// the virtual tables.
class SchemaView {
  public:
    virtual ~SchemaView() = default;
    virtual bool keyspace_exists(const std::string& keyspace) const = 0;
    // nullptr when the table does not exist.
    virtual TablePtr find_table(const std::string& keyspace, const std::string& name) const = 0;
    // nullptr when the user type does not exist.
    virtual TypePtr find_type(const std::string& keyspace, const std::string& name) const = 0;
};

}  // namespace tessel::cql
