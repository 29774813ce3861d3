// Checks Database::open makes before serving anything, so that a node whose
// storage or schema catalog went missing refuses to start instead of
// silently starting empty (and then writing a fresh, empty database over
// the place where its data was).
#pragma once

#include <string>

#include "common/status.h"

namespace tessel {
class CatalogStore;
}
namespace tessel::storage {
class Store;
}

namespace tessel::embedded {

// Before opening storage: a data directory that already has a host id was
// opened before, so its storage directory must exist and hold a database
// (RocksDB's CURRENT file); otherwise opening would create an empty one.
Status check_storage_present(const std::string& data_dir, const std::string& store_dir);

// After opening storage: table families without any catalog record (not
// even the schema version every DDL writes) mean the catalog was lost.
Status check_catalog_present(const std::string& data_dir, CatalogStore& catalog_store,
                             const storage::Store& store);

}  // namespace tessel::embedded
