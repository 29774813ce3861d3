// Hints: writes a coordinator keeps for a replica that was down, or did not
// answer in time, and replays when the replica is back (Cassandra's hinted
// handoff). Stored in the node-local family of the store, durable like table
// data; a hint is deleted once the replica acknowledged it.
//
// No hint is kept for a node that has been down longer than the hint window
// (max_hint_window_in_ms, default 3 hours): past it, repair brings the node
// back in sync, as in Cassandra.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "cluster/messages.h"
#include "common/status.h"
#include "common/task.h"

namespace tessel::storage {
class Store;
}

namespace tessel::cluster {

struct Hint {
    std::string key;  // where it is stored (to delete it once delivered)
    MutationMessage message;
};

class HintStore {
  public:
    // `store` must outlive the hint store.
    HintStore(storage::Store* store, int64_t window_ms);

    // Keeps `m` for `host` unless the host has been down past the window.
    Status add(const std::string& host, const MutationMessage& m);
    // Up to `limit` of the host's hints, oldest first.
    Result<std::vector<Hint>> pending(const std::string& host, size_t limit);
    Status remove(const Hint& hint);
    // The number of hints kept for `host` (counts at most `cap`).
    size_t count(const std::string& host, size_t cap = 1000000);

    // The failure detector's and membership's view: when a host went down.
    void mark_down(const std::string& host);
    void mark_up(const std::string& host);

    // Sends the host's hints through `deliver` in order, deleting each one
    // acknowledged; stops at the first that fails (replayed again later).
    // Returns how many were delivered. `host` is copied: the replay outlives
    // the call's arguments.
    Task<Result<size_t>> replay(std::string host,
                                std::function<Task<Status>(const MutationMessage&)> deliver);

  private:
    storage::Store* store_;
    int64_t window_ms_;
    std::mutex mu_;
    std::map<std::string, int64_t> down_since_ms_;
    uint64_t sequence_ = 0;
};

}  // namespace tessel::cluster
