#include "embedded/catalog_glue.h"

#include "schema/catalog.h"
#include "storage/store.h"

namespace tessel::embedded {
namespace {

constexpr const char* kPrefix = "schema/";

class StoreCatalog final : public CatalogStore {
  public:
    explicit StoreCatalog(storage::Store* store) : store_(store) {}

    Status put(const std::string& key, const std::string& value) override {
        return store_->put_meta(kPrefix + key, value);
    }
    Result<std::optional<std::string>> get(const std::string& key) override {
        return store_->get_meta(kPrefix + key);
    }
    Status remove(const std::string& key) override { return store_->delete_meta(kPrefix + key); }
    Result<std::vector<std::pair<std::string, std::string>>> list(
        const std::string& prefix) override {
        TESSEL_ASSIGN_OR_RETURN(auto entries, store_->list_meta(kPrefix + prefix));
        const size_t n = std::string(kPrefix).size();
        for (auto& [k, _] : entries)
            k = k.substr(n);
        return entries;
    }

  private:
    storage::Store* store_;
};

}  // namespace

std::shared_ptr<CatalogStore> make_store_catalog(storage::Store* store) {
    return std::make_shared<StoreCatalog>(store);
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
