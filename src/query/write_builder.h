// The write path of INSERT, UPDATE and DELETE: turning a plan and its bound
// values into one PartitionMutation per partition written.
//
// Writes never read first, except the list operations Cassandra also
// implements with a read (setting or deleting an element by index, removing
// elements by value), which use `fetch`.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cql/plan.h"
#include "query/key_codec.h"
#include "storage/mutation.h"
#include "tessel/database.h"

namespace tessel::query {

struct WriteParams {
    storage::Timestamp timestamp = 0;
    int32_t ttl = 0;  // 0 = none
    int64_t now_seconds = 0;
};

// Reads the current live row (or static row when clustering is empty and
// `static_row` is set) of a partition; nullopt when it has no live data.
using RowFetcher = std::function<Result<std::optional<storage::Row>>(
    const std::string& partition_key, const std::string& clustering, bool static_row)>;

Result<std::vector<storage::PartitionMutation>> build_mutations(
    const cql::ModifyPlan& plan, const std::vector<BoundValue>& values, const WriteParams& params,
    const RowFetcher& fetch);

// INSERT JSON: the equivalent plan with the document's values as constants.
Result<cql::ModifyPlan> expand_insert_json(const cql::ModifyPlan& plan,
                                           const std::vector<BoundValue>& values);

// The ttl and timestamp a statement writes with: USING values, else the
// table's default_time_to_live and `default_timestamp`. As in Cassandra 4.0,
// any timestamp but -2^63 (storage::kNoTimestamp) is accepted, negative ones
// included: that one is Invalid "Out of bound timestamp, must be in [...]".
Result<WriteParams> write_params(const cql::ModifyPlan& plan, const std::vector<BoundValue>& values,
                                 storage::Timestamp default_timestamp, int64_t now_seconds);

}  // namespace tessel::query
