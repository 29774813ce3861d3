#include "embedded/tablet_service.h"

#include <chrono>

#include "embedded/catalog_glue.h"
#include "schema/catalog_store.h"

namespace tessel::embedded {

Result<std::unique_ptr<TabletService>> TabletService::start(const TabletOptions& o,
                                                            cluster::Replica* local,
                                                            const Catalog* catalog,
                                                            storage::Store* store) {
    auto s = std::unique_ptr<TabletService>(new TabletService());
    s->maps_ = make_store_catalog(store, "tablets/");
    query::TabletRouterOptions ro;
    ro.initial_hash_tablets = o.initial_tablets;
    ro.shards = o.shards;
    ro.thresholds = o.thresholds;
    s->router_ = std::make_unique<query::TabletRouter>(local, catalog, s->maps_.get(), ro);
    TESSEL_RETURN_IF_ERROR(s->router_->load());
    if (o.evaluation_interval_ms > 0) {
        s->timer_ = std::thread([p = s.get(), ms = o.evaluation_interval_ms] { p->loop(ms); });
    }
    return s;
}

Result<std::unique_ptr<TabletService>> TabletService::start_shared(
    const TabletOptions& o, cluster::Replica* local, const Catalog* catalog, CatalogStore* maps,
    const std::function<void(query::TabletRouterOptions*)>& configure) {
    auto s = std::unique_ptr<TabletService>(new TabletService());
    query::TabletRouterOptions ro;
    ro.initial_hash_tablets = o.initial_tablets;
    ro.shards = o.shards;
    ro.thresholds = o.thresholds;
    configure(&ro);
    s->router_ = std::make_unique<query::TabletRouter>(local, catalog, maps, ro);
    TESSEL_RETURN_IF_ERROR(s->router_->load());
    return s;
}

TabletService::~TabletService() {
    {
        std::lock_guard lock(mu_);
        stopping_ = true;
    }
    cv_.notify_all();
    if (timer_.joinable()) timer_.join();
}

void TabletService::loop(int64_t interval_ms) {
    std::unique_lock lock(mu_);
    while (
        !cv_.wait_for(lock, std::chrono::milliseconds(interval_ms), [this] { return stopping_; })) {
        lock.unlock();
        // A failed round (a table dropped meanwhile, a full disk) is retried
        // by the next one; requests never depend on it.
        (void)router_->evaluate();
        lock.lock();
    }
}

}  // namespace tessel::embedded
