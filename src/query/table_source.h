// TableSource: where a SELECT reads partitions from — a stored table through
// the Replica, or a virtual table's computed rows — so the read path
// (restrictions, ordering, limits, paging) is one piece of code for both.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cluster/replica.h"
#include "cql/plan_table.h"
#include "query/key_codec.h"
#include "query/virtual_table.h"

namespace tessel::query {

using cluster::KeyRange;
using cluster::PartitionCursor;
using cluster::PartitionStream;
using cluster::Replica;
using cluster::RequestOptions;
using cluster::SliceSpec;

class TableSource {
  public:
    virtual ~TableSource() = default;
    virtual Task<Result<std::unique_ptr<PartitionStream>>> read(const std::string& partition_key,
                                                                const SliceSpec& slice) = 0;
    virtual Task<Result<std::unique_ptr<PartitionCursor>>> scan(const KeyRange& range) = 0;
};

// A stored table read through `replica` at `now_seconds`, with the request's
// consistency and deadline.
std::unique_ptr<TableSource> make_replica_source(Replica* replica, std::string table_id,
                                                 int64_t now_seconds, RequestOptions options = {});

// The next row of a stream, fetching more rows when the stream needs them:
// true with *out set, false at the end or on error (see stream.status()).
// Use it where rows are few (one row of a write's read); loops over many
// rows test needs_fetch() themselves to save a coroutine per row.
Task<bool> next_row(PartitionStream& stream, storage::Row* out);

// The rows of a virtual table, keyed by `layout` (ordered: partitions in key
// order). Each VirtualRow value i becomes the cell of column id i.
Result<std::unique_ptr<TableSource>> make_virtual_source(const VirtualTable& table,
                                                         const cql::TableInfo& info,
                                                         const KeyLayout& layout);

// The key layout of a table (hash or ordered, key column types).
KeyLayout layout_of(const cql::TableInfo& table);

}  // namespace tessel::query
