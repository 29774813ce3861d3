// The tablet settings of tesseld's config file (TabletOptions):
//
//   tablet_initial_count: 4              tablets of a new hash table
//   tablet_shards: 0                     local shards (0: one per event loop)
//   tablet_split_size_bytes: 268435456   split a tablet past this size...
//   tablet_split_writes_per_sec: 20000   ...or this write rate...
//   tablet_split_bytes_per_sec: 33554432 ...or this written-bytes rate
//   tablet_merge_size_bytes: 33554432    merge two neighbours below these
//   tablet_merge_writes_per_sec: 2000    (together; clamped to a quarter of
//   tablet_merge_bytes_per_sec: 4194304   the split thresholds)
//   tablet_min_age_ms: 60000             younger tablets never merge
//   tablet_evaluation_interval_ms: 10000 split/merge rounds (0: none)
#pragma once

#include <string>

#include "common/status.h"
#include "tessel/database.h"

namespace tessel::server {

// Applies `key: value` when key is a tablet setting (*known = true);
// Config_error naming the line for a bad value. *known = false otherwise.
Status apply_tablet_setting(int line, const std::string& key, const std::string& value,
                            TabletOptions* tablets, bool* known);

}  // namespace tessel::server
