// The read path of SELECT: partitions and clustering slices from the plan,
// row filtering, LIMIT / PER PARTITION LIMIT, DISTINCT, aggregates, and
// paging. Rows stream from the TableSource; at most one page of results is
// held in memory (aggregates hold one group).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "cql/plan.h"
#include "query/observer.h"
#include "query/paging_state.h"
#include "query/selection.h"
#include "query/table_source.h"
#include "tessel/database.h"

namespace tessel::query {

struct ReadRequest {
    const cql::SelectPlan* plan = nullptr;
    const std::vector<BoundValue>* values = nullptr;
    int32_t page_size = -1;  // <= 0: unpaged (still cut at max_page_bytes)
    size_t max_page_bytes = 4u << 20;
    std::optional<PagingState> resume;  // verified by the caller
    int64_t now_seconds = 0;
    QueryObserver* observer = nullptr;  // may be null
    // Past it the read stops with Read_timeout (checked every few rows).
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

struct ReadPage {
    std::vector<OutRow> rows;
    // Set when more rows remain: where the next page starts (the caller
    // fills in the table id and fingerprint and signs it).
    std::optional<PagingState> next;
    uint64_t tombstones = 0;  // tombstones met while reading this page
};

Task<Result<ReadPage>> execute_read(TableSource& source, const ReadRequest& request);

// A short digest of result columns (names and types), for PagingState::columns.
std::string columns_digest(const std::vector<ColumnSpec>& columns);

// Checks a client's paging state against the query it is sent with.
Status check_resume(const PagingState& state, const cql::TableInfo& table,
                    const std::string& fingerprint, const std::string& columns);

}  // namespace tessel::query
