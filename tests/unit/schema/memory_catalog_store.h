// An in-memory CatalogStore for tests, with a switch that makes writes fail.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "schema/catalog_store.h"

namespace tessel::testing {

class MemoryCatalogStore : public CatalogStore {
  public:
    Status put(const std::string& key, const std::string& value) override {
        if (fail_writes) return Status::server("disk full");
        data[key] = value;
        return Status::ok();
    }
    Result<std::optional<std::string>> get(const std::string& key) override {
        auto it = data.find(key);
        if (it == data.end()) return std::optional<std::string>();
        return std::optional<std::string>(it->second);
    }
    Status remove(const std::string& key) override {
        if (fail_writes) return Status::server("disk full");
        data.erase(key);
        return Status::ok();
    }
    Result<std::vector<std::pair<std::string, std::string>>> list(
        const std::string& prefix) override {
        std::vector<std::pair<std::string, std::string>> out;
        for (auto it = data.lower_bound(prefix); it != data.end() && it->first.starts_with(prefix);
             ++it) {
            out.emplace_back(it->first, it->second);
        }
        return out;
    }

    std::map<std::string, std::string> data;
    bool fail_writes = false;
};

}  // namespace tessel::testing
