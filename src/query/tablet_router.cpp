#include "query/tablet_router.h"

#include <algorithm>
#include <thread>

#include "schema/catalog.h"
#include "storage/clustering_range.h"

namespace tessel::query {
namespace {

// The bytes a mutation adds to its tablet's write rate (an estimate of what
// it writes, like the partition statistics count).
uint64_t mutation_bytes(const storage::PartitionMutation& m) {
    uint64_t n = m.partition_key.size() + 16 * m.range_tombstones.size();
    auto fragment = [&n](const storage::RowFragment& f) {
        n += 16;
        for (const auto& c : f.cells)
            n += c.value.size() + c.path.size() + 16;
    };
    if (m.static_row) fragment(*m.static_row);
    for (const auto& [clustering, f] : m.rows) {
        n += clustering.size();
        fragment(f);
    }
    return n;
}

// Counts a partition read in its tablet's load when it is opened.
class TabletCursor final : public PartitionCursor {
  public:
    TabletCursor(TabletRouter* router, std::string table_id,
                 std::shared_ptr<const TableTablets> tablets, storage::ClusteringInterval range,
                 int64_t now, RequestOptions options)
        : router_(router),
          table_id_(std::move(table_id)),
          tablets_(std::move(tablets)),
          range_(std::move(range)),
          now_(now),
          options_(options) {
        index_ = tablets_->map.find(range_.lo);
    }

    // Opens the first tablet's scan (and the next ones as each is used up).
    Task<Status> open() {
        while (status_.is_ok() && !cursor_ && !done_) {
            status_ = co_await open_tablet();
        }
        co_return status_;
    }

    bool next() override {
        if (!status_.is_ok() || !cursor_) return false;
        if (cursor_->next()) return true;
        if (!cursor_->needs_fetch()) {
            // This tablet is done; fetch() opens the next one's scan.
            status_ = cursor_->status();
            cursor_.reset();
            ++index_;
        }
        return false;
    }
    bool needs_fetch() const override {
        return status_.is_ok() && !done_ && (!cursor_ || cursor_->needs_fetch());
    }
    Task<Status> fetch() override {
        if (cursor_) {
            status_ = co_await cursor_->fetch();
            co_return status_;
        }
        co_return co_await open();
    }
    const std::string& partition_key() const override { return cursor_->partition_key(); }
    Task<Result<std::unique_ptr<PartitionStream>>> read(const SliceSpec& slice) override {
        tablets_->loads[index_]->record_read();
        return cursor_->read(slice);
    }
    Status status() const override { return status_; }

  private:
    // Opens the scan of tablet index_'s part of the range; done_ past the end.
    Task<Status> open_tablet() {
        const TabletMap& map = tablets_->map;
        if (index_ >= map.size()) {
            done_ = true;
            co_return Status::ok();
        }
        const std::string& start = map.at(index_).start;
        if (range_.hi && start >= *range_.hi) {
            done_ = true;
            co_return Status::ok();
        }
        KeyRange part;
        part.start_key = std::max(range_.lo, start);
        part.start_inclusive = true;
        std::optional<std::string> hi = range_.hi;
        if (auto end = map.end(index_); end && (!hi || *end < *hi)) hi = *end;
        if (hi) {
            part.end_key = *hi;
            part.end_inclusive = false;
        }
        Replica* replica = router_->replica_for(*tablets_, index_);
        auto c = co_await replica->scan(table_id_, part, now_, options_);
        if (!c.is_ok()) co_return c.status();
        cursor_ = std::move(c).value();
        co_return Status::ok();
    }

    TabletRouter* router_;
    std::string table_id_;
    std::shared_ptr<const TableTablets> tablets_;
    storage::ClusteringInterval range_;
    int64_t now_;
    RequestOptions options_;
    size_t index_ = 0;
    std::unique_ptr<PartitionCursor> cursor_;
    bool done_ = false;
    Status status_;
};

}  // namespace

TabletRouter::TabletRouter(Replica* inner, const Catalog* catalog, CatalogStore* store,
                           TabletRouterOptions options)
    : inner_(inner), catalog_(catalog), store_(store), options_(std::move(options)) {
    options_.initial_hash_tablets = std::max(1, options_.initial_hash_tablets);
    options_.shards = std::max(1, options_.shards);
    publish(std::make_shared<const Tables>());
}

namespace {
// Versions of published snapshots, unique across routers, so a thread's
// cached snapshot is never taken for another router's.
std::atomic<uint64_t> g_snapshot_versions{0};
}  // namespace

void TabletRouter::publish(std::shared_ptr<const Tables> tables) {
    tables_.store(std::move(tables));
    version_.store(g_snapshot_versions.fetch_add(1) + 1, std::memory_order_release);
}

const TableTablets* TabletRouter::routed(const std::string& table_id) const {
    // Each thread keeps the snapshot it last used and reloads it only when a
    // newer one was published: the request path reads one shared counter
    // instead of taking the atomic shared_ptr's lock and reference counts.
    thread_local uint64_t version = 0;
    thread_local std::shared_ptr<const Tables> snapshot;
    const uint64_t v = version_.load(std::memory_order_acquire);
    if (v != version) {
        snapshot = tables_.load();
        version = v;
    }
    auto it = snapshot->find(table_id);
    return it == snapshot->end() ? nullptr : it->second.get();
}

TabletRouter::~TabletRouter() = default;

Replica* TabletRouter::replica_for(const TableTablets& t, size_t i) const {
    return t.replicas.empty() ? inner_ : t.replicas[i].get();
}

std::vector<std::string> TabletRouter::table_ids() const {
    std::vector<std::string> ids;
    for (const auto& [id, _] : *tables_.load())
        ids.push_back(id);
    return ids;
}

std::shared_ptr<const TableTablets> TabletRouter::tablets(const std::string& table_id) const {
    auto tables = tables_.load();
    auto it = tables->find(table_id);
    return it == tables->end() ? nullptr : it->second;
}

TabletMap TabletRouter::first_map(const std::string& table_id, bool hashed) const {
    if (options_.first_map) return options_.first_map(table_id, hashed);
    const int64_t now = options_.clock();
    return hashed ? TabletMap::initial_hash(options_.initial_hash_tablets, options_.shards, now)
                  : TabletMap::initial_ordered(now);
}

std::shared_ptr<const TableTablets> TabletRouter::make_tablets(const std::string& table_id,
                                                               TabletMap map,
                                                               const TableTablets* previous) {
    auto t = std::make_shared<TableTablets>();
    const int64_t now = options_.clock();
    // A tablet whose range did not change keeps its load (and its rates).
    for (size_t i = 0; i < map.size(); ++i) {
        std::shared_ptr<diagnostics::TabletLoad> load;
        if (previous) {
            const size_t j = previous->map.find(map.at(i).start);
            if (previous->map.at(j).start == map.at(i).start &&
                previous->map.end(j) == map.end(i)) {
                load = previous->loads[j];
            }
        }
        if (!load) load = std::make_shared<diagnostics::TabletLoad>(now, options_.load);
        t->loads.push_back(std::move(load));
    }
    t->map = std::move(map);
    if (options_.replica_set) {
        for (const auto& tablet : t->map.tablets())
            t->replicas.push_back(options_.replica_set(table_id, tablet));
    }
    return t;
}

Status TabletRouter::install(const std::string& table_id, TabletMap map,
                             const TableTablets* previous) {
    if (store_ && !options_.shared_maps) {
        TESSEL_RETURN_IF_ERROR(store_->put(table_id, map.encode()));
    }
    auto next = std::make_shared<Tables>(*tables_.load());
    (*next)[table_id] = make_tablets(table_id, std::move(map), previous);
    publish(std::move(next));
    return Status::ok();
}

Status TabletRouter::apply_remote(const std::string& table_id,
                                  const std::optional<std::string>& encoded) {
    std::lock_guard lock(mu_);
    auto next = std::make_shared<Tables>(*tables_.load());
    if (!encoded) {
        next->erase(table_id);
    } else {
        TESSEL_ASSIGN_OR_RETURN(auto map, TabletMap::decode(*encoded));
        auto it = next->find(table_id);
        if (it != next->end()) retire(table_id, *it->second);
        (*next)[table_id] =
            make_tablets(table_id, std::move(map), it == next->end() ? nullptr : it->second.get());
    }
    publish(std::move(next));
    return Status::ok();
}

void TabletRouter::retire(const std::string& table_id, const TableTablets& old) {
    auto& list = retired_[table_id];
    // Sets with nothing in flight need no waiting for (a busy table keeps
    // only the sets of recent maps).
    std::erase_if(list, [](const auto& r) { return r->requests_in_flight() == 0; });
    for (const auto& r : old.replicas)
        list.push_back(r);
}

bool TabletRouter::drain(const std::string& table_id,
                         std::chrono::steady_clock::time_point deadline) {
    // A request that read the previous map just before the new one was
    // published counts itself a moment later: give it that moment.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::vector<std::shared_ptr<Replica>> waiting;
    {
        std::lock_guard lock(mu_);
        auto it = retired_.find(table_id);
        if (it != retired_.end()) waiting = it->second;
    }
    for (;;) {
        std::erase_if(waiting, [](const auto& r) { return r->requests_in_flight() == 0; });
        if (waiting.empty()) break;
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    std::lock_guard lock(mu_);
    auto it = retired_.find(table_id);
    if (it != retired_.end()) {
        std::erase_if(it->second, [](const auto& r) { return r->requests_in_flight() == 0; });
    }
    return true;
}

void TabletRouter::refresh_replicas() {
    if (!options_.replica_set) return;
    std::lock_guard lock(mu_);
    auto next = std::make_shared<Tables>();
    for (const auto& [id, t] : *tables_.load()) {
        retire(id, *t);
        (*next)[id] = make_tablets(id, t->map, t.get());
    }
    publish(std::move(next));
}

Status TabletRouter::uninstall(const std::string& table_id) {
    if (store_ && !options_.shared_maps) TESSEL_RETURN_IF_ERROR(store_->remove(table_id));
    auto next = std::make_shared<Tables>(*tables_.load());
    next->erase(table_id);
    publish(std::move(next));
    return Status::ok();
}

std::optional<bool> TabletRouter::catalog_hashed(const std::string& table_id) const {
    if (!catalog_) return std::nullopt;
    auto schema = catalog_->snapshot();
    for (const auto& [_, ks] : schema->keyspaces) {
        for (const auto& [name, def] : ks->tables) {
            if (def->storage_name() == table_id) {
                return def->options.distribution == Distribution::kHash;
            }
        }
    }
    return std::nullopt;
}

Status TabletRouter::load() {
    std::lock_guard lock(mu_);
    std::unordered_map<std::string, std::string> stored;
    if (store_) {
        TESSEL_ASSIGN_OR_RETURN(auto entries, store_->list(""));
        for (auto& [k, v] : entries)
            stored[k] = std::move(v);
    }
    if (!catalog_) return Status::ok();
    auto schema = catalog_->snapshot();
    for (const auto& [_, ks] : schema->keyspaces) {
        for (const auto& [name, def] : ks->tables) {
            const std::string id = def->storage_name();
            const bool hashed = def->options.distribution == Distribution::kHash;
            auto it = stored.find(id);
            if (it != stored.end()) {
                auto map = TabletMap::decode(it->second);
                if (!map.is_ok()) {
                    return Status::server("table " + ks->name + "." + name + ": " +
                                          map.status().message());
                }
                if (map->hashed() == hashed) {
                    auto next = std::make_shared<Tables>(*tables_.load());
                    (*next)[id] = make_tablets(id, std::move(map).value(), nullptr);
                    publish(std::move(next));
                    continue;
                }
            }
            TabletMap first = first_map(id, hashed);
            if (store_ && options_.shared_maps) {
                TESSEL_RETURN_IF_ERROR(store_->put(id, first.encode()));
            }
            TESSEL_RETURN_IF_ERROR(install(id, std::move(first), nullptr));
        }
    }
    // Maps of tables the catalog no longer has (a crash during DROP).
    for (const auto& [id, _] : stored) {
        if (!tablets(id)) TESSEL_RETURN_IF_ERROR(uninstall(id));
    }
    return Status::ok();
}

// --- routing ----------------------------------------------------------------

Task<Status> TabletRouter::apply(const std::string& table_id, const storage::PartitionMutation& m,
                                 const RequestOptions& options) {
    const TableTablets* t = routed(table_id);
    if (!t) return inner_->apply(table_id, m, options);
    const size_t i = t->map.find(m.partition_key);
    // Counted before the write is sent: `t` is this thread's cached snapshot,
    // which another request may replace while this one waits for replicas.
    t->loads[i]->record_write(mutation_bytes(m));
    if (t->replicas.empty()) return inner_->apply(table_id, m, options);
    return apply_to(t->replicas[i], table_id, m, options);
}

Task<Status> TabletRouter::apply_to(std::shared_ptr<Replica> replicas, const std::string& table_id,
                                    const storage::PartitionMutation& m,
                                    const RequestOptions& options) {
    // The tablet's replica set stays alive while its write is in flight.
    co_return co_await replicas->apply(table_id, m, options);
}

Task<Result<std::unique_ptr<PartitionStream>>> TabletRouter::read(const std::string& table_id,
                                                                  const std::string& partition_key,
                                                                  const SliceSpec& slice,
                                                                  int64_t now_seconds,
                                                                  const RequestOptions& options) {
    const TableTablets* t = routed(table_id);
    if (!t) return inner_->read(table_id, partition_key, slice, now_seconds, options);
    const size_t i = t->map.find(partition_key);
    t->loads[i]->record_read();
    if (t->replicas.empty())
        return inner_->read(table_id, partition_key, slice, now_seconds, options);
    return read_from(t->replicas[i], table_id, partition_key, slice, now_seconds, options);
}

Task<Result<std::unique_ptr<PartitionStream>>> TabletRouter::read_from(
    std::shared_ptr<Replica> replicas, const std::string& table_id,
    const std::string& partition_key, const SliceSpec& slice, int64_t now_seconds,
    const RequestOptions& options) {
    // `replicas` (the tablet's replica set) stays alive while the read runs.
    co_return co_await replicas->read(table_id, partition_key, slice, now_seconds, options);
}

Task<Result<std::unique_ptr<PartitionCursor>>> TabletRouter::scan(const std::string& table_id,
                                                                  const KeyRange& range,
                                                                  int64_t now_seconds,
                                                                  const RequestOptions& options) {
    auto t = tablets(table_id);
    if (!t) co_return co_await inner_->scan(table_id, range, now_seconds, options);
    auto interval = storage::to_interval({range.start_key, range.start_inclusive},
                                         {range.end_key, range.end_inclusive});
    if (interval.empty) co_return co_await inner_->scan(table_id, range, now_seconds, options);
    auto cursor = std::make_unique<TabletCursor>(this, table_id, std::move(t), std::move(interval),
                                                 now_seconds, options);
    TESSEL_CO_RETURN_IF_ERROR(co_await cursor->open());
    co_return std::unique_ptr<PartitionCursor>(std::move(cursor));
}

Task<Result<bool>> TabletRouter::cas(const std::string& table_id, const std::string& partition_key,
                                     const RequestOptions& options, cluster::CasDecider decide) {
    const TableTablets* t = routed(table_id);
    if (!t || t->replicas.empty()) {
        co_return co_await inner_->cas(table_id, partition_key, options, std::move(decide));
    }
    const size_t i = t->map.find(partition_key);
    t->loads[i]->record_write(0);
    std::shared_ptr<Replica> replicas = t->replicas[i];
    co_return co_await replicas->cas(table_id, partition_key, options, std::move(decide));
}

// --- table lifecycle --------------------------------------------------------

Status TabletRouter::create_table(const std::string& table_id, int32_t gc_grace_seconds) {
    TESSEL_RETURN_IF_ERROR(inner_->create_table(table_id, gc_grace_seconds));
    std::lock_guard lock(mu_);
    if (tablets(table_id)) return Status::ok();
    return install(table_id, first_map(table_id, catalog_hashed(table_id).value_or(true)), nullptr);
}

Status TabletRouter::drop_table(const std::string& table_id) {
    {
        std::lock_guard lock(mu_);
        TESSEL_RETURN_IF_ERROR(uninstall(table_id));
    }
    return inner_->drop_table(table_id);
}

Status TabletRouter::truncate_table(const std::string& table_id) {
    std::lock_guard lock(mu_);
    TESSEL_RETURN_IF_ERROR(inner_->truncate_table(table_id));
    auto t = tablets(table_id);
    if (!t) return Status::ok();
    // The data is gone: start again from the table's first map (on a
    // cluster the map stays: its replicas still hold the table).
    if (options_.first_map) return Status::ok();
    return install(table_id, first_map(table_id, t->map.hashed()), nullptr);
}

// --- measuring and split/merge ----------------------------------------------

Result<std::vector<TabletObservation>> TabletRouter::observe(const std::string& table_id,
                                                             const TableTablets& t) {
    const TabletMap& map = t.map;
    std::vector<TabletObservation> obs(map.size());
    const int64_t now = options_.clock();
    for (size_t i = 0; i < map.size(); ++i) {
        const auto r = t.loads[i]->rates(now);
        obs[i].writes_per_sec = r.writes_per_sec;
        obs[i].bytes_per_sec = r.bytes_per_sec;
    }
    size_t i = 0;
    TESSEL_RETURN_IF_ERROR(inner_->for_each_partition_stats(
        table_id, [&](std::string_view key, const storage::PartitionStats& s) {
            while (i + 1 < map.size() && key >= map.at(i + 1).start)
                ++i;
            obs[i].size_bytes += s.bytes_written;
            obs[i].rows += s.row_writes;
        }));
    if (map.hashed()) return obs;
    // Ordered tables split at a stored key: the first partition (after the
    // tablet's first) with at least half of the tablet's bytes before it, or
    // else its last partition.
    std::vector<uint64_t> before(map.size(), 0);
    std::vector<std::optional<std::string>> last(map.size());
    std::vector<size_t> count(map.size(), 0);
    i = 0;
    TESSEL_RETURN_IF_ERROR(inner_->for_each_partition_stats(
        table_id, [&](std::string_view key, const storage::PartitionStats& s) {
            while (i + 1 < map.size() && key >= map.at(i + 1).start)
                ++i;
            TabletObservation& o = obs[i];
            if (last[i] && !o.median_key && before[i] * 2 >= o.size_bytes) {
                o.median_key = std::string(key);
            }
            last[i] = std::string(key);
            before[i] += s.bytes_written;
            ++count[i];
        }));
    for (size_t j = 0; j < map.size(); ++j) {
        if (!obs[j].median_key && count[j] >= 2) {
            obs[j].median_key = last[j];
        }
    }
    return obs;
}

Result<std::vector<TabletReport>> TabletRouter::describe(const std::string& table_id) {
    auto t = tablets(table_id);
    if (!t) return std::vector<TabletReport>{};
    std::vector<TabletObservation> obs;
    {
        std::lock_guard lock(mu_);
        TESSEL_ASSIGN_OR_RETURN(obs, observe(table_id, *t));
    }
    const int64_t now = options_.clock();
    std::vector<TabletReport> out;
    for (size_t i = 0; i < t->map.size(); ++i) {
        TabletReport r;
        r.index = i;
        r.tablet = t->map.at(i);
        r.end = t->map.end(i);
        r.size_bytes = obs[i].size_bytes;
        r.rows = obs[i].rows;
        r.rates = t->loads[i]->rates(now);
        out.push_back(std::move(r));
    }
    return out;
}

Result<size_t> TabletRouter::evaluate() {
    // Shared maps change through the cluster's control plane, not here.
    if (options_.shared_maps) return size_t{0};
    std::lock_guard lock(mu_);
    size_t changed = 0;
    auto tables = tables_.load();
    for (const auto& [id, t] : *tables) {
        TESSEL_ASSIGN_OR_RETURN(auto obs, observe(id, *t));
        const size_t floor =
            t->map.hashed() ? static_cast<size_t>(options_.initial_hash_tablets) : 1;
        const int64_t now = options_.clock();
        auto plan = plan_tablet_changes(t->map, obs, options_.thresholds, floor, now);
        if (plan.empty()) continue;
        TabletMap next = t->map;
        TESSEL_RETURN_IF_ERROR(apply_tablet_changes(&next, plan, options_.shards, now));
        TESSEL_RETURN_IF_ERROR(install(id, std::move(next), t.get()));
        changed += plan.size();
    }
    return changed;
}

}  // namespace tessel::query
