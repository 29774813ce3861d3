#include "diagnostics/tombstone_thresholds.h"

#include <fmt/format.h>

namespace tessel::diagnostics {

std::optional<std::string> tombstone_warning(const TombstoneThresholds& t, uint64_t live_rows,
                                             uint64_t tombstones, std::string_view query) {
    if (tombstones <= t.tombstone_warn_threshold) return std::nullopt;
    // Cassandra formats the query with %1.512s.
    return fmt::format(
        "Read {} live rows and {} tombstone cells for query {} (see "
        "tombstone_warn_threshold)",
        live_rows, tombstones, query.substr(0, 512));
}

Status tombstone_failure(uint64_t tombstones, std::string_view query,
                         std::string_view last_partition_key_display) {
    return Status(ErrorCode::kReadFailure,
                  fmt::format("Scanned over {} tombstones during query '{}' (last scanned row "
                              "partion key was ({})); query aborted",
                              tombstones, query, last_partition_key_display));
}

}  // namespace tessel::diagnostics
