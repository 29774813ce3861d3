#include "diagnostics/space_saving.h"

#include <algorithm>
#include <map>
#include <utility>

namespace tessel::diagnostics {

SpaceSaving::SpaceSaving(size_t capacity) : capacity_(capacity == 0 ? 1 : capacity) {}

SpaceSaving::SpaceSaving(SpaceSaving&& other) noexcept : capacity_(other.capacity_) {
    swap(other);
}

SpaceSaving& SpaceSaving::operator=(SpaceSaving&& other) noexcept {
    if (this != &other) {
        SpaceSaving taken(std::move(other));
        swap(taken);
    }
    return *this;
}

void SpaceSaving::swap(SpaceSaving& other) noexcept {
    std::swap(capacity_, other.capacity_);
    std::swap(total_, other.total_);
    slots_.swap(other.slots_);  // deque and unordered_map swaps keep iterators valid
    heap_.swap(other.heap_);
    index_.swap(other.index_);
}

void SpaceSaving::record(std::string_view key, uint64_t weight, std::string_view display) {
    if (weight == 0) return;
    if (bump(key, weight)) return;
    admit(key, weight, std::string(display));
}

bool SpaceSaving::bump(std::string_view key, uint64_t weight) {
    auto it = index_.find(key);
    if (it == index_.end()) return false;
    total_ += weight;
    Slot& slot = slots_[it->second];
    slot.count += weight;
    sift_down(slot.heap_pos);
    return true;
}

void SpaceSaving::admit(std::string_view key, uint64_t weight, std::string display) {
    total_ += weight;
    if (slots_.size() < capacity_) {
        insert_counter(key, std::move(display), weight, 0);
        return;
    }
    // Take over the smallest counter; reuse its index node so a steady stream
    // of new keys allocates nothing once the key strings have grown.
    uint32_t victim = heap_[0];
    Slot& slot = slots_[victim];
    auto node = index_.extract(slot.it);
    node.key().assign(key.data(), key.size());
    slot.it = index_.insert(std::move(node)).position;
    slot.display = std::move(display);
    slot.error = slot.count;
    slot.count += weight;
    sift_down(0);
}

void SpaceSaving::insert_counter(std::string_view key, std::string display, uint64_t count,
                                 uint64_t error) {
    auto idx = static_cast<uint32_t>(slots_.size());
    auto [it, inserted] = index_.emplace(std::string(key), idx);
    (void)inserted;  // callers only insert absent keys
    slots_.push_back(
        Slot{it, std::move(display), count, error, static_cast<uint32_t>(heap_.size())});
    heap_.push_back(idx);
    sift_up(static_cast<uint32_t>(heap_.size() - 1));
}

bool SpaceSaving::less(uint32_t a, uint32_t b) const {
    return slots_[a].count < slots_[b].count;
}

void SpaceSaving::swap_heap(uint32_t a, uint32_t b) {
    std::swap(heap_[a], heap_[b]);
    slots_[heap_[a]].heap_pos = a;
    slots_[heap_[b]].heap_pos = b;
}

void SpaceSaving::sift_up(uint32_t pos) {
    while (pos > 0) {
        uint32_t parent = (pos - 1) / 2;
        if (!less(heap_[pos], heap_[parent])) break;
        swap_heap(pos, parent);
        pos = parent;
    }
}

void SpaceSaving::sift_down(uint32_t pos) {
    const auto n = static_cast<uint32_t>(heap_.size());
    for (;;) {
        uint32_t smallest = pos;
        uint32_t l = 2 * pos + 1;
        uint32_t r = l + 1;
        if (l < n && less(heap_[l], heap_[smallest])) smallest = l;
        if (r < n && less(heap_[r], heap_[smallest])) smallest = r;
        if (smallest == pos) return;
        swap_heap(pos, smallest);
        pos = smallest;
    }
}

uint64_t SpaceSaving::min_count() const {
    if (!full() || heap_.empty()) return 0;
    return slots_[heap_[0]].count;
}

static bool entry_before(const TopKEntry& a, const TopKEntry& b) {
    if (a.count != b.count) return a.count > b.count;
    if (a.error != b.error) return a.error < b.error;
    return a.key < b.key;
}

std::vector<TopKEntry> SpaceSaving::top(size_t k) const {
    std::vector<TopKEntry> out;
    out.reserve(slots_.size());
    for (const Slot& s : slots_)
        out.push_back(TopKEntry{s.it->first, s.display, s.count, s.error});
    size_t n = std::min(k, out.size());
    std::partial_sort(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n), out.end(),
                      entry_before);
    out.resize(n);
    return out;
}

void SpaceSaving::clear() {
    total_ = 0;
    slots_.clear();
    heap_.clear();
    index_.clear();
}

SpaceSaving SpaceSaving::merge(const std::vector<const SpaceSaving*>& parts, size_t capacity) {
    // A key absent from a part may still have occurred there up to that
    // part's min_count() times: that amount is added to both count and error.
    uint64_t floor_sum = 0;
    uint64_t total = 0;
    for (const SpaceSaving* p : parts) {
        floor_sum += p->min_count();
        total += p->total_;
    }
    std::map<std::string, TopKEntry, std::less<>> acc;
    for (const SpaceSaving* p : parts) {
        for (const Slot& s : p->slots_) {
            auto [it, inserted] = acc.try_emplace(s.it->first);
            TopKEntry& e = it->second;
            if (inserted) {
                e.key = s.it->first;
                e.count = floor_sum;
                e.error = floor_sum;
            }
            if (e.display.empty()) e.display = s.display;
            // Replace this part's floor (included above) by its real counter.
            e.count = e.count - p->min_count() + s.count;
            e.error = e.error - p->min_count() + s.error;
        }
    }
    std::vector<TopKEntry> all;
    all.reserve(acc.size());
    for (auto& [key, e] : acc)
        all.push_back(std::move(e));
    std::sort(all.begin(), all.end(), entry_before);
    SpaceSaving out(capacity);
    size_t n = std::min(all.size(), out.capacity_);
    for (size_t i = 0; i < n; ++i) {
        out.insert_counter(all[i].key, std::move(all[i].display), all[i].count, all[i].error);
    }
    out.total_ = total;
    return out;
}

}  // namespace tessel::diagnostics
