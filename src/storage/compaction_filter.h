// The compaction filter of table column families: purges expired cells and
// tombstones past gc grace, and data shadowed by its partition's tombstones.
//
// The filter sees fully merged values (kValue) and merge operands. Operands
// may sit above older versions of the key that the compaction does not read,
// so only changes that are right whatever those hold apply to them:
// - an expired cell becomes a tombstone whose local deletion time is its
//   expiry (as in Cassandra, so it keeps shadowing older versions);
// - rows of a partition whose header (key marker 0x00, which sorts first)
//   was seen earlier in the same compaction lose the data its partition
//   deletion or range tombstones shadow (header deletions only grow, so any
//   version of the header may be used);
// - a record left with nothing is removed (RocksDB turns the removal of a
//   value into a delete marker, so older versions below stay hidden).
// Only on merged values (a key's operands resolve into a value when a
// compaction reaches its oldest version, so this may take one more
// compaction): cell tombstones, row and complex deletions whose local
// deletion time < now - gc_grace, and markers that expired before that, are
// dropped.
//
// Partition deletions and range tombstones are never purged. They shadow
// rows stored under other keys, which may sit in files this compaction does
// not read, or arrive later with older timestamps; dropping the header could
// resurrect them. The cost is one small header record per deleted partition
// (or per partition with range deletions) that lives until the table is
// truncated or dropped.
#pragma once

#include <atomic>
#include <memory>

#include <rocksdb/compaction_filter.h>

#include "storage/storage_options.h"

namespace tessel::storage {

// Settings shared between a table and its filter factory; updated in place
// by Store::set_table_options.
struct TableGcSettings {
    // Until the table's persisted options are loaded nothing is purged.
    std::atomic<int32_t> gc_grace_seconds{INT32_MAX};
    Clock clock;
};

std::shared_ptr<rocksdb::CompactionFilterFactory> make_table_compaction_filter_factory(
    std::shared_ptr<TableGcSettings> settings);

}  // namespace tessel::storage
