#include "storage/reconcile.h"

#include <algorithm>
#include <climits>
#include <tuple>

#include "storage/counter_shards.h"

namespace tessel::storage {
namespace {

// Expiring or tombstone: the cell has a local deletion time (Cassandra's
// localDeletionTime != NO_DELETION_TIME).
bool has_local_deletion_time(const Cell& c) {
    return c.kind == Cell::Kind::kTombstone || c.expiry != 0;
}

// Cassandra's LivenessInfo.supersedes (no expired liveness: Tessel has no views).
bool marker_supersedes(const LivenessInfo& a, const LivenessInfo& b) {
    if (a.timestamp != b.timestamp) return a.timestamp > b.timestamp;
    const bool a_exp = a.expiry != 0, b_exp = b.expiry != 0;
    if (a_exp == b_exp) return a.expiry > b.expiry;
    return a_exp;
}

Cell merge_counter_pair(const Cell& a, const Cell& b) {
    if (a.kind == Cell::Kind::kTombstone && b.kind == Cell::Kind::kTombstone) {
        return reconcile_cells(a, b);
    }
    if (a.kind == Cell::Kind::kTombstone) return a;
    if (b.kind == Cell::Kind::kTombstone) return b;
    Cell sum = a;
    sum.timestamp = std::max(a.timestamp, b.timestamp);
    const bool a_shards = a.kind == Cell::Kind::kCounterShards;
    const bool b_shards = b.kind == Cell::Kind::kCounterShards;
    if (a_shards && b_shards) {
        sum.value = merge_counter_shards(a.value, b.value);
        return sum;
    }
    if (a_shards || b_shards) {
        const Cell& delta = a_shards ? b : a;
        sum.kind = Cell::Kind::kCounterShards;
        sum.value = add_counter_delta((a_shards ? a : b).value, decode_counter(delta.value));
        return sum;
    }
    // Two's-complement wrap on overflow, as Cassandra's long arithmetic.
    sum.value =
        encode_counter(static_cast<int64_t>(static_cast<uint64_t>(decode_counter(a.value)) +
                                            static_cast<uint64_t>(decode_counter(b.value))));
    return sum;
}

Cell merge_cell_pair(const Cell& a, const Cell& b) {
    auto is_counter = [](const Cell& c) {
        return c.kind == Cell::Kind::kCounterDelta || c.kind == Cell::Kind::kCounterShards;
    };
    const bool counter = is_counter(a) || is_counter(b);
    if (counter) return merge_counter_pair(a, b);
    return reconcile_cells(a, b);
}

bool same_cell(const Cell& a, const Cell& b) {
    return a.column_id == b.column_id && a.path == b.path;
}

void merge_complex_deletions(std::vector<ComplexDeletion>* into,
                             const std::vector<ComplexDeletion>& other) {
    for (const auto& cd : other) {
        auto it = std::lower_bound(
            into->begin(), into->end(), cd.column_id,
            [](const ComplexDeletion& x, uint32_t id) { return x.column_id < id; });
        if (it != into->end() && it->column_id == cd.column_id) {
            it->deletion = max_deletion(it->deletion, cd.deletion);
        } else {
            into->insert(it, cd);
        }
    }
}

}  // namespace

bool cell_less(const Cell& a, const Cell& b) {
    if (a.column_id != b.column_id) return a.column_id < b.column_id;
    return a.path < b.path;
}

const Cell& reconcile_cells(const Cell& a, const Cell& b) {
    if (a.timestamp != b.timestamp) return a.timestamp > b.timestamp ? a : b;
    const bool a_ldt = has_local_deletion_time(a), b_ldt = has_local_deletion_time(b);
    if (a_ldt || b_ldt) {
        // A tombstone or an expiring cell beats a non-expiring live cell.
        if (a_ldt != b_ldt) return a_ldt ? a : b;
        // A tombstone beats an expiring cell.
        const bool a_dead = a.kind == Cell::Kind::kTombstone;
        const bool b_dead = b.kind == Cell::Kind::kTombstone;
        if (a_dead != b_dead) return a_dead ? a : b;
        // Two tombstones or two expiring cells: the later local deletion time.
        if (a.expiry != b.expiry) return a.expiry > b.expiry ? a : b;
    }
    // The greater value, bytes compared unsigned (std::string compares as unsigned char).
    return b.value > a.value ? b : a;
}

const DeletionTime& max_deletion(const DeletionTime& a, const DeletionTime& b) {
    if (a.timestamp != b.timestamp) return a.timestamp > b.timestamp ? a : b;
    return a.local_deletion_time >= b.local_deletion_time ? a : b;
}

void merge_row(RowFragment* into, RowFragment other) {
    if (marker_supersedes(other.marker, into->marker)) into->marker = other.marker;
    into->deletion = max_deletion(into->deletion, other.deletion);
    merge_complex_deletions(&into->complex_deletions, other.complex_deletions);
    // Purge both sides before summing counter deltas: a sum carries only its
    // newest timestamp, so a delta the deletion shadows must go first.
    other.deletion = into->deletion;
    other.complex_deletions = into->complex_deletions;
    purge_shadowed(into);
    purge_shadowed(&other);

    std::vector<Cell> merged;
    merged.reserve(into->cells.size() + other.cells.size());
    auto a = into->cells.begin(), ae = into->cells.end();
    auto b = other.cells.begin(), be = other.cells.end();
    while (a != ae || b != be) {
        if (b == be || (a != ae && cell_less(*a, *b))) {
            merged.push_back(std::move(*a++));
        } else if (a == ae || cell_less(*b, *a)) {
            merged.push_back(std::move(*b++));
        } else {
            merged.push_back(merge_cell_pair(*a, *b));
            ++a;
            ++b;
        }
    }
    into->cells = std::move(merged);
    purge_shadowed(into);
}

void normalize_row(RowFragment* row) {
    std::stable_sort(row->cells.begin(), row->cells.end(), cell_less);
    std::vector<Cell> out;
    out.reserve(row->cells.size());
    for (auto& c : row->cells) {
        if (!out.empty() && same_cell(out.back(), c)) {
            out.back() = merge_cell_pair(out.back(), c);
        } else {
            out.push_back(std::move(c));
        }
    }
    row->cells = std::move(out);
    std::vector<ComplexDeletion> cds;
    merge_complex_deletions(&cds, row->complex_deletions);
    row->complex_deletions = std::move(cds);
    purge_shadowed(row);
}

void purge_shadowed(RowFragment* row) {
    const DeletionTime& rd = row->deletion;
    if (!rd.is_live()) {
        if (!row->marker.is_empty() && rd.deletes(row->marker.timestamp)) row->marker = {};
        std::erase_if(row->complex_deletions, [&](const ComplexDeletion& cd) {
            return cd.deletion.is_live() || cd.deletion.timestamp <= rd.timestamp;
        });
    }
    if (rd.is_live() && row->complex_deletions.empty()) {
        return;
    }
    std::erase_if(row->cells, [&](const Cell& c) {
        if (rd.deletes(c.timestamp)) return true;
        if (c.path.empty()) return false;
        for (const auto& cd : row->complex_deletions) {
            if (cd.column_id == c.column_id) return cd.deletion.deletes(c.timestamp);
        }
        return false;
    });
}

void merge_header(HeaderValue* into, HeaderValue other) {
    into->partition_deletion = max_deletion(into->partition_deletion, other.partition_deletion);
    auto& rts = into->range_tombstones;
    rts.insert(rts.end(), std::make_move_iterator(other.range_tombstones.begin()),
               std::make_move_iterator(other.range_tombstones.end()));
    auto key = [](const RangeTombstone& r) {
        return std::tie(r.start.prefix, r.start.inclusive, r.end.prefix, r.end.inclusive);
    };
    std::sort(rts.begin(), rts.end(),
              [&](const RangeTombstone& a, const RangeTombstone& b) { return key(a) < key(b); });
    std::vector<RangeTombstone> out;
    out.reserve(rts.size());
    for (auto& rt : rts) {
        if (rt.deletion.is_live() || into->partition_deletion.deletes(rt.deletion.timestamp))
            continue;
        if (!out.empty() && key(out.back()) == key(rt)) {
            out.back().deletion = max_deletion(out.back().deletion, rt.deletion);
        } else {
            out.push_back(std::move(rt));
        }
    }
    rts = std::move(out);
}

}  // namespace tessel::storage
