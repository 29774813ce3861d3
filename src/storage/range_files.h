// A table's key range as RocksDB SST files: how a tablet replica moves
// between nodes. The source writes the range's records (rows, static rows,
// partition headers: tombstones and TTLs as stored) and the partitions'
// statistics into files; the target ingests them into its own families
// without a write path, a WAL or a memtable.
//
// Every record goes in as a merge operand (table records and statistics are
// both merged, never overwritten), so ingesting into a replica that already
// holds some of the range (writes sent to both replicas while the files were
// made and copied) loses nothing: each cell is reconciled by its timestamp
// as any two writes are. Statistics of a partition written to both replicas
// during the copy count those writes twice; they are estimates.
//
// Once the target serves the range, the source drops it (Store::delete_range:
// RocksDB DeleteRange over the records and the statistics, then a compaction
// of the range to free its space).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tessel::storage {

struct RangeFiles {
    std::vector<std::string> table_files;  // for the table's family
    std::vector<std::string> stats_files;  // for the partition_stats family
    uint64_t records = 0;                  // table records written
    uint64_t bytes = 0;                    // size of every file
};

// Bounds of a range of a table: the records whose keys lie in [start, end),
// an empty end meaning the table's last key. Keys start with the partition
// key, so with tablet boundaries (token prefixes, partition key prefixes)
// these are the tablet's partitions.
struct RecordRange {
    std::string start;
    std::string end;
};

}  // namespace tessel::storage
