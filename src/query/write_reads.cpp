#include "query/write_reads.h"

#include "query/sharded_source.h"

namespace tessel::query {
namespace {

Status missing() {
    return Status::server("a read this write depends on is not done yet");
}

}  // namespace

std::unique_ptr<TableSource> WriteReads::physical_source(const cql::TableInfo& table) const {
    return make_replica_source(replica_, table.id, now_, options_);
}

RowFetcher WriteReads::rows(const cql::TableInfo* table) {
    return [this, table](const std::string& pk, const std::string& ck,
                         bool static_row) -> Result<std::optional<storage::Row>> {
        RowKey key{table->id, pk, ck, static_row};
        auto it = rows_.find(key);
        if (it != rows_.end()) return it->second;
        missing_rows_.emplace_back(table, std::move(key));
        return missing();
    };
}

BucketFinder WriteReads::buckets(const cql::TableInfo* table) {
    return [this, table](const std::vector<std::string>& comps) -> Result<std::vector<int64_t>> {
        BucketKey key{table->id, comps};
        auto it = buckets_.find(key);
        if (it != buckets_.end()) return it->second;
        missing_buckets_.emplace_back(table, std::move(key));
        return missing();
    };
}

Task<Status> WriteReads::fetch_missing() {
    auto rows = std::move(missing_rows_);
    auto buckets = std::move(missing_buckets_);
    missing_rows_.clear();
    missing_buckets_.clear();
    std::vector<Task<Status>> reads;
    for (auto& [table, key] : rows)
        reads.push_back(fetch_row(table, std::move(key)));
    for (auto& [table, key] : buckets)
        reads.push_back(fetch_buckets(table, std::move(key)));
    Status first;
    for (auto& r : reads) {
        Status st = co_await std::move(r);
        if (!st.is_ok() && first.is_ok()) first = st;
    }
    co_return first;
}

Task<Status> WriteReads::fetch_row(const cql::TableInfo* table, RowKey key) {
    const auto& [id, pk, ck, static_row] = key;
    SliceSpec spec;
    spec.include_static = static_row;
    spec.start = {ck, true};
    spec.end = {ck, true};
    // A sharded or bucketed row is read through the merged view of its
    // physical partitions.
    auto source = physical_source(*table);
    if (table->has_hidden_key()) source = make_sharded_source(std::move(source), *table);
    TESSEL_CO_ASSIGN_OR_RETURN(auto stream, co_await source->read(pk, spec));
    std::optional<storage::Row> found;
    if (static_row) {
        found = stream->static_row();
    } else {
        storage::Row row;
        if (co_await next_row(*stream, &row) && row.clustering == ck) found = std::move(row);
        TESSEL_CO_RETURN_IF_ERROR(stream->status());
    }
    rows_[key] = std::move(found);
    co_return Status::ok();
}

Task<Status> WriteReads::fetch_buckets(const cql::TableInfo* table, BucketKey key) {
    auto source = physical_source(*table);
    const KeyLayout layout = layout_of(*table);
    TESSEL_CO_ASSIGN_OR_RETURN(auto found, co_await discover_buckets(*source, layout, key.second));
    buckets_[key] = std::move(found);
    co_return Status::ok();
}

}  // namespace tessel::query
