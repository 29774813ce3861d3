// Tombstone thresholds on reads, as Cassandra's tombstone_warn_threshold and
// tombstone_failure_threshold: a read that scans more tombstones than the warn
// threshold answers normally with a client warning (the protocol's warnings
// flag) and a log line; one that scans more than the failure threshold is
// aborted. The texts are Cassandra 3.11's, so existing runbooks and searches
// still match.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"

namespace tessel::diagnostics {

struct TombstoneThresholds {
    uint64_t tombstone_warn_threshold = 1000;
    uint64_t tombstone_failure_threshold = 100000;
};

// True once `tombstones` exceeds the failure threshold: the scan should stop
// and return tombstone_failure(). Meant to be checked as the scan counts.
inline bool tombstones_overwhelming(const TombstoneThresholds& t, uint64_t tombstones) {
    return tombstones > t.tombstone_failure_threshold;
}

// The client warning (and log line) when the finished read scanned more than
// the warn threshold, else nullopt:
// "Read 1500 live rows and 1200 tombstone cells for query SELECT * FROM ks.t
//  WHERE k = 1 LIMIT 5000 (see tombstone_warn_threshold)"
// The query text is cut at 512 characters, as Cassandra does.
std::optional<std::string> tombstone_warning(const TombstoneThresholds& t, uint64_t live_rows,
                                             uint64_t tombstones, std::string_view query);

// The error for an aborted read: Read_failure with Cassandra's
// TombstoneOverwhelmingException text,
// "Scanned over 100001 tombstones during query 'SELECT ...' (last scanned row
//  partion key was (key)); query aborted"
// ("partion" is Cassandra's spelling, kept so log searches match). The server
// must send the Read_failure extra fields (consistency, received 0, blockfor 1,
// numfailures 1, data_present 0) with it.
Status tombstone_failure(uint64_t tombstones, std::string_view query,
                         std::string_view last_partition_key_display);

}  // namespace tessel::diagnostics
