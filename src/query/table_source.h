// TableSource: where a SELECT reads partitions from — a stored table through
// the Replica, or a virtual table's computed rows — so the read path
// (restrictions, ordering, limits, paging) is one piece of code for both.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cql/plan_table.h"
#include "query/key_codec.h"
#include "query/replica.h"
#include "query/virtual_table.h"

namespace tessel::query {

class TableSource {
  public:
    virtual ~TableSource() = default;
    virtual Result<std::unique_ptr<PartitionStream>> read(const std::string& partition_key,
                                                          const SliceSpec& slice) = 0;
    virtual Result<std::unique_ptr<PartitionCursor>> scan(const KeyRange& range) = 0;
};

// A stored table read through `replica` at `now_seconds`.
std::unique_ptr<TableSource> make_replica_source(Replica* replica, std::string table_id,
                                                 int64_t now_seconds);

// The rows of a virtual table, keyed by `layout` (ordered: partitions in key
// order). Each VirtualRow value i becomes the cell of column id i.
Result<std::unique_ptr<TableSource>> make_virtual_source(const VirtualTable& table,
                                                         const cql::TableInfo& info,
                                                         const KeyLayout& layout);

// The key layout of a table (hash or ordered, key column types).
KeyLayout layout_of(const cql::TableInfo& table);

}  // namespace tessel::query
