#include "storage/mutation_writer.h"

#include <algorithm>
#include <string>

#include "storage/counter_shards.h"
#include "storage/reconcile.h"
#include "storage/row_codec.h"

namespace tessel::storage {
namespace {

Status validate_row(const RowFragment& row) {
    for (const auto& c : row.cells) {
        if (static_cast<uint8_t>(c.kind) > static_cast<uint8_t>(Cell::Kind::kCounterShards)) {
            return Status::invalid("Invalid cell kind " + std::to_string(static_cast<int>(c.kind)) +
                                   " in mutation");
        }
        if (c.kind == Cell::Kind::kCounterDelta && c.value.size() != 8) {
            return Status::invalid("Counter delta must be an 8-byte bigint, got " +
                                   std::to_string(c.value.size()) + " bytes");
        }
        if (c.kind == Cell::Kind::kCounterShards && !valid_counter_shards(c.value)) {
            return Status::invalid("Malformed counter shards in mutation");
        }
        if (c.ttl < 0 || c.expiry < 0)
            return Status::invalid("A TTL must be greater or equal to 0");
    }
    if (row.marker.ttl < 0 || row.marker.expiry < 0) {
        return Status::invalid("A TTL must be greater or equal to 0");
    }
    return Status::ok();
}

// Already sorted by (column, path) without duplicates and with sorted,
// distinct complex deletions: the write path's normal case, encoded as is.
bool is_normal(const RowFragment& row) {
    for (size_t i = 1; i < row.cells.size(); ++i) {
        if (!cell_less(row.cells[i - 1], row.cells[i])) return false;
    }
    for (size_t i = 1; i < row.complex_deletions.size(); ++i) {
        if (row.complex_deletions[i - 1].column_id >= row.complex_deletions[i].column_id) {
            return false;
        }
    }
    return true;
}

uint64_t count_tombstones(const RowFragment& row) {
    uint64_t n = row.deletion.is_live() ? 0 : 1;
    n += row.complex_deletions.size();
    n += std::count_if(row.cells.begin(), row.cells.end(),
                       [](const Cell& c) { return c.kind == Cell::Kind::kTombstone; });
    return n;
}

void add_row(rocksdb::ColumnFamilyHandle* cf, uint32_t pk_length, const std::string& key,
             const RowFragment& row, rocksdb::WriteBatch* batch, PartitionStats* delta,
             std::string* scratch) {
    scratch->clear();
    if (is_normal(row)) {
        encode_row(pk_length, row, scratch);
    } else {
        RowFragment copy = row;
        normalize_row(&copy);
        encode_row(pk_length, copy, scratch);
    }
    batch->Merge(cf, key, *scratch);
    delta->bytes_written += key.size() + scratch->size();
    delta->row_writes += 1;
    delta->tombstones_written += count_tombstones(row);
}

}  // namespace

Status build_write_batch(rocksdb::ColumnFamilyHandle* cf, const PartitionMutation& m,
                         rocksdb::WriteBatch* batch, PartitionStats* delta) {
    if (m.partition_key.size() > kMaxPartitionKeyBytes) {
        return Status::invalid(
            "Encoded partition key of " + std::to_string(m.partition_key.size()) +
            " bytes is longer than maximum of " + std::to_string(kMaxPartitionKeyBytes));
    }
    if (m.static_row) TESSEL_RETURN_IF_ERROR(validate_row(*m.static_row));
    for (const auto& [clustering, row] : m.rows)
        TESSEL_RETURN_IF_ERROR(validate_row(row));

    const auto pk_length = static_cast<uint32_t>(m.partition_key.size());
    std::string value;
    if (!m.partition_deletion.is_live() || !m.range_tombstones.empty()) {
        HeaderValue header{pk_length, m.partition_deletion, m.range_tombstones};
        merge_header(&header, HeaderValue{});  // drop superseded / duplicate tombstones
        encode_header(header, &value);
        const std::string key = header_key(m.partition_key);
        batch->Merge(cf, key, value);
        delta->bytes_written += key.size() + value.size();
        delta->tombstones_written +=
            (m.partition_deletion.is_live() ? 0 : 1) + m.range_tombstones.size();
    }
    if (m.static_row) {
        add_row(cf, pk_length, static_key(m.partition_key), *m.static_row, batch, delta, &value);
    }
    for (const auto& [clustering, row] : m.rows) {
        add_row(cf, pk_length, row_key(m.partition_key, clustering), row, batch, delta, &value);
    }
    return Status::ok();
}

}  // namespace tessel::storage
