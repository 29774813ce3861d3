#include "embedded/open_checks.h"

#include <filesystem>

#include "schema/catalog.h"
#include "schema/catalog_store.h"
#include "storage/store.h"

namespace tessel::embedded {

Status check_storage_present(const std::string& data_dir, const std::string& store_dir) {
    std::error_code ec;
    if (!std::filesystem::exists(data_dir + "/host_id", ec)) return Status::ok();  // a new node
    if (std::filesystem::exists(store_dir + "/CURRENT", ec)) return Status::ok();
    return Status::server("Cannot open the database in " + data_dir +
                          ": this node was started before (it has a host_id) but its storage " +
                          store_dir +
                          " is missing or incomplete (no CURRENT file); refusing to start "
                          "with an empty database. Restore the storage directory, or remove "
                          "host_id to start a new, empty node on purpose");
}

Status check_catalog_present(const std::string& data_dir, CatalogStore& catalog_store,
                             const storage::Store& store) {
    auto tables = store.list_tables();
    if (tables.empty()) return Status::ok();
    TESSEL_ASSIGN_OR_RETURN(auto version, catalog_store.get(Catalog::kVersionKey));
    if (version) return Status::ok();
    return Status::server("Cannot open the database in " + data_dir + ": the storage holds " +
                          std::to_string(tables.size()) +
                          " table(s) but the schema catalog is missing (no schema_version "
                          "record); refusing to start with an empty schema");
}

}  // namespace tessel::embedded
