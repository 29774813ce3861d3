#include "query/key_values.h"

#include <algorithm>
#include <set>

#include "query/term_eval.h"
#include "types/bytes_util.h"
#include "types/value.h"

namespace tessel::query {
namespace {

constexpr size_t kMaxKeys = 10000;

Result<std::vector<std::string>> split_tuple(std::string_view in, size_t width,
                                             const std::vector<std::string>& names) {
    std::vector<std::string> out;
    for (size_t i = 0; i < width; ++i) {
        if (in.size() < 4) return Status::invalid("Invalid tuple value: too few components");
        const int32_t len = bytes::read_i32(in);
        in.remove_prefix(4);
        if (len < 0) {
            return Status::invalid("Invalid null value in condition for column " +
                                   (i < names.size() ? names[i] : std::string("?")));
        }
        if (in.size() < static_cast<size_t>(len)) return Status::invalid("Invalid tuple value");
        out.emplace_back(in.substr(0, len));
        in.remove_prefix(len);
    }
    return out;
}

Status null_error(const std::vector<std::string>& names, bool unset) {
    const std::string col = names.empty() ? std::string("?") : names[0];
    return Status::invalid(std::string("Invalid ") + (unset ? "unset" : "null") +
                           " value in condition for column " + col);
}

Result<std::vector<std::vector<std::string>>> cartesian(
    const std::vector<std::vector<std::vector<std::string>>>& parts) {
    std::vector<std::vector<std::string>> out{{}};
    for (const auto& part : parts) {
        std::vector<std::vector<std::string>> next;
        for (const auto& prefix : out) {
            for (const auto& alt : part) {
                auto v = prefix;
                v.insert(v.end(), alt.begin(), alt.end());
                next.push_back(std::move(v));
            }
        }
        if (next.size() > kMaxKeys) {
            return Status::invalid(
                "Cartesian product of IN restrictions is greater than the "
                "maximum allowed (" +
                std::to_string(kMaxKeys) + ")");
        }
        out = std::move(next);
    }
    return out;
}

// Clustering components are at most 65535 bytes, as Cassandra's (it stores
// their lengths as unsigned shorts). Partition key components are checked
// when the key is encoded (partition/token.h).
constexpr size_t kMaxKeyComponentBytes = 65535;

Status check_clustering_sizes(const std::vector<std::vector<std::string>>& alternatives) {
    for (const auto& alt : alternatives) {
        for (const auto& component : alt) {
            if (component.size() > kMaxKeyComponentBytes) {
                return Status::invalid("Key length of " + std::to_string(component.size()) +
                                       " is longer than maximum of " +
                                       std::to_string(kMaxKeyComponentBytes));
            }
        }
    }
    return Status::ok();
}

std::vector<std::string> names_of(const cql::TableInfo& t, bool partition, size_t first,
                                  size_t width) {
    std::vector<std::string> n;
    for (size_t i = first; i < first + width; ++i) {
        if (partition && i < t.partition_key.size()) n.push_back(t.pk(i).name);
        if (!partition && i < t.clustering.size()) n.push_back(t.ck(i).name);
    }
    return n;
}

// The one combination of single-value equalities (`k = ?`, `(a, b) = (?, ?)`
// written column by column), or nullopt when some restriction is an IN, a
// marker for a list or tuple, or a value is null or unset: the general path
// then handles it (and words the error).
std::optional<std::vector<std::string>> single_values(const std::vector<cql::KeyValues>& kvs,
                                                      const std::vector<BoundValue>& values) {
    std::vector<std::string> out;
    out.reserve(kvs.size());
    for (const auto& kv : kvs) {
        if (kv.list_marker || kv.tuple_marker || kv.alternatives.size() != 1) return std::nullopt;
        const auto& alt = kv.alternatives[0];
        if (alt.size() != static_cast<size_t>(kv.width)) return std::nullopt;
        for (const auto& term : alt) {
            auto v = evaluate(term, values);
            if (!v.is_ok() || !v->is_value()) return std::nullopt;
            out.push_back(std::move(v->bytes));
        }
    }
    return out;
}

}  // namespace

Result<std::vector<std::vector<std::string>>> evaluate_key_values(
    const cql::KeyValues& kv, const std::vector<std::string>& names,
    const std::vector<BoundValue>& values) {
    std::vector<std::vector<std::string>> out;
    const size_t width = static_cast<size_t>(kv.width);
    auto add_tuple_or_value = [&](TermValue v) -> Status {
        if (!v.is_value()) return null_error(names, v.is_unset());
        if (width == 1) {
            out.push_back({std::move(v.bytes)});
            return Status::ok();
        }
        TESSEL_ASSIGN_OR_RETURN(auto parts, split_tuple(v.bytes, width, names));
        out.push_back(std::move(parts));
        return Status::ok();
    };
    if (kv.list_marker) {
        TESSEL_ASSIGN_OR_RETURN(auto v, evaluate(*kv.list_marker, values));
        if (!v.is_value()) return null_error(names, v.is_unset());
        TESSEL_ASSIGN_OR_RETURN(auto els, split_collection(*kv.list_marker->type, v.bytes));
        for (auto& e : els)
            TESSEL_RETURN_IF_ERROR(add_tuple_or_value(TermValue::value(std::move(e))));
        return out;
    }
    if (kv.tuple_marker) {
        TESSEL_ASSIGN_OR_RETURN(auto v, evaluate(*kv.tuple_marker, values));
        TESSEL_RETURN_IF_ERROR(add_tuple_or_value(std::move(v)));
        return out;
    }
    for (const auto& alt : kv.alternatives) {
        if (alt.size() == 1 && width > 1) {  // a tuple marker inside IN (...)
            TESSEL_ASSIGN_OR_RETURN(auto v, evaluate(alt[0], values));
            TESSEL_RETURN_IF_ERROR(add_tuple_or_value(std::move(v)));
            continue;
        }
        std::vector<std::string> row;
        for (size_t i = 0; i < alt.size(); ++i) {
            TESSEL_ASSIGN_OR_RETURN(auto v, evaluate(alt[i], values));
            if (!v.is_value()) {
                return null_error({i < names.size() ? names[i] : std::string("?")}, v.is_unset());
            }
            row.push_back(std::move(v.bytes));
        }
        out.push_back(std::move(row));
    }
    return out;
}

Result<std::vector<PartitionTarget>> partition_targets(const cql::WherePlan& where,
                                                       const cql::TableInfo& table,
                                                       const KeyLayout& layout,
                                                       const std::vector<BoundValue>& values) {
    // The common point statement names one partition: no product, no sort.
    if (auto one = single_values(where.partition_values, values)) {
        TESSEL_ASSIGN_OR_RETURN(auto key, encode_partition_key(layout, *one));
        std::vector<PartitionTarget> out;
        out.push_back({std::move(key), std::move(*one)});
        return out;
    }
    std::vector<std::vector<std::vector<std::string>>> parts;
    for (size_t i = 0; i < where.partition_values.size(); ++i) {
        TESSEL_ASSIGN_OR_RETURN(
            auto alts,
            evaluate_key_values(where.partition_values[i], names_of(table, true, i, 1), values));
        parts.push_back(std::move(alts));
    }
    TESSEL_ASSIGN_OR_RETURN(auto combos, cartesian(parts));
    std::vector<PartitionTarget> out;
    for (auto& c : combos) {
        TESSEL_ASSIGN_OR_RETURN(auto key, encode_partition_key(layout, c));
        out.push_back({std::move(key), std::move(c)});
    }
    // Partitions come back in key value order, as Cassandra returns IN results.
    auto less = [&](const PartitionTarget& a, const PartitionTarget& b) {
        for (size_t i = 0; i < a.components.size(); ++i) {
            const int c =
                compare_values(*layout.partition_types[i], a.components[i], b.components[i]);
            if (c != 0) return c < 0;
        }
        return false;
    };
    std::sort(out.begin(), out.end(), less);
    out.erase(std::unique(out.begin(), out.end(),
                          [](const PartitionTarget& a, const PartitionTarget& b) {
                              return a.key == b.key;
                          }),
              out.end());
    return out;
}

Result<std::vector<std::vector<std::string>>> clustering_prefix_values(
    const cql::WherePlan& where, const cql::TableInfo& table,
    const std::vector<BoundValue>& values) {
    if (auto one = single_values(where.clustering_prefix, values)) {
        std::vector<std::vector<std::string>> out;
        out.push_back(std::move(*one));
        TESSEL_RETURN_IF_ERROR(check_clustering_sizes(out));
        return out;
    }
    std::vector<std::vector<std::vector<std::string>>> parts;
    size_t col = 0;
    for (const auto& kv : where.clustering_prefix) {
        TESSEL_ASSIGN_OR_RETURN(
            auto alts, evaluate_key_values(kv, names_of(table, false, col, kv.width), values));
        TESSEL_RETURN_IF_ERROR(check_clustering_sizes(alts));
        parts.push_back(std::move(alts));
        col += kv.width;
    }
    TESSEL_ASSIGN_OR_RETURN(auto combos, cartesian(parts));
    // A value named twice in IN selects its rows once, as in Cassandra.
    std::set<std::vector<std::string>> seen;
    std::erase_if(combos,
                  [&](const std::vector<std::string>& c) { return !seen.insert(c).second; });
    return combos;
}

Result<std::optional<std::vector<std::string>>> slice_values(
    const cql::SliceBound& b, int first, const cql::TableInfo& table,
    const std::vector<BoundValue>& values) {
    using Out = std::optional<std::vector<std::string>>;
    std::vector<std::string> vals;
    const auto names = names_of(table, false, first, b.width);
    if (b.tuple_marker) {
        TESSEL_ASSIGN_OR_RETURN(auto v, evaluate(*b.tuple_marker, values));
        if (v.is_unset()) return Out();
        if (!v.is_value()) return null_error(names, false);
        TESSEL_ASSIGN_OR_RETURN(vals, split_tuple(v.bytes, b.width, names));
    } else {
        for (size_t i = 0; i < b.values.size(); ++i) {
            TESSEL_ASSIGN_OR_RETURN(auto v, evaluate(b.values[i], values));
            if (v.is_unset()) return Out();
            if (!v.is_value()) return null_error({names[i]}, false);
            vals.push_back(std::move(v.bytes));
        }
    }
    return Out(std::move(vals));
}

namespace {

using storage::ClusteringInterval;

// Every row under `prefix`.
ClusteringInterval whole(const std::string& prefix) {
    return {prefix, storage::prefix_successor(prefix), false};
}

// The rows under `p` whose next column is greater (or less), in the
// column's natural order, than the value encoded at the end of `pv`. A DESC
// column stores larger values first, so "greater" lies before pv in storage.
ClusteringInterval column_side(const std::string& p, const std::string& pv, bool greater,
                               bool descending) {
    if (greater == descending) return {p, pv, p >= pv};
    auto lo = storage::prefix_successor(pv);
    if (!lo) return {"", std::nullopt, true};
    auto hi = storage::prefix_successor(p);
    return {*lo, hi, hi && *lo >= *hi};
}

// One side of a slice as storage intervals. (c1, ..., cn) > (v1, ..., vn)
// compares in natural order: c1 > v1, or c1 = v1 and c2 > v2, ... (and all
// equal when inclusive). Each alternative is one interval in storage, and
// over columns of mixed ASC/DESC order they are not adjacent, so the side
// is a sorted list of disjoint intervals.
std::vector<ClusteringInterval> slice_side(const std::vector<std::string>& vals, int first,
                                           bool greater, bool inclusive,
                                           const cql::TableInfo& table, const KeyLayout& layout,
                                           const std::string& prefix) {
    std::vector<ClusteringInterval> out;
    std::string p = prefix;
    for (size_t i = 0; i < vals.size(); ++i) {
        std::string pv = p;
        append_clustering(layout, first + i, vals[i], &pv);
        out.push_back(column_side(p, pv, greater, table.ck(first + i).descending));
        p = std::move(pv);
    }
    if (inclusive) out.push_back(whole(p));
    std::erase_if(out, [](const ClusteringInterval& iv) { return iv.empty; });
    std::sort(out.begin(), out.end(),
              [](const ClusteringInterval& a, const ClusteringInterval& b) { return a.lo < b.lo; });
    return out;
}

// True when `a` ends before `b` (nullopt: unbounded).
bool ends_before(const std::optional<std::string>& a, const std::optional<std::string>& b) {
    return a && (!b || *a < *b);
}

// The intersection of two sorted lists of disjoint intervals.
std::vector<ClusteringInterval> intersect(const std::vector<ClusteringInterval>& a,
                                          const std::vector<ClusteringInterval>& b) {
    std::vector<ClusteringInterval> out;
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        ClusteringInterval iv;
        iv.lo = std::max(a[i].lo, b[j].lo);
        iv.hi = ends_before(a[i].hi, b[j].hi) ? a[i].hi : b[j].hi;
        if (!iv.hi || iv.lo < *iv.hi) out.push_back(iv);
        if (ends_before(a[i].hi, b[j].hi)) {
            ++i;
        } else {
            ++j;
        }
    }
    return out;
}

// Joins the neighbours of a sorted list of disjoint intervals that touch
// (one ends where the next starts): an inclusive bound is two intervals,
// the bound's own rows and the rows past them, and each interval costs a
// read of the partition. Used within one clustering prefix: the intervals
// of IN values stay apart (consecutive integers touch), as each may be read
// as a single row.
void join_touching(std::vector<ClusteringInterval>* ivs) {
    size_t kept = 0;
    for (size_t i = 0; i < ivs->size(); ++i) {
        ClusteringInterval& iv = (*ivs)[i];
        if (kept > 0) {
            ClusteringInterval& last = (*ivs)[kept - 1];
            if (last.hi && *last.hi == iv.lo) {
                last.hi = std::move(iv.hi);
                continue;
            }
        }
        if (kept != i) (*ivs)[kept] = std::move(iv);
        ++kept;
    }
    ivs->resize(kept);
}

}  // namespace

Result<std::vector<storage::ClusteringInterval>> clustering_intervals(
    const cql::WherePlan& where, const cql::TableInfo& table, const KeyLayout& layout,
    const std::vector<BoundValue>& values) {
    TESSEL_ASSIGN_OR_RETURN(auto prefixes, clustering_prefix_values(where, table, values));
    const int col = where.slice_first_column;
    std::optional<std::vector<std::string>> start, end;
    if (col >= 0 && where.slice_start) {
        TESSEL_ASSIGN_OR_RETURN(start, slice_values(*where.slice_start, col, table, values));
    }
    if (col >= 0 && where.slice_end) {
        TESSEL_ASSIGN_OR_RETURN(end, slice_values(*where.slice_end, col, table, values));
    }
    std::vector<storage::ClusteringInterval> out;
    for (const auto& p : prefixes) {
        const std::string enc = encode_clustering(layout, p);
        std::vector<ClusteringInterval> ivs{whole(enc)};
        if (start) {
            ivs = intersect(ivs, slice_side(*start, col, true, where.slice_start->inclusive, table,
                                            layout, enc));
        }
        if (end) {
            ivs = intersect(
                ivs, slice_side(*end, col, false, where.slice_end->inclusive, table, layout, enc));
        }
        join_touching(&ivs);
        out.insert(out.end(), ivs.begin(), ivs.end());
    }
    std::sort(out.begin(), out.end(),
              [](const storage::ClusteringInterval& a, const storage::ClusteringInterval& b) {
                  return a.lo < b.lo;
              });
    return out;
}

storage::ClusteringBound interval_start(const storage::ClusteringInterval& i) {
    return {i.lo, true};
}

storage::ClusteringBound interval_end(const storage::ClusteringInterval& i) {
    if (!i.hi) return {"", true};
    return {*i.hi, false};
}

}  // namespace tessel::query
