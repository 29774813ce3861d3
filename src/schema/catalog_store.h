// CatalogStore: where the catalog persists its definitions.
//
// The storage module backs it with the RocksDB catalog column family; tests
// use an in-memory map. Keys are plain strings ("ks/<name>",
// "table/<ks>/<name>", "type/<ks>/<name>", "schema_version"); values are opaque
// bytes written by schema/codec.h. Implementations must be safe to call from
// the one thread that runs DDL at a time; the catalog never calls them
// concurrently.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"

namespace tessel {

// A group of writes that one DDL statement makes (drop keyspace removes the
// keyspace, its tables and its types together).
struct CatalogBatch {
    struct Op {
        std::string key;
        std::optional<std::string> value;  // nullopt: remove the key
    };
    std::vector<Op> ops;

    void put(std::string key, std::string value) {
        ops.push_back({std::move(key), std::move(value)});
    }
    void remove(std::string key) { ops.push_back({std::move(key), std::nullopt}); }
};

class CatalogStore {
  public:
    virtual ~CatalogStore() = default;

    // Errors are Server_error with the underlying cause in the message.
    virtual Status put(const std::string& key, const std::string& value) = 0;
    // nullopt when the key is absent.
    virtual Result<std::optional<std::string>> get(const std::string& key) = 0;
    // Removing an absent key is not an error.
    virtual Status remove(const std::string& key) = 0;
    // Every entry whose key starts with `prefix`, in key order.
    virtual Result<std::vector<std::pair<std::string, std::string>>> list(
        const std::string& prefix) = 0;

    // Applies all ops of `batch`, in order. The default applies them one by one;
    // a store that can (RocksDB's WriteBatch) should override this to make the
    // batch atomic, so that a crash never leaves half a DDL on disk.
    virtual Status write(const CatalogBatch& batch) {
        for (const auto& op : batch.ops) {
            Status s = op.value ? put(op.key, *op.value) : remove(op.key);
            if (!s.is_ok()) return s;
        }
        return Status::ok();
    }
};

}  // namespace tessel
