// The RocksDB merge operator of table column families: writes are merge
// operands (never read-before-write) and this operator folds them with the
// rules in reconcile.h, for headers and rows alike (the record type is in
// the value, see row_codec.h).
#pragma once

#include <memory>

#include <rocksdb/merge_operator.h>

namespace tessel::storage {

std::shared_ptr<rocksdb::MergeOperator> make_table_merge_operator();

}  // namespace tessel::storage
