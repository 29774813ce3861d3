// ClusterNode: what makes the embedded database one node of a cluster, when
// DatabaseOptions::cluster names etcd endpoints.
//
// It joins through the control plane (membership under a lease, tokens),
// serves this node's replicas to the others (internode messaging, replica
// service), coordinates replication (storage proxy, hints), holds the catalog
// and the tablet maps in etcd, and applies what other nodes change there:
// a schema change reloads the catalog, creates or drops this node's storage
// and tells this node's clients (SCHEMA_CHANGE); a tablet map change reaches
// the tablet router. docs/architecture.md, "Cluster", tells the whole story.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <asio.hpp>

#include "cluster/balancer_service.h"
#include "cluster/control_plane.h"
#include "cluster/etcd_catalog_store.h"
#include "cluster/etcd_prefix_store.h"
#include "cluster/hints.h"
#include "cluster/membership.h"
#include "cluster/messaging_service.h"
#include "cluster/migration.h"
#include "cluster/migration_messages.h"
#include "cluster/replica_service.h"
#include "cluster/storage_proxy.h"
#include "cluster/streaming.h"
#include "common/io_executor.h"
#include "query/tablet_router.h"
#include "tessel/database.h"

namespace tessel {
class Catalog;
struct Schema;
namespace storage {
class Store;
}
}  // namespace tessel

namespace tessel::embedded {

class ClusterNode {
  public:
    // Joins the cluster and starts serving this node's replicas. `store` and
    // `local_catalog` (the catalog family: the cache of the cluster's
    // catalog) must outlive the node.
    static Result<std::unique_ptr<ClusterNode>> start(const DatabaseOptions& options,
                                                      storage::Store* store,
                                                      const std::string& host_id,
                                                      CatalogStore* local_catalog);
    ~ClusterNode();

    // Loads the cluster's catalog into `catalog` (a new cluster is seeded
    // with this node's own schema) and makes DDL go through etcd.
    Status load_catalog(Catalog* catalog);
    // The paging-state key every node of the cluster shares.
    Result<std::string> paging_secret() { return control_->cluster_secret(); }
    // Router options for a cluster: maps in etcd, placed on the ring, each
    // tablet served by its replica set. `catalog` and `local` must outlive
    // the router.
    void configure_router(query::TabletRouterOptions* o, const Catalog* catalog,
                          cluster::Replica* local);
    // Where the router keeps its maps (etcd).
    CatalogStore* tablet_maps() { return tablet_maps_.get(); }
    // Starts applying other nodes' changes: maps to `router`, schema changes
    // to `catalog` (then `on_schema(before)` with the previous snapshot, on
    // the watch's thread). Every pointer must outlive the node.
    void watch(Catalog* catalog, query::TabletRouter* router, cluster::Replica* local,
               std::function<void(std::shared_ptr<const Schema> before)> on_schema);
    // Reports this node's schema version to the others (system.peers).
    void report_schema(const std::string& version);
    // The same when the catalog's version is not the one last reported (this
    // node's own DDL, which its watch skips; checked again periodically).
    void report_schema_if_changed();
    // Reloads the catalog from etcd now (a DDL lost a race to another node's).
    Status refresh_catalog();

    cluster::Membership& membership() { return membership_; }
    cluster::StorageProxy& proxy() { return *proxy_; }
    const cluster::NodeInfo& self() const { return control_->self(); }
    // Where DDL runs: etcd calls block, never on an event loop.
    Executor* control_executor() { return &control_executor_; }

    void set_event_listener(std::function<void(const ClusterEvent&)> listener);

    // --- Joining and leaving (cluster_lifecycle.cpp) ---
    // CALL system.decommission(): this node turns LEAVING, waits until the
    // balancer moved every tablet replica it holds to the others, then
    // leaves the cluster (ClusterEvent::kDecommissioned). Refused when the
    // other nodes cannot hold every keyspace's replication factor. At the
    // deadline it stays LEAVING and says so; calling again waits on.
    Status decommission(std::chrono::steady_clock::time_point deadline);
    // CALL system.removenode('host id'): a dead node leaves the cluster;
    // waits until its replicas are rebuilt from the survivors.
    Status removenode(const std::string& host_id, std::chrono::steady_clock::time_point deadline);
    bool decommissioned() const { return decommissioned_; }
    // Runs a decommission or removenode on a thread of the node's own (the
    // node waits for it when it stops).
    Task<Status> run_lifecycle(std::function<Status()> work);
    // The tablet balancer (this node may lead it) and what it did.
    cluster::BalancerStats balancer_stats() const {
        return balancer_ ? balancer_->stats() : cluster::BalancerStats{};
    }

  private:
    ClusterNode(const DatabaseOptions& options, storage::Store* store);
    // The tablet maps of created and dropped tables, in the DDL's transaction.
    Result<std::vector<cluster::TxnOp>> tablet_ops(const CatalogBatch& batch);
    Result<cluster::Replication> replication_of_table(const std::string& table_id) const;
    Status apply_schema(int64_t revision);
    // JOINING -> NORMAL once the node serves (its watch is running).
    void become_normal();
    // The tablet replicas `host` holds or receives, from the maps in etcd.
    Result<size_t> replicas_held_by(const std::string& host) const;
    Status check_remaining_nodes_hold_rf() const;

    // --- tablet migration (cluster_migration.cpp) ---
    Status register_migration_handlers();
    // Creates the migration driver and starts the balancer service.
    void start_balancer();
    // The watch has delivered every change up to `revision`.
    void note_revision(int64_t revision);
    // This node installed the table's map of `revision` and finished the
    // requests routed by older ones / every live node did.
    Status local_barrier(const std::string& table_id, int64_t revision,
                         std::chrono::steady_clock::time_point deadline);
    Status cluster_barrier(const std::string& table_id, int64_t revision);
    // What this node measured of its tablets / every live node's report.
    cluster::TabletLoadReport local_load();
    std::vector<cluster::TabletLoadReport> gather_load();
    // Runs blocking work for a handler off the messaging threads.
    Task<Result<std::string>> on_blocking(std::function<Result<std::string>()> work);
    // Every 2 s: replays hints to nodes that are up, reports a schema
    // version not reported yet.
    void periodic_loop();

    DatabaseOptions options_;
    storage::Store* store_;
    cluster::Membership membership_;
    std::unique_ptr<cluster::ControlPlane> control_;
    std::unique_ptr<cluster::MessagingService> messaging_;
    std::unique_ptr<cluster::ReplicaService> replicas_;
    std::unique_ptr<cluster::HintStore> hints_;
    std::unique_ptr<cluster::StorageProxy> proxy_;
    std::unique_ptr<cluster::StreamingService> streaming_;
    std::unique_ptr<cluster::EtcdCatalogStore> catalog_store_;
    std::unique_ptr<cluster::EtcdPrefixStore> tablet_maps_;
    asio::io_context control_io_;
    IoExecutor control_executor_{control_io_};
    std::optional<asio::executor_work_guard<asio::io_context::executor_type>> control_work_;
    std::thread control_thread_;
    Catalog* catalog_ = nullptr;
    query::TabletRouter* router_ = nullptr;
    cluster::Replica* local_ = nullptr;
    std::function<void(std::shared_ptr<const Schema>)> on_schema_;
    std::mutex schema_mu_;  // one schema reload at a time
    std::mutex report_mu_;
    std::string reported_version_;
    std::atomic<bool> watching_{false};  // catalog_ set, schema changes followed
    std::function<void(const ClusterEvent&)> event_listener_;
    std::atomic<bool> stopping_{false};
    std::atomic<bool> decommissioned_{false};
    asio::thread_pool lifecycle_pool_{1};
    std::mutex hints_mu_;
    std::condition_variable hints_cv_;
    std::thread hints_thread_;

    // Tablet migration.
    std::mutex revision_mu_;
    std::condition_variable revision_cv_;
    int64_t applied_revision_ = 0;  // guarded by revision_mu_
    asio::thread_pool migration_pool_{2};
    std::unique_ptr<cluster::MigrationDriver> migrations_;
    std::unique_ptr<cluster::BalancerService> balancer_;
};

}  // namespace tessel::embedded
