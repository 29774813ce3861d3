// The node's tablets: the router the coordinator sends requests through, its
// maps persisted in the catalog family, and the timer that runs split/merge
// rounds every TabletOptions::evaluation_interval_ms.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "query/tablet_router.h"
#include "tessel/database.h"

namespace tessel {
class Catalog;
class CatalogStore;
namespace storage {
class Store;
}
}  // namespace tessel

namespace tessel::embedded {

class TabletService {
  public:
    // `local`, `catalog` and `store` must outlive the service. Loads the
    // stored maps (Server_error when one cannot be read) and starts the timer.
    static Result<std::unique_ptr<TabletService>> start(const TabletOptions& options,
                                                        cluster::Replica* local,
                                                        const Catalog* catalog,
                                                        storage::Store* store);
    // On a cluster: the maps live in `maps` (etcd), `configure` adds the
    // cluster's placement and replica sets, and no split/merge round runs
    // here (a cluster changes maps through its control plane).
    static Result<std::unique_ptr<TabletService>> start_shared(
        const TabletOptions& options, cluster::Replica* local, const Catalog* catalog,
        CatalogStore* maps, const std::function<void(query::TabletRouterOptions*)>& configure);
    // Stops the timer (waiting for a running round).
    ~TabletService();

    query::TabletRouter& router() { return *router_; }
    Result<size_t> evaluate() { return router_->evaluate(); }

  private:
    TabletService() = default;
    void loop(int64_t interval_ms);

    std::shared_ptr<CatalogStore> maps_;  // the local maps (single node)
    std::unique_ptr<query::TabletRouter> router_;
    std::mutex mu_;
    std::condition_variable cv_;
    bool stopping_ = false;
    std::thread timer_;
};

}  // namespace tessel::embedded
