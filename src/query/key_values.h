// Evaluating key restrictions into concrete keys: the partition keys an
// EQ/IN restriction names, and the clustering slices a prefix plus slice
// selects, in storage order.
#pragma once

#include <string>
#include <vector>

#include "cql/plan.h"
#include "query/key_codec.h"
#include "storage/clustering_range.h"
#include "tessel/database.h"

namespace tessel::query {

struct PartitionTarget {
    std::string key;                      // physical key
    std::vector<std::string> components;  // partition key values
};

// The partitions named by where.partition_values, in partition key value
// order, without duplicates. Invalid for null/unset values.
Result<std::vector<PartitionTarget>> partition_targets(const cql::WherePlan& where,
                                                       const cql::TableInfo& table,
                                                       const KeyLayout& layout,
                                                       const std::vector<BoundValue>& values);

// Each clustering prefix selected by where.clustering_prefix (encoded),
// sorted and without duplicates; one empty prefix when there is none.
Result<std::vector<std::vector<std::string>>> clustering_prefix_values(
    const cql::WherePlan& where, const cql::TableInfo& table,
    const std::vector<BoundValue>& values);

// The clustering intervals to read, in storage order (not yet reversed).
Result<std::vector<storage::ClusteringInterval>> clustering_intervals(
    const cql::WherePlan& where, const cql::TableInfo& table, const KeyLayout& layout,
    const std::vector<BoundValue>& values);

// Bounds of an interval, for a SliceSpec.
storage::ClusteringBound interval_start(const storage::ClusteringInterval& i);
storage::ClusteringBound interval_end(const storage::ClusteringInterval& i);

// The values of one side of a slice over clustering columns starting at
// `first`; empty when the bound holds an unset value (the side is then
// unbounded).
Result<std::optional<std::vector<std::string>>> slice_values(const cql::SliceBound& b, int first,
                                                             const cql::TableInfo& table,
                                                             const std::vector<BoundValue>& values);

// Values of one restriction: each alternative has kv.width values.
Result<std::vector<std::vector<std::string>>> evaluate_key_values(
    const cql::KeyValues& kv, const std::vector<std::string>& names,
    const std::vector<BoundValue>& values);

}  // namespace tessel::query
