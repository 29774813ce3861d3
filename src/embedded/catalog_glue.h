// The catalog's persistence in the store's catalog family, and the few
// catalog operations the embedded database needs.
#pragma once

#include <memory>
#include <string>

#include "common/status.h"

namespace tessel {
class Catalog;
class CatalogStore;
namespace storage {
class Store;
}
}  // namespace tessel

namespace tessel::embedded {

// A CatalogStore over the store's catalog family, its keys under `prefix`
// ("schema/" for the schema, "auth/" for roles and permissions, "tablets/"
// for the tablet maps).
std::shared_ptr<CatalogStore> make_store_catalog(storage::Store* store,
                                                 std::string prefix = "schema/");

// A catalog loaded from `catalog_store` (which must outlive it). Fails when
// any stored definition cannot be read.
Result<std::shared_ptr<Catalog>> load_catalog(CatalogStore* catalog_store);

// The current schema version (16-byte UUID).
std::string catalog_version(const Catalog& catalog);

}  // namespace tessel::embedded
