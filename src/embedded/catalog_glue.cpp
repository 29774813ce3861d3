#include "embedded/catalog_glue.h"

#include "schema/catalog.h"
#include "storage/store.h"

namespace tessel::embedded {
namespace {

class StoreCatalog final : public CatalogStore {
  public:
    StoreCatalog(storage::Store* store, std::string prefix)
        : store_(store), prefix_(std::move(prefix)) {}

    Status put(const std::string& key, const std::string& value) override {
        return store_->put_meta(prefix_ + key, value);
    }
    Result<std::optional<std::string>> get(const std::string& key) override {
        return store_->get_meta(prefix_ + key);
    }
    Status remove(const std::string& key) override { return store_->delete_meta(prefix_ + key); }
    // One DDL is one atomic write, so a crash never leaves half of it.
    Status write(const CatalogBatch& batch) override {
        std::vector<std::pair<std::string, std::optional<std::string>>> ops;
        ops.reserve(batch.ops.size());
        for (const auto& op : batch.ops)
            ops.emplace_back(prefix_ + op.key, op.value);
        return store_->write_meta(ops);
    }
    Result<std::vector<std::pair<std::string, std::string>>> list(
        const std::string& prefix) override {
        TESSEL_ASSIGN_OR_RETURN(auto entries, store_->list_meta(prefix_ + prefix));
        const size_t n = prefix_.size();
        for (auto& [k, _] : entries)
            k = k.substr(n);
        return entries;
    }

  private:
    storage::Store* store_;
    std::string prefix_;
};

}  // namespace

std::shared_ptr<CatalogStore> make_store_catalog(storage::Store* store, std::string prefix) {
    return std::make_shared<StoreCatalog>(store, std::move(prefix));
}

Result<std::shared_ptr<Catalog>> load_catalog(CatalogStore* catalog_store) {
    auto catalog = std::make_shared<Catalog>();
    Status st = catalog->load(*catalog_store);
    if (!st.is_ok()) return st;
    return catalog;
}

std::string catalog_version(const Catalog& catalog) {
    return catalog.version().raw();
}

}  // namespace tessel::embedded
