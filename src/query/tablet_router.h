// TabletRouter: the coordinator's routing table. Every table is cut into
// tablets (partition/tablet_map.h); each write, partition read and scan of a
// stored table goes through the router, which finds the tablet of the
// physical partition key, counts the request in that tablet's load
// (diagnostics::TabletLoad) and forwards it to the replica of the tablet's
// shard. On one node every shard is the same local replica, so the router is
// a Replica wrapping the local one; a cluster gives each tablet its own
// replica set behind the same seam.
//
// - Scans walk the tablets in key order, each tablet's part of the range
//   read from its replica, so a full scan is a concatenation of tablet scans.
// - Maps are published as immutable snapshots; each thread caches the one it
//   last used and a request only reads a version counter to check it;
//   create/drop/truncate and split/merge rounds are serialised by a mutex and
//   never block requests. A request routed by a map that a split replaces
//   meanwhile stays correct: tablets only relabel ranges of one storage.
// - Persistence: each map is stored under the table's storage name in a
//   CatalogStore (the catalog family, keys "tablets/<table id>"), rewritten on
//   every change, loaded by load(), removed on DROP and reset on TRUNCATE.
// - evaluate() runs one split/merge round (partition/tablet_policy.h) over
//   every table: sizes from the replica's partition statistics, rates from
//   the tablets' loads. The embedded database calls it from a timer.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "diagnostics/clock.h"
#include "diagnostics/tablet_load.h"
#include "partition/tablet_map.h"
#include "partition/tablet_policy.h"
#include "query/table_source.h"

namespace tessel {
class Catalog;
class CatalogStore;
}  // namespace tessel

namespace tessel::query {

struct TabletRouterOptions {
    int initial_hash_tablets = 4;  // tablets of a new hash table (its merge floor too)
    int shards = 1;                // local shards tablets are assigned to
    TabletThresholds thresholds;
    diagnostics::TabletLoadOptions load;
    diagnostics::Clock clock = diagnostics::now_ms;
    // On a cluster: the first map of a new table (placed on the ring), and
    // the replica set serving a tablet (its requests go there instead of to
    // the local replica). Unset on a single node.
    std::function<TabletMap(const std::string& table_id, bool hashed)> first_map;
    std::function<std::shared_ptr<Replica>(const std::string& table_id, const Tablet& tablet)>
        replica_set;
    // On a cluster the maps are shared (etcd) and written by DDL itself:
    // creating, truncating or dropping a table changes only this router's
    // copy, and load() stores only the maps it had to create.
    bool shared_maps = false;
};

// One table's tablets as routed now: the map and each tablet's load.
struct TableTablets {
    TabletMap map;
    std::vector<std::shared_ptr<diagnostics::TabletLoad>> loads;  // one per tablet
    // One per tablet on a cluster (options.replica_set); empty on one node.
    std::vector<std::shared_ptr<Replica>> replicas;
};

// What system.tablets shows of one tablet.
struct TabletReport {
    size_t index = 0;
    Tablet tablet;
    std::optional<std::string> end;  // exclusive; nullopt for the last tablet
    uint64_t size_bytes = 0;
    uint64_t rows = 0;
    diagnostics::TabletRates rates;
};

class TabletRouter final : public Replica {
  public:
    // `inner`, `catalog` and `store` must outlive the router; `store` may be
    // null (maps then live in memory only).
    TabletRouter(Replica* inner, const Catalog* catalog, CatalogStore* store,
                 TabletRouterOptions options);
    ~TabletRouter() override;

    // Loads the stored maps of the catalog's tables and gives a first map to
    // every table that has none. Fails on an unreadable map.
    Status load();

    // The ids of the tables routed now.
    std::vector<std::string> table_ids() const;
    // The table's current tablets (nullptr for an unknown table).
    std::shared_ptr<const TableTablets> tablets(const std::string& table_id) const;

    // Measures every tablet of the table (sizes from partition statistics,
    // rates now).
    Result<std::vector<TabletReport>> describe(const std::string& table_id);

    // One split/merge round over every table; returns the number of changes.
    Result<size_t> evaluate();

    // On a cluster: a map written by another node (nullopt: removed), as
    // the control plane's watch delivers it; installed, not stored again.
    Status apply_remote(const std::string& table_id, const std::optional<std::string>& encoded);
    // Builds every tablet's replica set again (the keyspaces' replication
    // may have changed).
    void refresh_replicas();
    // A migration's barrier, after a new map of `table_id` is installed:
    // waits until no request routed by an older map of the table is in
    // flight (Replica::requests_in_flight of the replica sets it replaced),
    // polling. False at `deadline`. Blocks: never call it on an event loop.
    bool drain(const std::string& table_id, std::chrono::steady_clock::time_point deadline);

    // Replica: routed through the tablets.
    Task<Status> apply(const std::string& table_id, const storage::PartitionMutation& m,
                       const RequestOptions& options) override;
    Task<Result<std::unique_ptr<PartitionStream>>> read(const std::string& table_id,
                                                        const std::string& partition_key,
                                                        const SliceSpec& slice, int64_t now_seconds,
                                                        const RequestOptions& options) override;
    Task<Result<std::unique_ptr<PartitionCursor>>> scan(const std::string& table_id,
                                                        const KeyRange& range, int64_t now_seconds,
                                                        const RequestOptions& options) override;
    Task<Result<bool>> cas(const std::string& table_id, const std::string& partition_key,
                           const RequestOptions& options, cluster::CasDecider decide) override;
    Status create_table(const std::string& table_id, int32_t gc_grace_seconds) override;
    Status drop_table(const std::string& table_id) override;
    Status truncate_table(const std::string& table_id) override;
    Status set_gc_grace(const std::string& table_id, int32_t gc_grace_seconds) override {
        return inner_->set_gc_grace(table_id, gc_grace_seconds);
    }
    bool has_table(const std::string& table_id) const override {
        return inner_->has_table(table_id);
    }
    Status flush() override { return inner_->flush(); }
    int64_t now_seconds() const override { return inner_->now_seconds(); }
    Status for_each_partition_stats(const std::string& table_id,
                                    const PartitionStatsFn& fn) override {
        return inner_->for_each_partition_stats(table_id, fn);
    }

    // The replica serving tablet `i` of `t`: its replica set on a cluster,
    // else the local replica.
    Replica* replica_for(const TableTablets& t, size_t i) const;

  private:
    using Tables = std::unordered_map<std::string, std::shared_ptr<const TableTablets>>;

    std::shared_ptr<const TableTablets> make_tablets(const std::string& table_id, TabletMap map,
                                                     const TableTablets* previous);
    TabletMap first_map(const std::string& table_id, bool hashed) const;
    // Requires mu_. Stores `map` (when a store is attached) and publishes it.
    Status install(const std::string& table_id, TabletMap map, const TableTablets* previous);
    Status uninstall(const std::string& table_id);
    // Requires mu_. Sizes (and, for ordered maps, median keys) per tablet.
    Result<std::vector<TabletObservation>> observe(const std::string& table_id,
                                                   const TableTablets& t);
    std::optional<bool> catalog_hashed(const std::string& table_id) const;
    Task<Status> apply_to(std::shared_ptr<Replica> replicas, const std::string& table_id,
                          const storage::PartitionMutation& m, const RequestOptions& options);
    Task<Result<std::unique_ptr<PartitionStream>>> read_from(std::shared_ptr<Replica> replicas,
                                                             const std::string& table_id,
                                                             const std::string& partition_key,
                                                             const SliceSpec& slice,
                                                             int64_t now_seconds,
                                                             const RequestOptions& options);
    void publish(std::shared_ptr<const Tables> tables);
    // Requires mu_. Keeps the replica sets of `old` until drained.
    void retire(const std::string& table_id, const TableTablets& old);
    // The table's tablets as this thread last saw them (valid until this
    // thread's next call); nullptr for an unknown table.
    const TableTablets* routed(const std::string& table_id) const;

    Replica* inner_;
    const Catalog* catalog_;
    CatalogStore* store_;
    TabletRouterOptions options_;
    std::mutex mu_;  // serialises changes to the maps
    std::atomic<std::shared_ptr<const Tables>> tables_;
    std::atomic<uint64_t> version_{0};  // of tables_, for the threads' cached snapshots
    // Under mu_: replica sets replaced by newer maps that may still have
    // requests in flight, per table (what drain() waits for).
    std::unordered_map<std::string, std::vector<std::shared_ptr<Replica>>> retired_;
};

}  // namespace tessel::query
