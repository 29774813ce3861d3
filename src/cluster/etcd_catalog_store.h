// EtcdCatalogStore: the catalog of a cluster, held in etcd and cached in the
// node's own catalog family.
//
// A DDL statement is one etcd transaction: it compares the schema version
// this node last applied with the one in etcd and writes the statement's
// records (and, through the extra-ops hook, the tablet maps of the tables it
// creates or drops) only if they are equal. When another node's DDL won the
// race, write() fails with Invalid (see is_stale_schema()): the caller
// refreshes the catalog from etcd and runs the statement again against the
// new schema, so two conflicting statements never split the catalog: one
// applies, the other fails with the error the new schema gives it (Already
// exists, unconfigured table, ...).
//
// Reads (list/get, what Catalog::load uses) read etcd at a pinned revision
// when one is set, so a reload sees one consistent schema; every successful
// write and every reload is also written to the local cache, which a node
// restarting while etcd is down starts from.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cluster/etcd_client.h"
#include "schema/catalog_store.h"

namespace tessel::cluster {

class EtcdCatalogStore final : public CatalogStore {
  public:
    // Operations to add to a DDL's transaction (the tablet maps of created
    // and dropped tables), from the batch the catalog writes.
    using ExtraOps = std::function<Result<std::vector<TxnOp>>(const CatalogBatch& batch)>;

    // `cache` (the local catalog family, same keys) must outlive the store.
    EtcdCatalogStore(EtcdClient etcd, std::string prefix, CatalogStore* cache);

    void set_extra_ops(ExtraOps extra) { extra_ = std::move(extra); }
    // Reads list/get at `revision` (0: the latest).
    void pin_revision(int64_t revision) { revision_ = revision; }
    // The schema version this node has applied (compared by the next write).
    void set_applied_version(std::string version);
    // The etcd revision of this node's last successful write.
    int64_t last_write_revision() const { return last_write_revision_; }

    // True for the Status write() returns when another node changed the
    // schema first.
    static bool is_stale_schema(const Status& status);

    // Copies every schema record of etcd (at the pinned revision) into the
    // cache, removing cached records etcd no longer has.
    Status refresh_cache();

    Status put(const std::string& key, const std::string& value) override;
    Result<std::optional<std::string>> get(const std::string& key) override;
    Status remove(const std::string& key) override;
    Result<std::vector<std::pair<std::string, std::string>>> list(
        const std::string& prefix) override;
    Status write(const CatalogBatch& batch) override;

  private:
    EtcdClient etcd_;
    std::string prefix_;  // ".../schema/"
    CatalogStore* cache_;
    ExtraOps extra_;
    int64_t revision_ = 0;
    std::string applied_version_;
    int64_t last_write_revision_ = 0;
};

}  // namespace tessel::cluster
