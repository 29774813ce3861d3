#include "storage/raw_reader.h"

#include <xxhash.h>

#include <algorithm>

#include "common/record_codec.h"
#include "storage/clustering_range.h"
#include "storage/reconcile.h"
#include "storage/row_codec.h"
#include "storage/table_handle.h"

namespace tessel::storage {
namespace {

std::string_view view(const rocksdb::Slice& s) {
    return {s.data(), s.size()};
}

Status corrupt() {
    return Status::server("Corrupted record in table storage");
}

// Adds one stored record (key suffix after the partition key, and value) to
// the partition mutation being rebuilt.
Status add_record(std::string_view suffix, std::string_view value, PartitionMutation* m) {
    if (suffix.empty()) return corrupt();
    switch (suffix[0]) {
        case kHeaderMarker: {
            HeaderValue h;
            if (!decode_header(value, &h)) return corrupt();
            m->partition_deletion = h.partition_deletion;
            m->range_tombstones = std::move(h.range_tombstones);
            return Status::ok();
        }
        case kStaticMarker: {
            RowValue v;
            if (!decode_row(value, &v)) return corrupt();
            m->static_row = std::move(v.row);
            return Status::ok();
        }
        case kRowMarker: {
            RowValue v;
            if (!decode_row(value, &v)) return corrupt();
            m->rows.emplace_back(std::string(suffix.substr(1)), std::move(v.row));
            return Status::ok();
        }
        default:
            return corrupt();
    }
}

// The partition key of a stored record: its value says how long it is.
Result<std::string_view> record_partition_key(std::string_view key, std::string_view value) {
    auto prefix = peek_record(value);
    if (!prefix || prefix->pk_length >= key.size()) return corrupt();
    return key.substr(0, prefix->pk_length);
}

// Iterates the records of the partitions whose key lies in `range`, calling
// fn(partition key, key suffix, value) in key order; fn returns false to stop
// after the current partition.
template <class Fn>
Status for_each_record(const std::shared_ptr<const TableHandle>& table, const KeyRange& range,
                       Fn&& fn) {
    const ClusteringInterval iv =
        to_interval({range.start_key, range.start_inclusive}, {range.end_key, range.end_inclusive});
    if (iv.empty) return Status::ok();
    rocksdb::ReadOptions ro;
    ro.fill_cache = false;
    rocksdb::Slice upper;
    if (iv.hi) {
        upper = *iv.hi;
        ro.iterate_upper_bound = &upper;
    }
    std::unique_ptr<rocksdb::Iterator> it(table->db->NewIterator(ro, table->cf));
    it->Seek(iv.lo);
    std::string current;
    bool stop_after = false;
    for (; it->Valid(); it->Next()) {
        const std::string_view key = view(it->key());
        const std::string_view value = view(it->value());
        TESSEL_ASSIGN_OR_RETURN(auto pk, record_partition_key(key, value));
        if (pk != current) {
            if (stop_after) break;
            current.assign(pk);
        }
        if (!fn(current, key.substr(pk.size()), value)) stop_after = true;
    }
    if (!it->status().ok())
        return Status::server("Failed to scan table: " + it->status().ToString());
    return Status::ok();
}

}  // namespace

Result<PartitionMutation> read_raw_partition(const std::shared_ptr<const TableHandle>& table,
                                             const std::string& partition_key,
                                             const ClusteringBound& start,
                                             const ClusteringBound& end, bool include_static) {
    PartitionMutation m;
    m.partition_key = partition_key;
    const ClusteringInterval rows = to_interval(start, end);
    const std::string lower = header_key(partition_key);
    const std::string upper_key = partition_key + kEndMarker;
    rocksdb::Slice upper(upper_key);
    rocksdb::ReadOptions ro;
    ro.fill_cache = false;
    ro.iterate_upper_bound = &upper;
    std::unique_ptr<rocksdb::Iterator> it(table->db->NewIterator(ro, table->cf));
    // The header and the static row come first, then the rows from rows.lo.
    for (it->Seek(lower); it->Valid(); it->Next()) {
        const std::string_view suffix = view(it->key()).substr(partition_key.size());
        if (suffix.empty()) return corrupt();
        if (suffix[0] == kRowMarker) break;
        if (suffix[0] == kStaticMarker && !include_static) continue;
        TESSEL_RETURN_IF_ERROR(add_record(suffix, view(it->value()), &m));
    }
    if (!rows.empty) {
        for (it->Seek(row_key(partition_key, rows.lo)); it->Valid(); it->Next()) {
            const std::string_view suffix = view(it->key()).substr(partition_key.size());
            if (suffix.empty() || suffix[0] != kRowMarker || !rows.contains(suffix.substr(1))) {
                break;
            }
            TESSEL_RETURN_IF_ERROR(add_record(suffix, view(it->value()), &m));
        }
    }
    if (!it->status().ok()) {
        return Status::server("Failed to read partition: " + it->status().ToString());
    }
    return m;
}

Result<RawScan> scan_raw(const std::shared_ptr<const TableHandle>& table, const KeyRange& range,
                         size_t max_bytes) {
    RawScan out;
    out.exhausted = true;
    size_t bytes = 0;
    Status failed;
    TESSEL_RETURN_IF_ERROR(for_each_record(
        table, range, [&](const std::string& pk, std::string_view suffix, std::string_view value) {
            if (out.partitions.empty() || out.partitions.back().partition_key != pk) {
                if (bytes >= max_bytes) {
                    out.exhausted = false;
                    return false;
                }
                out.partitions.emplace_back();
                out.partitions.back().partition_key = pk;
            }
            bytes += suffix.size() + value.size();
            Status st = add_record(suffix, value, &out.partitions.back());
            if (!st.is_ok() && failed.is_ok()) failed = st;
            return true;
        }));
    TESSEL_RETURN_IF_ERROR(failed);
    // The partition that stopped the scan was not taken: it starts the next chunk.
    return out;
}

Result<RangeDigests> digest_ranges(const std::shared_ptr<const TableHandle>& table,
                                   const KeyRange& range,
                                   const std::vector<std::string>& boundaries) {
    RangeDigests out;
    const size_t n = boundaries.size() + 1;
    std::vector<XXH3_state_t*> states(n);
    for (auto& s : states) {
        s = XXH3_createState();
        XXH3_128bits_reset(s);
    }
    out.partitions.assign(n, 0);
    size_t part = 0;
    std::string last_pk;
    bool any = false;
    Status failed;
    auto add = [&](XXH3_state_t* s, std::string_view bytes) {
        std::string len;
        record::put_u32(&len, static_cast<uint32_t>(bytes.size()));
        XXH3_128bits_update(s, len.data(), len.size());
        XXH3_128bits_update(s, bytes.data(), bytes.size());
    };
    Status st = for_each_record(
        table, range, [&](const std::string& pk, std::string_view suffix, std::string_view value) {
            while (part + 1 < n && pk >= boundaries[part])
                ++part;
            if (!any || pk != last_pk) {
                ++out.partitions[part];
                last_pk = pk;
                any = true;
                add(states[part], pk);
            }
            add(states[part], suffix);
            std::string canonical;
            if (suffix[0] == kHeaderMarker) {
                HeaderValue h;
                if (!decode_header(value, &h)) {
                    failed = corrupt();
                    return false;
                }
                HeaderValue merged;
                merge_header(&merged, std::move(h));
                encode_header(merged, &canonical);
            } else {
                RowValue v;
                if (!decode_row(value, &v)) {
                    failed = corrupt();
                    return false;
                }
                normalize_row(&v.row);
                encode_row(0, v.row, &canonical);
            }
            add(states[part], canonical);
            return true;
        });
    for (size_t i = 0; i < n; ++i) {
        XXH128_hash_t h = XXH3_128bits_digest(states[i]);
        XXH3_freeState(states[i]);
        std::string d;
        record::put_u64(&d, h.high64);
        record::put_u64(&d, h.low64);
        out.digests.push_back(std::move(d));
    }
    TESSEL_RETURN_IF_ERROR(st);
    TESSEL_RETURN_IF_ERROR(failed);
    return out;
}

}  // namespace tessel::storage
