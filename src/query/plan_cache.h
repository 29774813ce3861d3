// PlanCache: prepared plans by statement id, shared by every session.
//
// Lookups take a shared lock and bump an atomic use tick, so concurrent
// requests do not serialise on the cache; inserts take the exclusive lock
// and, when the cache is full, evict the least recently used tenth in one go
// (an approximate LRU that keeps eviction off the lookup path).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <shared_mutex>
#include <string>
#include <unordered_map>

#include "cql/plan.h"

namespace tessel::query {

struct CachedPlan {
    std::string id;
    std::string text;
    std::string keyspace;
    std::string schema_version;  // the catalog version the plan was built against
    std::shared_ptr<const cql::Plan> plan;
    mutable std::atomic<uint64_t> last_used{0};
};

class PlanCache {
  public:
    explicit PlanCache(size_t capacity) : capacity_(capacity < 1 ? 1 : capacity) {}

    // nullptr when absent (never inserted, or evicted).
    std::shared_ptr<const CachedPlan> find(const std::string& id) const;
    void put(std::shared_ptr<CachedPlan> entry);
    size_t size() const;

  private:
    void evict_locked();

    const size_t capacity_;
    mutable std::shared_mutex mu_;
    mutable std::atomic<uint64_t> tick_{0};
    std::unordered_map<std::string, std::shared_ptr<const CachedPlan>> map_;
};

}  // namespace tessel::query
