// HotPartitions: which partitions of one table take the reads, the writes and
// the bytes written, always on, in tumbling time windows.
//
// Concurrency. Recording must not make every request contend on one lock, so
// the sketches are striped: each recording thread is given a stripe index once
// (round-robin, thread_local) and only ever locks its own stripe's mutex. With
// at least as many stripes as event loops (the default is the number of
// hardware threads, at least 4, at most 64), every loop effectively owns a
// stripe: the mutex is uncontended (about 20 ns) and only a reader, merging the
// stripes, ever waits on it. Cost per request: a thread_local read, an
// uncontended lock, a hash lookup and an O(log capacity) heap update.
//
// Memory. Each stripe holds, for the current and the previous window, three
// Space-Saving sketches (reads, writes, bytes) of `capacity` counters each,
// filled lazily: at most stripes x 6 x capacity counters per table, and an idle
// table costs a few hundred bytes per stripe.
//
// Windows. Time is cut into windows of `window_ms` aligned on the epoch. A
// stripe that sees a newer window moves its sketches to "previous" (or drops
// both when more than one window passed), so the current window always counts
// from its start and the previous window is the last complete one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "diagnostics/clock.h"
#include "diagnostics/space_saving.h"
#include "diagnostics/thread_slot.h"

namespace tessel::diagnostics {

enum class HotKind { kReads = 0, kWrites = 1, kBytes = 2 };
inline constexpr HotKind kHotKinds[] = {HotKind::kReads, HotKind::kWrites, HotKind::kBytes};
// "reads", "writes", "bytes" (the `kind` column of system.hot_partitions).
std::string_view hot_kind_name(HotKind kind);

// A top-k list with the bound that goes with it: a key that is not listed
// occurred at most `floor` times (0 when the sketch never had to evict).
struct TopKView {
    std::vector<TopKEntry> entries;  // count descending
    uint64_t floor = 0;
};

struct HotWindow {
    TimeMs start = 0;       // window start (ms since the epoch)
    int64_t length_ms = 0;  // window length; the current one is still open
    TopKView kinds[3];      // indexed by HotKind

    const TopKView& of(HotKind kind) const { return kinds[static_cast<int>(kind)]; }
};

struct HotPartitionsOptions {
    size_t capacity = 128;      // counters per sketch (error <= total / capacity)
    int64_t window_ms = 60000;  // window length; values < 1 are taken as 1
    size_t stripes = 0;         // 0: hardware threads, clamped to [4, 64]
};

class HotPartitions {
  public:
    explicit HotPartitions(HotPartitionsOptions options = {});
    ~HotPartitions();
    HotPartitions(const HotPartitions&) = delete;
    HotPartitions& operator=(const HotPartitions&) = delete;

    // `key` is the partition key's bytes, `display` its text form (copied only
    // when the key enters a sketch). `now` comes from the caller's clock.
    void record_read(std::string_view key, std::string_view display, TimeMs now);
    void record_write(std::string_view key, std::string_view display, uint64_t bytes, TimeMs now);

    // The same, building the display text only when the key enters a sketch
    // (formatting a key on every request would cost more than the sketch).
    using DisplayFn = std::function<std::string()>;
    void record_read(std::string_view key, const DisplayFn& display, TimeMs now);
    void record_write(std::string_view key, const DisplayFn& display, uint64_t bytes, TimeMs now);

    // How current() and previous() show a listed key recorded without display
    // text: recording with an empty display and a formatter set makes the
    // text for the listed keys only, not for every key that enters a sketch.
    using KeyFormatter = std::function<std::string(std::string_view key)>;
    void set_formatter(KeyFormatter formatter);

    // The window containing `now` (counting from its start) and the one
    // before it (empty when nothing was recorded then), top `k` per kind.
    HotWindow current(TimeMs now, size_t k) const;
    HotWindow previous(TimeMs now, size_t k) const;

    const HotPartitionsOptions& options() const { return options_; }

  private:
    struct Stripe;
    Stripe& my_stripe() const;
    HotWindow collect(TimeMs now, size_t k, bool previous) const;

    HotPartitionsOptions options_;
    std::vector<std::unique_ptr<Stripe>> stripes_;
    mutable std::mutex formatter_mu_;
    KeyFormatter formatter_;
};

// The change between two views of the same window, `before` read earlier than
// `after`: a key's count is the upper bound of its weight in between, and
// count - error the lower bound. Keys absent from `after` are omitted; the
// result's floor is after.floor.
TopKView diff_views(const TopKView& before, const TopKView& after);

// Views of disjoint time intervals combined (mergeable summaries): a key absent
// from a view is charged that view's floor in both count and error.
TopKView merge_views(const std::vector<const TopKView*>& views);

// Every table's HotPartitions, by (keyspace, table). Lookups take a mutex:
// callers on the request path should look a table up once (when its schema is
// loaded) and keep the shared_ptr.
class HotPartitionsRegistry {
  public:
    explicit HotPartitionsRegistry(HotPartitionsOptions options = {}) : options_(options) {}

    std::shared_ptr<HotPartitions> get_or_create(const std::string& keyspace,
                                                 const std::string& table);
    std::shared_ptr<HotPartitions> find(const std::string& keyspace,
                                        const std::string& table) const;
    void drop(const std::string& keyspace, const std::string& table);

    struct Entry {
        std::string keyspace;
        std::string table;
        std::shared_ptr<HotPartitions> hot;
    };
    std::vector<Entry> list() const;  // by keyspace, then table

  private:
    HotPartitionsOptions options_;
    mutable std::mutex mu_;
    std::map<std::pair<std::string, std::string>, std::shared_ptr<HotPartitions>> tables_;
};

}  // namespace tessel::diagnostics
