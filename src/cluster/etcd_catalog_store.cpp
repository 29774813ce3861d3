#include "cluster/etcd_catalog_store.h"

#include "schema/catalog.h"

namespace tessel::cluster {
namespace {

constexpr const char* kStaleSchema = "stale schema";

}  // namespace

EtcdCatalogStore::EtcdCatalogStore(EtcdClient etcd, std::string prefix, CatalogStore* cache)
    : etcd_(std::move(etcd)), prefix_(std::move(prefix)), cache_(cache) {}

void EtcdCatalogStore::set_applied_version(std::string version) {
    applied_version_ = std::move(version);
}

bool EtcdCatalogStore::is_stale_schema(const Status& status) {
    return !status.is_ok() && status.detail2 == kStaleSchema;
}

Status EtcdCatalogStore::put(const std::string& key, const std::string& value) {
    CatalogBatch b;
    b.put(key, value);
    return write(b);
}

Status EtcdCatalogStore::remove(const std::string& key) {
    CatalogBatch b;
    b.remove(key);
    return write(b);
}

Result<std::optional<std::string>> EtcdCatalogStore::get(const std::string& key) {
    TESSEL_ASSIGN_OR_RETURN(auto r, etcd_.get_prefix(prefix_ + key, revision_));
    for (auto& kv : r.kvs) {
        if (kv.key == prefix_ + key) return std::optional<std::string>(std::move(kv.value));
    }
    return std::optional<std::string>();
}

Result<std::vector<std::pair<std::string, std::string>>> EtcdCatalogStore::list(
    const std::string& prefix) {
    TESSEL_ASSIGN_OR_RETURN(auto r, etcd_.get_prefix(prefix_ + prefix, revision_));
    std::vector<std::pair<std::string, std::string>> out;
    for (auto& kv : r.kvs)
        out.emplace_back(kv.key.substr(prefix_.size()), std::move(kv.value));
    return out;
}

Status EtcdCatalogStore::write(const CatalogBatch& batch) {
    std::vector<TxnOp> ops;
    for (const auto& op : batch.ops) {
        ops.push_back(op.value ? TxnOp::put(prefix_ + op.key, *op.value)
                               : TxnOp::erase(prefix_ + op.key));
    }
    if (extra_) {
        TESSEL_ASSIGN_OR_RETURN(auto more, extra_(batch));
        for (auto& op : more)
            ops.push_back(std::move(op));
    }
    const std::string version_key = prefix_ + Catalog::kVersionKey;
    // The version this node built the statement on must still be etcd's.
    std::vector<Compare> compares{
        applied_version_.empty()
            ? Compare::absent(version_key)
            : Compare::value_is(version_key, Compare::Op::kEqual, applied_version_)};
    auto txn = etcd_.txn(compares, ops, {});
    if (!txn.is_ok()) {
        return Status::server(
            "Schema change not applied: the cluster's schema store (etcd) "
            "cannot be reached: " +
            txn.status().message());
    }
    if (!txn->succeeded) {
        Status st = Status::invalid(
            "The schema was changed concurrently on another node; the statement was not applied");
        st.detail2 = kStaleSchema;
        return st;
    }
    last_write_revision_ = txn->revision;
    for (const auto& op : batch.ops) {
        if (op.key == Catalog::kVersionKey && op.value) applied_version_ = *op.value;
    }
    // The local cache follows; etcd has it already, so a failure here only
    // means a restart without etcd would start from an older schema.
    return cache_->write(batch);
}

Status EtcdCatalogStore::refresh_cache() {
    TESSEL_ASSIGN_OR_RETURN(auto theirs, list(""));
    TESSEL_ASSIGN_OR_RETURN(auto ours, cache_->list(""));
    CatalogBatch b;
    std::map<std::string, std::string> want(theirs.begin(), theirs.end());
    for (const auto& [k, _] : ours) {
        if (!want.count(k)) b.remove(k);
    }
    for (auto& [k, v] : want)
        b.put(k, v);
    return cache_->write(b);
}

}  // namespace tessel::cluster
