// Anti-entropy repair of a tablet (tessel-admin repair, CALL system.repair):
// the tablet's replicas compare digests of their raw data (tombstones
// included) over sub-ranges of the tablet, and only the sub-ranges whose
// digests differ are exchanged (each replica gets what the others hold,
// StorageProxy::repair_range). Hash tablets are cut at evenly spaced tokens;
// ordered ones are compared whole.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cluster/storage_proxy.h"

namespace tessel::cluster {

struct RepairReport {
    uint64_t ranges = 0;      // sub-ranges compared
    uint64_t mismatched = 0;  // sub-ranges whose replicas differed (repaired)
    uint64_t partitions = 0;  // partitions in the compared ranges (on the first replica)
};

// Repairs `range` (a tablet's key range) of `table_id` on `replicas`. Every
// replica must be up.
Task<Result<RepairReport>> repair_tablet(StorageProxy& proxy, const std::string& table_id,
                                         const storage::KeyRange& range, bool hashed,
                                         const std::vector<std::string>& replicas,
                                         std::chrono::steady_clock::time_point deadline);

}  // namespace tessel::cluster
