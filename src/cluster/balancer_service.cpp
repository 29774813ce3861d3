#include "cluster/balancer_service.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>

#include "cluster/node_record.h"
#include "common/wall_clock.h"
#include "partition/tablet_map.h"

namespace tessel::cluster {
namespace {

// The planner names tables by Uuid: the n-th table of the round.
Uuid table_uuid(size_t ordinal) {
    Uuid u;
    for (int i = 0; i < 8; ++i)
        u.bytes[15 - i] = static_cast<uint8_t>(ordinal >> (8 * i));
    return u;
}

balancer::Replication to_planner(const Replication& r) {
    if (!r.network_topology) return balancer::Replication::simple(r.total());
    std::vector<std::pair<std::string, int>> per_dc(r.per_dc.begin(), r.per_dc.end());
    return balancer::Replication::network_topology(std::move(per_dc));
}

// What an action does, for the log: the table's id, the tablet's index and
// host ids in hex (the planner's own text names tables by ordinal and hosts
// by their raw bytes).
std::string action_text(const balancer::Action& a, const std::string& table_id) {
    const std::string tablet = "tablet " + std::to_string(a.tablet.index) + " of " + table_id;
    const std::string why = " (" + std::string(balancer::reason_name(a.reason)) + ")";
    auto host = [](const std::string& h) {
        return h.empty() ? std::string("(new)") : host_id_hex(h);
    };
    switch (a.kind) {
        case balancer::ActionKind::kSplit:
            return "split " + tablet + why;
        case balancer::ActionKind::kDrop:
            return "drop " + tablet + " on " + host(a.from) + why;
        case balancer::ActionKind::kMove:
            break;
    }
    return "move " + tablet + " " + host(a.from) + " -> " + host(a.to) + why;
}

}  // namespace

BalancerService::BalancerService(EtcdClient etcd, std::string cluster_prefix, std::string self,
                                 Membership* membership, MigrationDriver* driver,
                                 BalancerServiceHooks hooks, BalancerServiceOptions options)
    : etcd_(std::move(etcd)),
      prefix_(std::move(cluster_prefix)),
      self_(std::move(self)),
      membership_(membership),
      driver_(driver),
      hooks_(std::move(hooks)),
      options_(std::move(options)) {}

BalancerService::~BalancerService() {
    stop();
}

void BalancerService::start() {
    if (!options_.enabled || thread_.joinable()) return;
    thread_ = std::thread([this] { loop(); });
}

void BalancerService::stop() {
    stopping_ = true;
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
    std::vector<Worker> workers;
    {
        std::lock_guard lock(mu_);
        workers.swap(workers_);
    }
    for (auto& w : workers)
        w.thread.join();
    // Revoking the lease deletes balancer/leader: another node leads at once.
    lease_.reset();
    leader_ = false;
}

void BalancerService::poke() {
    std::lock_guard lock(mu_);
    poked_ = true;
    cv_.notify_all();
}

BalancerStats BalancerService::stats() const {
    std::lock_guard lock(mu_);
    BalancerStats s = stats_;
    s.leader = leader_.load();
    s.running = busy_.size();
    return s;
}

void BalancerService::loop() {
    while (!stopping_) {
        reap();
        if (lead()) {
            round();
            std::lock_guard lock(mu_);
            ++stats_.rounds;
        }
        std::unique_lock lock(mu_);
        cv_.wait_for(lock, std::chrono::milliseconds(options_.interval_ms),
                     [this] { return stopping_.load() || poked_; });
        poked_ = false;
    }
}

bool BalancerService::lead() {
    if (leader_ && lease_ && !lease_->lost()) return true;
    leader_ = false;
    if (!lease_ || lease_->lost()) {
        lease_.reset();
        auto lease =
            LeaseKeeper::start(etcd_, options_.lease_ttl_seconds, [this](const Status& why) {
                if (leader_.exchange(false))
                    spdlog::warn("this node no longer leads the tablet balancer: {}",
                                 why.message());
            });
        if (!lease.is_ok()) return false;
        lease_ = std::move(lease).value();
    }
    const std::string key = prefix_ + "balancer/leader";
    auto txn = etcd_.txn({Compare::absent(key)},
                         {TxnOp::put(key, host_id_hex(self_), lease_->lease_id())}, {});
    if (!txn.is_ok() || !txn->succeeded) return false;
    leader_ = true;
    spdlog::info("this node leads the tablet balancer");
    return true;
}

void BalancerService::spawn(const TabletKey& key, std::function<void()> work) {
    std::lock_guard lock(mu_);
    if (!busy_.insert(key).second) return;
    auto done = std::make_shared<std::atomic<bool>>(false);
    workers_.push_back(Worker{std::thread([this, key, done, work = std::move(work)] {
                                  work();
                                  {
                                      std::lock_guard lock(mu_);
                                      busy_.erase(key);
                                      poked_ = true;
                                  }
                                  done->store(true);
                                  cv_.notify_all();
                              }),
                              done});
}

void BalancerService::reap() {
    std::vector<Worker> finished;
    {
        std::lock_guard lock(mu_);
        auto it = std::partition(workers_.begin(), workers_.end(),
                                 [](const Worker& w) { return !w.done->load(); });
        std::move(it, workers_.end(), std::back_inserter(finished));
        workers_.erase(it, workers_.end());
    }
    for (auto& w : finished)
        w.thread.join();
}

void BalancerService::round() {
    auto got = etcd_.get_prefix(prefix_ + "tablets/");
    if (!got.is_ok()) {
        spdlog::warn("tablet balancer: cannot read the tablet maps: {}", got.status().message());
        return;
    }
    // The maps, by table id, in table id order.
    std::vector<std::pair<std::string, TabletMap>> tables;
    for (const auto& kv : got->kvs) {
        auto map = TabletMap::decode(kv.value);
        if (!map.is_ok()) continue;
        tables.emplace_back(kv.key.substr(prefix_.size() + 8), std::move(map).value());
    }
    // 1. Moves under way that nobody drives here.
    const auto drive = [this](const TabletKey& key) {
        spawn(key, [this, key] {
            auto outcome = driver_->advance(key.table_id, key.start, &stopping_);
            std::lock_guard lock(mu_);
            if (!outcome.is_ok()) {
                if (!stopping_)
                    spdlog::warn("moving a tablet of {}: {}", key.table_id,
                                 outcome.status().message());
            } else if (*outcome == MigrationDriver::Outcome::kCompleted) {
                ++stats_.moves_completed;
            } else if (*outcome == MigrationDriver::Outcome::kRolledBack) {
                ++stats_.moves_rolled_back;
            }
        });
    };
    for (const auto& [table_id, map] : tables) {
        for (const auto& t : map.tablets()) {
            if (t.transition) drive(TabletKey{table_id, t.start});
        }
    }
    // 2. The planner's input.
    auto view = membership_->view();
    balancer::Input in;
    for (const auto& [id, n] : view->nodes) {
        balancer::Node node;
        node.host = id;
        node.dc = n.dc;
        node.rack = n.rack;
        const bool up = id == self_ || view->is_up(id);
        node.state = !up                              ? balancer::NodeState::kDown
                     : n.state == NodeState::kLeaving ? balancer::NodeState::kLeaving
                                                      : balancer::NodeState::kNormal;
        in.nodes.push_back(std::move(node));
    }
    std::map<TabletKey, std::pair<uint64_t, balancer::TabletHeat>> load;
    std::map<TabletKey, std::map<std::string, uint64_t>> held;  // bytes per reporting host
    const auto asked_at = std::chrono::steady_clock::now();
    const auto reports = hooks_.gather_load();
    const auto took = std::chrono::steady_clock::now() - asked_at;
    if (took > std::chrono::seconds(2)) {
        spdlog::warn("tablet balancer: the nodes' load took {} ms to gather",
                     std::chrono::duration_cast<std::chrono::milliseconds>(took).count());
    }
    for (const auto& report : reports) {
        for (const auto& e : report.tablets) {
            TabletKey key{e.table_id, e.start};
            auto& [size, heat] = load[key];
            heat.reads_per_sec += e.reads_per_sec;
            heat.writes_per_sec += e.writes_per_sec;
            heat.bytes_per_sec += e.bytes_per_sec;
            held[key][report.host] = e.size_bytes;
        }
    }
    std::vector<std::string> table_of;  // planner table ordinal -> table id
    for (const auto& [table_id, map] : tables) {
        auto repl = hooks_.replication(table_id);
        if (!repl || repl->local) continue;
        const uint32_t r = static_cast<uint32_t>(in.replications.size());
        in.replications.push_back(to_planner(*repl));
        const Uuid uuid = table_uuid(table_of.size());
        table_of.push_back(table_id);
        for (size_t i = 0; i < map.size(); ++i) {
            const Tablet& t = map.at(i);
            balancer::Tablet bt;
            bt.id = balancer::TabletId{uuid, i};
            bt.replication = r;
            bt.replicas = t.replicas;
            const TabletKey key{table_id, t.start};
            if (auto it = load.find(key); it != load.end()) bt.heat = it->second.second;
            // The bytes of a tablet: what its fullest replica holds.
            if (auto it = held.find(key); it != held.end()) {
                for (const auto& host : t.replicas) {
                    if (auto h = it->second.find(host); h != it->second.end())
                        bt.size_bytes = std::max(bt.size_bytes, h->second);
                }
            }
            if (t.transition)
                bt.migration = balancer::Migration{t.transition->from, t.transition->to};
            bt.splittable = map.hashed() && map.token_midpoint(i).has_value();
            in.tablets.push_back(std::move(bt));
        }
    }
    std::set<std::string> resized;
    // Splits and merges by size and load first: the planner then sees the
    // new tablets next round.
    for (const auto& [table_id, map] : tables) {
        std::vector<TabletObservation> observed(map.size());
        for (size_t i = 0; i < map.size(); ++i) {
            const TabletKey key{table_id, map.at(i).start};
            if (auto it = load.find(key); it != load.end()) {
                observed[i].writes_per_sec = it->second.second.writes_per_sec;
                observed[i].bytes_per_sec = it->second.second.bytes_per_sec;
            }
            if (auto it = held.find(key); it != held.end()) {
                for (const auto& [host, bytes] : it->second)
                    observed[i].size_bytes = std::max<uint64_t>(observed[i].size_bytes, bytes);
            }
        }
        if (resize(table_id, map, observed, in.nodes.size())) resized.insert(table_id);
    }
    in.previous_moves = previous_moves_;
    balancer::Config config = options_.planner;
    {
        std::lock_guard lock(mu_);
        config.seed = stats_.rounds;
    }
    auto plan = balancer::plan_round(in, config);
    if (!plan.is_ok()) {
        spdlog::warn("tablet balancer: {}", plan.status().message());
        return;
    }
    for (const auto& p : plan->problems)
        spdlog::debug("tablet balancer: {}", p.message);
    // 3. Start the round's actions.
    previous_moves_.clear();
    for (const auto& a : plan->actions) {
        const size_t ordinal = static_cast<size_t>(a.tablet.table.bytes[15]) |
                               static_cast<size_t>(a.tablet.table.bytes[14]) << 8 |
                               static_cast<size_t>(a.tablet.table.bytes[13]) << 16;
        if (ordinal >= table_of.size()) continue;
        const std::string& table_id = table_of[ordinal];
        const TabletMap* map = nullptr;
        for (const auto& [id, m] : tables) {
            if (id == table_id) map = &m;
        }
        if (!map || a.tablet.index >= map->size() || resized.count(table_id)) continue;
        const TabletKey key{table_id, map->at(a.tablet.index).start};
        {
            std::lock_guard lock(mu_);
            if (busy_.count(key)) continue;
        }
        spdlog::info("tablet balancer: {}", action_text(a, table_id));
        switch (a.kind) {
            case balancer::ActionKind::kMove: {
                if (a.from.empty()) break;  // adding a replica: ALTER KEYSPACE places them
                previous_moves_.push_back({a.tablet, a.from, a.to});
                {
                    std::lock_guard lock(mu_);
                    ++stats_.moves_started;
                }
                const std::string from = a.from, to = a.to;
                Status st = driver_->start(key.table_id, key.start, from, to);
                if (!st.is_ok()) {
                    spdlog::warn("tablet balancer: cannot start a move: {}", st.message());
                    break;
                }
                drive(key);
                break;
            }
            case balancer::ActionKind::kDrop: {
                const std::string host = a.from;
                spawn(key, [this, key, host] {
                    Status st = driver_->drop_replica(key.table_id, key.start, host);
                    std::lock_guard lock(mu_);
                    if (st.is_ok()) ++stats_.drops;
                });
                break;
            }
            case balancer::ActionKind::kSplit: {
                Status st = driver_->split(key.table_id, key.start);
                if (!st.is_ok()) spdlog::info("tablet balancer: no split: {}", st.message());
                std::lock_guard lock(mu_);
                if (st.is_ok()) ++stats_.splits;
                break;
            }
        }
    }
}

bool BalancerService::resize(const std::string& table_id, const TabletMap& map,
                             const std::vector<TabletObservation>& observed, size_t nodes) {
    if (!map.hashed()) return false;  // ordered tables split at stored keys: not from here
    const size_t floor = std::max<size_t>(1, nodes * options_.min_tablets_per_node);
    auto changes = plan_tablet_changes(map, observed, options_.thresholds, floor, wall_clock_ms());
    // Only neighbours on the same replicas merge (no data moves for it).
    std::erase_if(changes, [&](const TabletChange& c) {
        return c.kind == TabletChange::Kind::kMerge &&
               map.at(c.index).replicas != map.at(c.index + 1).replicas;
    });
    if (changes.empty()) return false;
    Status st = driver_->change_map(table_id, [&](TabletMap& now) -> Status {
        if (now != map) return Status::invalid("the map changed meanwhile");
        return apply_tablet_changes(&now, changes, 1, wall_clock_ms());
    });
    if (!st.is_ok()) return false;  // next round
    size_t splits = 0, merges = 0;
    for (const auto& c : changes)
        ++(c.kind == TabletChange::Kind::kSplit ? splits : merges);
    spdlog::info("tablet balancer: {} split {} and merged {} tablet pairs", table_id, splits,
                 merges);
    std::lock_guard lock(mu_);
    stats_.splits += splits;
    stats_.merges += merges;
    return true;
}

}  // namespace tessel::cluster
