// QueryObserver: the coordinator's seam for partition health (hot and large
// partition tracking, tombstone thresholds). The coordinator calls it on
// every partition written or read; implementations must be thread-safe and
// cheap, since they run on the request path.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "cql/plan_table.h"
#include "storage/mutation.h"

namespace tessel::query {

class QueryObserver {
  public:
    virtual ~QueryObserver() = default;

    // Before `mutation` is applied to the partition whose key components are
    // `partition_key`. A failed status refuses the whole statement (nothing
    // of it is applied), e.g. a partition over a configured size limit.
    virtual Status before_write(const cql::TableInfo& table,
                                const std::vector<std::string>& partition_key,
                                const storage::PartitionMutation& mutation) {
        (void)table, (void)partition_key, (void)mutation;
        return Status::ok();
    }

    // A partition read by a SELECT.
    virtual void on_partition_read(const cql::TableInfo& table,
                                   const std::vector<std::string>& partition_key) {
        (void)table, (void)partition_key;
    }

    // After a page of a SELECT: tombstones met and live rows returned. A
    // failed status fails the read; `warnings` reach the client.
    virtual Status after_read(const cql::TableInfo& table, uint64_t tombstones, uint64_t live_rows,
                              std::string_view query_text, std::vector<std::string>* warnings) {
        (void)table, (void)tombstones, (void)live_rows, (void)query_text, (void)warnings;
        return Status::ok();
    }
};

}  // namespace tessel::query
