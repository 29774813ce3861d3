// Space-Saving top-k (Metwally, Agrawal, El Abbadi, "Efficient Computation of
// Frequent and Top-k Elements in Data Streams", ICDT 2005), weighted.
//
// A sketch monitors at most `capacity` keys. Recording a monitored key adds
// the weight to its counter; recording an unmonitored key when the sketch is
// full takes over the counter with the smallest count c_min: the new key gets
// count c_min + weight and error c_min (it may have occurred up to c_min times
// before, unseen). Hence, for every monitored key:
//
//     count - error  <=  true weight  <=  count,     error <= min_count() <= total() / capacity
//
// and every key whose true weight exceeds min_count() is monitored. Memory is
// O(capacity) whatever the stream; an update is O(log capacity) (a min-heap
// over the counters plus a hash index), and copies the key only when a new key
// enters the sketch.
//
// A SpaceSaving is not thread-safe: HotPartitions keeps one per stripe and
// merges them when read (merge() below), so recorders never share a lock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tessel::diagnostics {

// One monitored key. `key` is the partition key's bytes (any byte string);
// `display` is how to show it (e.g. "'2024-05-01'"), possibly empty.
struct TopKEntry {
    std::string key;
    std::string display;
    uint64_t count = 0;  // upper bound of the key's true weight
    uint64_t error = 0;  // count - error is a lower bound

    bool operator==(const TopKEntry&) const = default;
};

class SpaceSaving {
  public:
    // `capacity` counters (0 is taken as 1).
    explicit SpaceSaving(size_t capacity);
    // Slots hold iterators into the index, which a copy would not re-point:
    // sketches move (swap keeps iterators valid) but do not copy.
    SpaceSaving(SpaceSaving&& other) noexcept;
    SpaceSaving& operator=(SpaceSaving&& other) noexcept;
    SpaceSaving(const SpaceSaving&) = delete;
    SpaceSaving& operator=(const SpaceSaving&) = delete;
    void swap(SpaceSaving& other) noexcept;

    // Adds `weight` (0 is ignored) to `key`. `display` is stored only when the
    // key enters the sketch, so it may be empty for keys already monitored.
    void record(std::string_view key, uint64_t weight = 1, std::string_view display = {});

    // As record(), but builds the display text only when the key enters the
    // sketch: `make_display()` returns something convertible to std::string.
    template <typename DisplayFn>
    void record_with(std::string_view key, uint64_t weight, DisplayFn&& make_display) {
        if (weight == 0) return;
        if (bump(key, weight)) return;
        admit(key, weight, std::string(make_display()));
    }

    // The `k` largest counters (all when k >= size()), by count descending,
    // then by smaller error, then by key: a deterministic order.
    std::vector<TopKEntry> top(size_t k) const;

    size_t capacity() const { return capacity_; }
    size_t size() const { return slots_.size(); }
    bool full() const { return size() == capacity_; }
    // The smallest monitored count when full, else 0: the most an unmonitored
    // key can have occurred.
    uint64_t min_count() const;
    // Sum of all weights recorded (for a merged sketch: of all its parts).
    uint64_t total() const { return total_; }

    void clear();

    // A sketch summarising several (the "mergeable summaries" rule): a key's
    // count and error are the sums over the parts of its counter there, or of
    // that part's min_count() where the part does not monitor it; the
    // `capacity` largest are kept. The bounds above hold for the result, and
    // an unmonitored key still occurred at most min_count() times.
    static SpaceSaving merge(const std::vector<const SpaceSaving*>& parts, size_t capacity);

  private:
    struct StringHash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    using Index = std::unordered_map<std::string, uint32_t, StringHash, std::equal_to<>>;
    struct Slot {
        Index::iterator it;  // owns the key text
        std::string display;
        uint64_t count = 0;
        uint64_t error = 0;
        uint32_t heap_pos = 0;
    };

    bool bump(std::string_view key, uint64_t weight);  // true when monitored
    void admit(std::string_view key, uint64_t weight, std::string display);
    void insert_counter(std::string_view key, std::string display, uint64_t count, uint64_t error);
    void sift_down(uint32_t pos);
    void sift_up(uint32_t pos);
    bool less(uint32_t a, uint32_t b) const;  // heap order of slot indexes
    void swap_heap(uint32_t a, uint32_t b);

    size_t capacity_;
    uint64_t total_ = 0;
    std::deque<Slot> slots_;      // stable addresses; grows up to capacity
    std::vector<uint32_t> heap_;  // slot indexes, min-heap by count
    Index index_;                 // key -> slot
};

}  // namespace tessel::diagnostics
