// A table's open column family, shared by the store and by the readers and
// scanners reading it, so dropping or truncating the table never invalidates
// a handle a reader still uses (RocksDB keeps a dropped family's data
// readable until its last handle is released).
#pragma once

#include <memory>
#include <string>

#include <rocksdb/db.h>

#include "storage/compaction_filter.h"

namespace tessel::storage {

struct TableHandle {
    TableHandle(rocksdb::DB* db_, rocksdb::ColumnFamilyHandle* cf_,
                std::shared_ptr<TableGcSettings> gc_)
        : db(db_), cf(cf_), gc(std::move(gc_)) {}
    ~TableHandle() { db->DestroyColumnFamilyHandle(cf); }
    TableHandle(const TableHandle&) = delete;
    TableHandle& operator=(const TableHandle&) = delete;

    rocksdb::DB* const db;
    rocksdb::ColumnFamilyHandle* const cf;
    const std::shared_ptr<TableGcSettings> gc;
};

}  // namespace tessel::storage
