// WriteReads: the reads a write needs before it can be built, done
// asynchronously.
//
// Writes never read first, except the list operations Cassandra also
// implements with a read (an element set or deleted by index, elements
// removed by value), the conditions of lightweight transactions, and a
// deletion of a bucketed partition that does not bound the time column (its
// buckets are found by a scan). The code that builds mutations
// (write_builder, shard_router) is synchronous and cheap, so instead of
// making it a coroutine the coordinator runs it against this cache: a row or
// bucket list that is not cached yet is recorded as missing and fails the
// build; the coordinator co_awaits fetch_missing() and builds again. Writes
// that read nothing (nearly all) build once and never suspend.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "cql/plan_table.h"
#include "query/shard_router.h"
#include "query/table_source.h"
#include "query/write_builder.h"

namespace tessel::query {

class WriteReads {
  public:
    // `replica` must outlive this object.
    WriteReads(Replica* replica, int64_t now_seconds, RequestOptions options)
        : replica_(replica), now_(now_seconds), options_(options) {}

    // Reads rows of `table` (through the merged view of a sharded or bucketed
    // partition). `table` must outlive this object.
    RowFetcher rows(const cql::TableInfo* table);
    // Finds the buckets of a bucketed partition of `table`.
    BucketFinder buckets(const cql::TableInfo* table);

    // True when a build asked for something not read yet.
    bool has_missing() const { return !missing_rows_.empty() || !missing_buckets_.empty(); }
    // Reads everything recorded as missing (concurrently).
    Task<Status> fetch_missing();

  private:
    using RowKey =
        std::tuple<std::string, std::string, std::string, bool>;         // table, pk, ck, static
    using BucketKey = std::pair<std::string, std::vector<std::string>>;  // table, components

    Task<Status> fetch_row(const cql::TableInfo* table, RowKey key);
    Task<Status> fetch_buckets(const cql::TableInfo* table, BucketKey key);
    std::unique_ptr<TableSource> physical_source(const cql::TableInfo& table) const;

    Replica* replica_;
    int64_t now_;
    RequestOptions options_;
    std::map<RowKey, std::optional<storage::Row>> rows_;
    std::map<BucketKey, std::vector<int64_t>> buckets_;
    std::vector<std::pair<const cql::TableInfo*, RowKey>> missing_rows_;
    std::vector<std::pair<const cql::TableInfo*, BucketKey>> missing_buckets_;
};

}  // namespace tessel::query
