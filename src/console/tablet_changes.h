// TabletChanges: the split/merge history of each table's tablets as the
// console saw it, found by comparing successive lists of tablet ranges.
//
// Tablets are known by their ranges (system.tablets renumbers tablet_id on
// every split and merge). Two lists of one table's tablets in key order
// cover the same key space, so they fall into groups ending at a common
// boundary: one old range and several new ones is a split, several old and
// one new a merge, several of each a split and merge between two looks.
#pragma once

#include <cstddef>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "diagnostics/clock.h"

namespace tessel::console {

struct TabletRange {
    std::string start;
    std::string end;
    bool operator==(const TabletRange&) const = default;
};

struct TabletChange {
    diagnostics::TimeMs at = 0;
    std::string kind;  // "split", "merge" or "split_merge"
    std::vector<TabletRange> from;
    std::vector<TabletRange> to;
};

// The changes from `before` to `after`, both one table's tablets in key order
// covering the same key space. Lists that do not (a table truncated and
// refilled in between, say) give one "split_merge" of everything.
std::vector<TabletChange> diff_tablets(const std::vector<TabletRange>& before,
                                       const std::vector<TabletRange>& after,
                                       diagnostics::TimeMs at);

class TabletChanges {
  public:
    explicit TabletChanges(size_t per_table = 100) : per_table_(per_table) {}

    // The table's tablets now: records the changes since the last call for
    // the table (none on the first). Thread-safe.
    void observe(const std::string& table, const std::vector<TabletRange>& tablets,
                 diagnostics::TimeMs now);
    // Tables no longer listed are forgotten.
    void retain(const std::vector<std::string>& tables);

    // The table's changes, oldest first (at most per_table).
    std::vector<TabletChange> history(const std::string& table) const;

  private:
    size_t per_table_;
    mutable std::mutex mu_;
    struct Table {
        std::vector<TabletRange> last;
        std::deque<TabletChange> changes;
    };
    std::map<std::string, Table> tables_;
};

}  // namespace tessel::console
