// EtcdPrefixStore: a CatalogStore over the keys of one etcd prefix (the
// tablet maps of a cluster). A batch is one transaction. Calls block.
#pragma once

#include <string>

#include "cluster/etcd_client.h"
#include "schema/catalog_store.h"

namespace tessel::cluster {

class EtcdPrefixStore final : public CatalogStore {
  public:
    EtcdPrefixStore(EtcdClient etcd, std::string prefix)
        : etcd_(std::move(etcd)), prefix_(std::move(prefix)) {}

    Status put(const std::string& key, const std::string& value) override {
        auto r = etcd_.put(prefix_ + key, value);
        return r.is_ok() ? Status::ok() : r.status();
    }
    Result<std::optional<std::string>> get(const std::string& key) override {
        TESSEL_ASSIGN_OR_RETURN(auto r, etcd_.get(prefix_ + key));
        if (r.kvs.empty()) return std::optional<std::string>();
        return std::optional<std::string>(std::move(r.kvs[0].value));
    }
    Status remove(const std::string& key) override {
        auto r = etcd_.erase(prefix_ + key);
        return r.is_ok() ? Status::ok() : r.status();
    }
    Result<std::vector<std::pair<std::string, std::string>>> list(
        const std::string& prefix) override {
        TESSEL_ASSIGN_OR_RETURN(auto r, etcd_.get_prefix(prefix_ + prefix));
        std::vector<std::pair<std::string, std::string>> out;
        for (auto& kv : r.kvs)
            out.emplace_back(kv.key.substr(prefix_.size()), std::move(kv.value));
        return out;
    }
    Status write(const CatalogBatch& batch) override {
        std::vector<TxnOp> ops;
        for (const auto& op : batch.ops) {
            ops.push_back(op.value ? TxnOp::put(prefix_ + op.key, *op.value)
                                   : TxnOp::erase(prefix_ + op.key));
        }
        auto r = etcd_.txn({}, ops, {});
        return r.is_ok() ? Status::ok() : r.status();
    }

  private:
    EtcdClient etcd_;
    std::string prefix_;
};

}  // namespace tessel::cluster
