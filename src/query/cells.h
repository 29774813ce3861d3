// How column values map onto storage cells, and back.
//
// A simple column (and a frozen collection/UDT) is one cell with an empty
// path. A non-frozen collection is one cell per element, whose path orders
// the elements the way CQL does:
//   set<T>   path = encode_key(T, element), empty value
//   map<K,V> path = encode_key(K, key), value = the entry's value
//   list<T>  path = encode_key(timeuuid, a fresh timeuuid), value = element
//              (appends get increasing timeuuids, prepends decreasing ones)
//   UDT      path = 2-byte big-endian field index, value = field value
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "cql/plan_table.h"
#include "storage/mutation.h"

namespace tessel::query {

std::string element_path(const CqlType& key_type, std::string_view key);
std::string field_path(int field_index);
// A list element path for a new element: `ticks` (100ns since the UUID epoch).
std::string list_path(int64_t ticks);

// The cells of `column_id` in a row (cells sorted by column id, then path).
std::pair<const storage::Cell*, const storage::Cell*> column_cells(const storage::Row& row,
                                                                   uint32_t column_id);

// The value of a column assembled from its cells: the cell value for simple
// columns, the serialised collection/UDT for multi-cell ones. nullopt = null.
Result<std::optional<std::string>> assemble_value(const CqlType& type, const storage::Cell* begin,
                                                  const storage::Cell* end);

// A row as the read path sees it: the partition key components, the
// clustering values (empty for a static-only row), the row and static row.
struct RowView {
    const std::vector<std::string>* partition = nullptr;
    const std::vector<std::string>* clustering = nullptr;
    const storage::Row* row = nullptr;
    const storage::Row* static_row = nullptr;
    std::string_view partition_key;  // physical
};

Result<std::optional<std::string>> column_value(const cql::TableInfo& table, const RowView& view,
                                                int column);
// The cell of a simple column (writetime/ttl), or nullptr.
const storage::Cell* simple_cell(const cql::TableInfo& table, const RowView& view, int column);

}  // namespace tessel::query
