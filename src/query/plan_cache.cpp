#include "query/plan_cache.h"

#include <algorithm>
#include <mutex>
#include <vector>

namespace tessel::query {

std::shared_ptr<const CachedPlan> PlanCache::find(const std::string& id) const {
    std::shared_lock lock(mu_);
    auto it = map_.find(id);
    if (it == map_.end()) return nullptr;
    it->second->last_used.store(++tick_, std::memory_order_relaxed);
    return it->second;
}

void PlanCache::put(std::shared_ptr<CachedPlan> entry) {
    entry->last_used.store(++tick_, std::memory_order_relaxed);
    std::unique_lock lock(mu_);
    map_[entry->id] = std::move(entry);
    if (map_.size() > capacity_) evict_locked();
}

size_t PlanCache::size() const {
    std::shared_lock lock(mu_);
    return map_.size();
}

void PlanCache::evict_locked() {
    std::vector<std::pair<uint64_t, std::string>> ages;
    ages.reserve(map_.size());
    for (const auto& [id, e] : map_)
        ages.emplace_back(e->last_used.load(), id);
    const size_t target = capacity_ - capacity_ / 10;  // drop to 90% of capacity
    const size_t drop = map_.size() > target ? map_.size() - target : 0;
    std::nth_element(ages.begin(), ages.begin() + drop, ages.end());
    for (size_t i = 0; i < drop; ++i)
        map_.erase(ages[i].second);
}

}  // namespace tessel::query
