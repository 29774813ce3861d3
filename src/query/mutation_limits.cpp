#include "query/mutation_limits.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "query/key_codec.h"
#include "query/table_source.h"
#include "types/value.h"

namespace tessel::query {
namespace {

constexpr size_t kTimestampSize = 8;
constexpr size_t kDeletionTimeSize = 12;  // timestamp + local deletion time
constexpr size_t kCellFixedSize = 16;     // timestamp + ttl + local deletion time

size_t row_size(const std::string& clustering, const storage::RowFragment& row) {
    size_t size = clustering.size() + kDeletionTimeSize;
    if (!row.marker.is_empty()) size += kTimestampSize + (row.marker.ttl > 0 ? 8 : 0);
    size += row.complex_deletions.size() * kDeletionTimeSize;
    for (const auto& c : row.cells)
        size += kCellFixedSize + c.value.size() + c.path.size();
    return size;
}

// One Cassandra mutation: everything a statement or batch writes to one
// partition key of one keyspace, whatever the tables.
struct MutationGroup {
    size_t size = 0;
    std::vector<std::pair<size_t, std::string>> keys;  // (size, "table.key")
};

std::string key_text(const cql::TableInfo& table, const std::string& partition_key) {
    auto comps = decode_partition_key(layout_of(table), partition_key);
    std::string out;
    if (!comps.is_ok()) return out;
    for (size_t i = 0; i < comps->size(); ++i) {
        if (i > 0) out += ':';
        out += format_value(*table.pk(i).type, (*comps)[i]);
    }
    return out;
}

// Cassandra's makeTopKeysString: keys while they fit in 1,024 characters
// (at least one), then " and N more.".
std::string top_keys(std::vector<std::pair<size_t, std::string>> keys) {
    std::stable_sort(keys.begin(), keys.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    std::string out;
    size_t used = 0;
    for (; used < keys.size(); ++used) {
        const std::string& k = keys[used].second;
        if (out.empty()) {
            out = k;
        } else if (out.size() + k.size() + 2 <= 1024) {
            out += ", " + k;
        } else {
            break;
        }
    }
    if (used < keys.size()) out += fmt::format(" and {} more.", keys.size() - used);
    return out;
}

}  // namespace

size_t data_size(const storage::PartitionMutation& m) {
    size_t size = kDeletionTimeSize;
    for (const auto& rt : m.range_tombstones)
        size += rt.start.prefix.size() + rt.end.prefix.size() + kDeletionTimeSize;
    if (m.static_row) size += row_size({}, *m.static_row);
    for (const auto& [clustering, row] : m.rows)
        size += row_size(clustering, row);
    return size;
}

Status check_write_size(const std::vector<TableMutation>& logical, const MutationLimits& limits,
                        bool is_batch, std::vector<std::string>* warnings) {
    std::vector<size_t> sizes;
    sizes.reserve(logical.size());
    size_t total = 0;
    for (const auto& [table, m] : logical) {
        sizes.push_back(data_size(m));
        total += sizes.back();
    }
    // No partition key can receive more than the whole write: grouping and
    // naming the keys is only needed past the limit.
    if (total > limits.max_mutation_bytes) {
        std::map<std::pair<std::string, std::string>, MutationGroup> groups;
        for (size_t i = 0; i < logical.size(); ++i) {
            const auto& [table, m] = logical[i];
            MutationGroup& g = groups[{table->keyspace, m.partition_key}];
            g.size += sizes[i];
            g.keys.emplace_back(sizes[i], table->name + "." + key_text(*table, m.partition_key));
        }
        for (auto& [where, g] : groups) {
            if (g.size <= limits.max_mutation_bytes) continue;
            return Status::invalid(fmt::format(
                "Rejected an oversized mutation ({}/{}) for keyspace: {}. Top keys are: {}", g.size,
                limits.max_mutation_bytes, where.first, top_keys(std::move(g.keys))));
        }
    }
    if (!is_batch || total <= limits.batch_warn_bytes) return Status::ok();
    std::set<std::pair<std::string, std::string>> partitions;
    std::set<std::string> tables;
    for (const auto& [table, m] : logical) {
        partitions.emplace(table->keyspace, m.partition_key);
        tables.insert(table->keyspace + "." + table->name);
    }
    // Like Cassandra, only batches that span several partitions (#10876).
    if (partitions.size() <= 1) return Status::ok();
    if (total > limits.batch_fail_bytes) return Status::invalid("Batch too large");
    warnings->push_back(fmt::format(
        "Batch for [{}] is of size {}, exceeding specified threshold of "
        "{} by {}.",
        fmt::join(tables, ", "), total, limits.batch_warn_bytes, total - limits.batch_warn_bytes));
    return Status::ok();
}

}  // namespace tessel::query
