#include "diagnostics/hot_partitions.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <optional>
#include <thread>

namespace tessel::diagnostics {

std::string_view hot_kind_name(HotKind kind) {
    switch (kind) {
        case HotKind::kReads:
            return "reads";
        case HotKind::kWrites:
            return "writes";
        case HotKind::kBytes:
            return "bytes";
    }
    return "reads";
}

namespace {

int64_t window_of(TimeMs now, int64_t length) {
    int64_t q = now / length;
    if (now % length < 0) --q;  // floor division, so windows tile the line
    return q;
}

bool entry_before(const TopKEntry& a, const TopKEntry& b) {
    if (a.count != b.count) return a.count > b.count;
    if (a.error != b.error) return a.error < b.error;
    return a.key < b.key;
}

}  // namespace

struct HotPartitions::Stripe {
    explicit Stripe(size_t capacity)
        : cur{SpaceSaving(capacity), SpaceSaving(capacity), SpaceSaving(capacity)},
          prev{SpaceSaving(capacity), SpaceSaving(capacity), SpaceSaving(capacity)} {}

    // Brings the stripe to window `w`; requires mu held.
    void roll(int64_t w) {
        if (w <= window) return;  // a late clock reading counts in the open window
        for (int i = 0; i < 3; ++i) {
            if (w == window + 1) {
                prev[i].swap(cur[i]);
            } else {
                prev[i].clear();
            }
            cur[i].clear();
        }
        window = w;
    }

    alignas(64) std::mutex mu;
    int64_t window = std::numeric_limits<int64_t>::min() / 2;
    SpaceSaving cur[3];
    SpaceSaving prev[3];
};

HotPartitions::HotPartitions(HotPartitionsOptions options) : options_(options) {
    if (options_.window_ms < 1) options_.window_ms = 1;
    if (options_.capacity == 0) options_.capacity = 1;
    size_t n = options_.stripes;
    if (n == 0) n = std::clamp<size_t>(std::thread::hardware_concurrency(), 4, 64);
    options_.stripes = n;
    stripes_.reserve(n);
    for (size_t i = 0; i < n; ++i)
        stripes_.push_back(std::make_unique<Stripe>(options_.capacity));
}

HotPartitions::~HotPartitions() = default;

HotPartitions::Stripe& HotPartitions::my_stripe() const {
    return *stripes_[thread_stripe_slot() % stripes_.size()];
}

void HotPartitions::record_read(std::string_view key, std::string_view display, TimeMs now) {
    Stripe& s = my_stripe();
    std::lock_guard lock(s.mu);
    s.roll(window_of(now, options_.window_ms));
    s.cur[static_cast<int>(HotKind::kReads)].record(key, 1, display);
}

void HotPartitions::record_write(std::string_view key, std::string_view display, uint64_t bytes,
                                 TimeMs now) {
    Stripe& s = my_stripe();
    std::lock_guard lock(s.mu);
    s.roll(window_of(now, options_.window_ms));
    s.cur[static_cast<int>(HotKind::kWrites)].record(key, 1, display);
    s.cur[static_cast<int>(HotKind::kBytes)].record(key, bytes, display);
}

void HotPartitions::record_read(std::string_view key, const DisplayFn& display, TimeMs now) {
    Stripe& s = my_stripe();
    std::lock_guard lock(s.mu);
    s.roll(window_of(now, options_.window_ms));
    s.cur[static_cast<int>(HotKind::kReads)].record_with(key, 1, display);
}

void HotPartitions::record_write(std::string_view key, const DisplayFn& display, uint64_t bytes,
                                 TimeMs now) {
    Stripe& s = my_stripe();
    std::lock_guard lock(s.mu);
    s.roll(window_of(now, options_.window_ms));
    // Both sketches may admit the key: format it at most once.
    std::optional<std::string> text;
    auto once = [&]() -> const std::string& {
        if (!text) text = display();
        return *text;
    };
    s.cur[static_cast<int>(HotKind::kWrites)].record_with(key, 1, once);
    s.cur[static_cast<int>(HotKind::kBytes)].record_with(key, bytes, once);
}

HotWindow HotPartitions::current(TimeMs now, size_t k) const {
    return collect(now, k, false);
}

HotWindow HotPartitions::previous(TimeMs now, size_t k) const {
    return collect(now, k, true);
}

void HotPartitions::set_formatter(KeyFormatter formatter) {
    std::lock_guard lock(formatter_mu_);
    formatter_ = std::move(formatter);
}

HotWindow HotPartitions::collect(TimeMs now, size_t k, bool previous) const {
    const int64_t w = window_of(now, options_.window_ms);
    HotWindow out;
    out.length_ms = options_.window_ms;
    out.start = (previous ? w - 1 : w) * options_.window_ms;
    for (HotKind kind : kHotKinds) {
        const int i = static_cast<int>(kind);
        // Copy each stripe's sketch under its lock, merge outside the locks.
        std::vector<SpaceSaving> parts;
        parts.reserve(stripes_.size());
        for (const auto& stripe : stripes_) {
            std::lock_guard lock(stripe->mu);
            stripe->roll(w);
            const SpaceSaving& src = previous ? stripe->prev[i] : stripe->cur[i];
            std::vector<const SpaceSaving*> one{&src};
            parts.push_back(SpaceSaving::merge(one, options_.capacity));
        }
        std::vector<const SpaceSaving*> ptrs;
        for (const auto& p : parts)
            ptrs.push_back(&p);
        SpaceSaving merged = SpaceSaving::merge(ptrs, options_.capacity);
        TopKView& view = out.kinds[i];
        view.entries = merged.top(merged.size());
        view.floor = merged.min_count();
        if (view.entries.size() > k) {
            // An entry cut from the list is bounded by its own count.
            view.floor = std::max(view.floor, view.entries[k].count);
            view.entries.resize(k);
        }
    }
    KeyFormatter formatter;
    {
        std::lock_guard lock(formatter_mu_);
        formatter = formatter_;
    }
    if (formatter) {
        for (TopKView& view : out.kinds) {
            for (TopKEntry& e : view.entries) {
                if (e.display.empty()) e.display = formatter(e.key);
            }
        }
    }
    return out;
}

TopKView diff_views(const TopKView& before, const TopKView& after) {
    TopKView out;
    out.floor = after.floor;
    for (const TopKEntry& b : after.entries) {
        auto it = std::find_if(before.entries.begin(), before.entries.end(),
                               [&](const TopKEntry& a) { return a.key == b.key; });
        // Before: the true weight was in [count - error, count] when listed,
        // in [0, floor] when not.
        uint64_t before_low = it != before.entries.end() ? it->count - it->error : 0;
        uint64_t before_high = it != before.entries.end() ? it->count : before.floor;
        uint64_t after_low = b.count - b.error;
        uint64_t high = b.count > before_low ? b.count - before_low : 0;
        uint64_t low = after_low > before_high ? after_low - before_high : 0;
        if (high == 0) continue;
        out.entries.push_back(TopKEntry{b.key, b.display, high, high - low});
    }
    std::sort(out.entries.begin(), out.entries.end(), entry_before);
    return out;
}

TopKView merge_views(const std::vector<const TopKView*>& views) {
    TopKView out;
    for (const TopKView* v : views)
        out.floor += v->floor;
    std::map<std::string, TopKEntry, std::less<>> acc;
    for (const TopKView* v : views) {
        for (const TopKEntry& e : v->entries) {
            auto [it, inserted] = acc.try_emplace(e.key);
            TopKEntry& m = it->second;
            if (inserted) m = TopKEntry{e.key, e.display, out.floor, out.floor};
            if (m.display.empty()) m.display = e.display;
            m.count = m.count - v->floor + e.count;
            m.error = m.error - v->floor + e.error;
        }
    }
    for (auto& [key, e] : acc)
        out.entries.push_back(std::move(e));
    std::sort(out.entries.begin(), out.entries.end(), entry_before);
    return out;
}

std::shared_ptr<HotPartitions> HotPartitionsRegistry::get_or_create(const std::string& keyspace,
                                                                    const std::string& table) {
    std::lock_guard lock(mu_);
    auto& slot = tables_[{keyspace, table}];
    if (!slot) slot = std::make_shared<HotPartitions>(options_);
    return slot;
}

std::shared_ptr<HotPartitions> HotPartitionsRegistry::find(const std::string& keyspace,
                                                           const std::string& table) const {
    std::lock_guard lock(mu_);
    auto it = tables_.find({keyspace, table});
    return it == tables_.end() ? nullptr : it->second;
}

void HotPartitionsRegistry::drop(const std::string& keyspace, const std::string& table) {
    std::lock_guard lock(mu_);
    tables_.erase({keyspace, table});
}

std::vector<HotPartitionsRegistry::Entry> HotPartitionsRegistry::list() const {
    std::lock_guard lock(mu_);
    std::vector<Entry> out;
    for (const auto& [k, v] : tables_)
        out.push_back(Entry{k.first, k.second, v});
    return out;
}

}  // namespace tessel::diagnostics
