// Clustering bounds as half-open byte intervals, and the index of range
// tombstones a read consults per row.
//
// With ClusteringBound's prefix semantics every slice is a half-open interval
// [lo, hi) of clustering bytes:
//   inclusive start P -> lo = P           exclusive start P -> lo = succ(P)
//   inclusive end P   -> hi = succ(P)     exclusive end P   -> hi = P
// where succ(P) is the smallest string greater than every string starting
// with P (none when P is all 0xFF: then the bound is unbounded / empty).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/mutation.h"

namespace tessel::storage {

// The smallest string greater than every string that starts with `prefix`;
// nullopt when no such string exists (empty prefix or all 0xFF bytes).
std::optional<std::string> prefix_successor(std::string_view prefix);

struct ClusteringInterval {
    std::string lo;                 // inclusive
    std::optional<std::string> hi;  // exclusive; nullopt = unbounded
    bool empty = false;             // admits nothing

    bool contains(std::string_view clustering) const;
};

ClusteringInterval to_interval(const ClusteringBound& start, const ClusteringBound& end);

// Answers "which range tombstone deletion covers this clustering?" in
// O(log n), by splitting the tombstones into
// disjoint segments each carrying the greatest deletion covering it.
class RangeTombstoneIndex {
  public:
    RangeTombstoneIndex() = default;
    explicit RangeTombstoneIndex(const std::vector<RangeTombstone>& tombstones);

    // The greatest deletion covering `clustering`; live if none.
    DeletionTime covering(std::string_view clustering) const;
    bool empty() const { return starts_.empty(); }

  private:
    std::vector<std::string> starts_;      // sorted segment starts
    std::vector<DeletionTime> deletions_;  // deletion of [starts_[i], starts_[i+1])
};

}  // namespace tessel::storage
