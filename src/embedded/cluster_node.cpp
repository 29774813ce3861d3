#include "embedded/cluster_node.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <set>

#include "cluster/etcd_catalog_store.h"
#include "common/wall_clock.h"
#include "partition/token.h"
#include "schema/catalog.h"
#include "schema/codec.h"
#include "storage/store.h"
#include "system/system_tables.h"

namespace tessel::embedded {
namespace {

ClusterEvent to_event(const cluster::ClusterEvent& e) {
    ClusterEvent out;
    switch (e.kind) {
        case cluster::ClusterEvent::Kind::kNewNode:
            out.kind = ClusterEvent::Kind::kNewNode;
            break;
        case cluster::ClusterEvent::Kind::kRemovedNode:
            out.kind = ClusterEvent::Kind::kRemovedNode;
            break;
        case cluster::ClusterEvent::Kind::kUp:
            out.kind = ClusterEvent::Kind::kUp;
            break;
        case cluster::ClusterEvent::Kind::kDown:
            out.kind = ClusterEvent::Kind::kDown;
            break;
    }
    out.rpc_address = e.node.rpc_address;
    out.native_port = e.node.native_port;
    return out;
}

// The token a tablet starts at (the smallest token for the first tablet).
int64_t start_token(const Tablet& t) {
    auto token = decode_token_prefix(t.start);
    return t.start.empty() || !token.is_ok() ? std::numeric_limits<int64_t>::min() : *token;
}

}  // namespace

ClusterNode::ClusterNode(const DatabaseOptions& options, storage::Store* store)
    : options_(options), store_(store) {}

ClusterNode::~ClusterNode() {
    stopping_ = true;
    lifecycle_pool_.join();  // a decommission or removenode ends at its next look
    revision_cv_.notify_all();
    // Moves under way stop at their next stage; the next leader resumes them.
    if (balancer_) balancer_->stop();
    hints_cv_.notify_all();
    if (hints_thread_.joinable()) hints_thread_.join();
    control_.reset();  // stops the watch and revokes the lease first
    // Waits for the streams in flight here; before messaging stops.
    streaming_.reset();
    if (messaging_) messaging_->stop();
    migration_pool_.join();
    control_work_.reset();
    control_io_.stop();
    if (control_thread_.joinable()) control_thread_.join();
}

Result<std::unique_ptr<ClusterNode>> ClusterNode::start(const DatabaseOptions& options,
                                                        storage::Store* store,
                                                        const std::string& host_id,
                                                        CatalogStore* local_catalog) {
    const ClusterOptions& c = options.cluster;
    std::unique_ptr<ClusterNode> node(new ClusterNode(options, store));
    node->control_work_.emplace(node->control_io_.get_executor());
    node->control_thread_ = std::thread([n = node.get()] { n->control_io_.run(); });
    ClusterNode* self_ptr = node.get();
    node->membership_.set_listener([self_ptr](const cluster::ClusterEvent& e) {
        if (self_ptr->hints_) {
            if (e.kind == cluster::ClusterEvent::Kind::kDown) {
                self_ptr->hints_->mark_down(e.node.host_id);
            } else if (e.kind == cluster::ClusterEvent::Kind::kUp) {
                self_ptr->hints_->mark_up(e.node.host_id);
                self_ptr->hints_cv_.notify_all();
            }
        }
        if (self_ptr->event_listener_) self_ptr->event_listener_(to_event(e));
    });
    cluster::NodeInfo self;
    self.host_id = host_id;
    self.rpc_address = options.rpc_address;
    self.native_port = options.native_port;
    self.listen_address = c.listen_address;
    self.storage_port = c.storage_port;
    self.dc = c.dc;
    self.rack = c.rack;
    self.release_version = system::kReleaseVersion;
    cluster::ControlPlaneOptions cpo;
    cpo.etcd.endpoints = c.etcd_endpoints;
    cpo.cluster_name = options.cluster_name;
    cpo.num_tokens = c.num_tokens;
    cpo.lease_ttl_seconds = c.lease_ttl_seconds;
    auto control = cluster::ControlPlane::start(cpo, std::move(self), &node->membership_);
    if (!control.is_ok()) {
        return Status(control.status().code(), "Cannot join the cluster through etcd (" +
                                                   c.etcd_endpoints[0] +
                                                   "): " + control.status().message());
    }
    node->control_ = std::move(control).value();

    cluster::MessagingOptions mo;
    mo.listen_address = c.listen_address;
    mo.storage_port = c.storage_port;
    mo.threads = c.messaging_threads;
    mo.cluster_name = options.cluster_name;
    mo.host_id = host_id;
    mo.failure_timeout_ms = c.failure_timeout_ms;
    mo.tls.enabled = c.tls_enabled;
    mo.tls.certificate = c.tls_certificate;
    mo.tls.private_key = c.tls_private_key;
    mo.tls.ca = c.tls_ca;
    mo.tls.require_client_auth = c.tls_require_client_auth;
    node->messaging_ = std::make_unique<cluster::MessagingService>(mo);
    node->replicas_ = std::make_unique<cluster::ReplicaService>(store);
    node->hints_ = std::make_unique<cluster::HintStore>(store, c.max_hint_window_ms);
    cluster::ProxyOptions po;
    po.self = host_id;
    po.local_dc = c.dc;
    node->proxy_ = std::make_unique<cluster::StorageProxy>(
        po, &node->membership_, node->messaging_.get(), node->replicas_.get(), node->hints_.get());
    TESSEL_RETURN_IF_ERROR(node->replicas_->register_handlers(*node->messaging_));
    TESSEL_RETURN_IF_ERROR(node->proxy_->register_handlers(*node->messaging_));
    cluster::StreamingOptions so;
    so.self = host_id;
    so.directory = options.data_dir + "/streaming";
    so.throughput_megabits_per_sec =
        static_cast<uint64_t>(c.stream_throughput_outbound_megabits_per_sec);
    node->streaming_ = std::make_unique<cluster::StreamingService>(so, &node->membership_,
                                                                   node->messaging_.get(), store);
    TESSEL_RETURN_IF_ERROR(node->streaming_->register_handlers(*node->messaging_));
    TESSEL_RETURN_IF_ERROR(node->register_migration_handlers());
    // Internode messages from an address that is not a node of the cluster
    // are refused.
    node->messaging_->set_peer_filter(
        [self_ptr](const std::string& address, const std::string& peer_host) {
            const cluster::NodeInfo* n = self_ptr->membership_.view()->node(peer_host);
            return n && n->listen_address == address;
        });
    node->messaging_->set_peer_state_listener(
        [self_ptr](const cluster::PeerAddress& peer, bool reachable) {
            auto view = self_ptr->membership_.view();
            for (const auto& [id, n] : view->nodes) {
                if (n.listen_address == peer.address && n.storage_port == peer.port) {
                    self_ptr->membership_.set_reachable(id, reachable);
                }
            }
        });
    TESSEL_RETURN_IF_ERROR(node->messaging_->start());
    node->catalog_store_ = std::make_unique<cluster::EtcdCatalogStore>(
        node->control_->etcd(), node->control_->schema_prefix(), local_catalog);
    node->catalog_store_->set_extra_ops(
        [self_ptr](const CatalogBatch& b) { return self_ptr->tablet_ops(b); });
    node->tablet_maps_ = std::make_unique<cluster::EtcdPrefixStore>(
        node->control_->etcd(), node->control_->tablets_prefix());
    node->hints_thread_ = std::thread([self_ptr] { self_ptr->periodic_loop(); });
    return node;
}

Status ClusterNode::load_catalog(Catalog* catalog) {
    catalog_ = catalog;
    const std::string version_key = control_->schema_prefix() + Catalog::kVersionKey;
    TESSEL_ASSIGN_OR_RETURN(auto existing, control_->etcd().get(version_key));
    if (existing.kvs.empty()) {
        // A new cluster: its schema starts as this node's (perhaps empty) one.
        std::vector<cluster::TxnOp> ops;
        CatalogBatch seed;
        auto snapshot = catalog->snapshot();
        for (const auto& [name, ks] : snapshot->keyspaces) {
            seed.put(Catalog::keyspace_key(name), encode_keyspace(*ks));
            for (const auto& [_, t] : ks->tables)
                seed.put(Catalog::table_key(name, t->name), encode_table(*t));
            for (const auto& [_, u] : ks->types)
                seed.put(Catalog::type_key(name, u->name), encode_user_type(*u));
        }
        seed.put(Catalog::kVersionKey, snapshot->version.raw());
        for (const auto& op : seed.ops)
            ops.push_back(cluster::TxnOp::put(control_->schema_prefix() + op.key, *op.value));
        TESSEL_ASSIGN_OR_RETURN(auto more, tablet_ops(seed));
        for (auto& op : more)
            ops.push_back(std::move(op));
        auto txn = control_->etcd().txn({cluster::Compare::absent(version_key)}, ops, {});
        if (!txn.is_ok()) return txn.status();
        if (txn->succeeded) spdlog::info("seeded the cluster's schema from this node's");
    } else {
        catalog_store_->pin_revision(control_->start_revision());
    }
    Status st = catalog->load(*catalog_store_);
    catalog_store_->pin_revision(0);
    TESSEL_RETURN_IF_ERROR(st);
    catalog_store_->set_applied_version(catalog->version().raw());
    return catalog_store_->refresh_cache();
}

Result<cluster::Replication> ClusterNode::replication_of_table(const std::string& table_id) const {
    if (!catalog_) return Status::invalid("no catalog");
    auto schema = catalog_->snapshot();
    for (const auto& [_, ks] : schema->keyspaces) {
        for (const auto& [__, t] : ks->tables) {
            if (t->storage_name() == table_id) {
                return cluster::Replication::from_options(std::map<std::string, std::string>(
                    ks->replication.begin(), ks->replication.end()));
            }
        }
    }
    return Status::invalid("unknown table " + table_id);
}

Result<std::vector<cluster::TxnOp>> ClusterNode::tablet_ops(const CatalogBatch& batch) {
    std::vector<cluster::TxnOp> ops;
    auto schema = catalog_ ? catalog_->snapshot() : std::make_shared<const Schema>();
    auto view = membership_.view();
    auto replication_of = [&](const std::string& ks) -> Result<cluster::Replication> {
        for (const auto& op : batch.ops) {
            if (op.key == Catalog::keyspace_key(ks) && op.value) {
                TESSEL_ASSIGN_OR_RETURN(auto def, decode_keyspace(*op.value));
                return cluster::Replication::from_options(std::map<std::string, std::string>(
                    def.replication.begin(), def.replication.end()));
            }
        }
        auto def = schema->keyspace(ks);
        if (!def) return Status::invalid("Keyspace '" + ks + "' does not exist");
        return cluster::Replication::from_options(
            std::map<std::string, std::string>(def->replication.begin(), def->replication.end()));
    };
    for (const auto& op : batch.ops) {
        if (op.key.rfind("table/", 0) == 0) {
            if (op.value) {
                TESSEL_ASSIGN_OR_RETURN(auto def, decode_table(*op.value));
                auto old = schema->table(def.keyspace, def.name);
                if (old && old->storage_name() == def.storage_name()) continue;  // an ALTER
                TESSEL_ASSIGN_OR_RETURN(auto repl, replication_of(def.keyspace));
                const bool hashed = def.options.distribution == Distribution::kHash;
                TabletMap map =
                    cluster::initial_cluster_map(hashed, view->ring, repl, wall_clock_ms());
                ops.push_back(
                    cluster::TxnOp::put(control_->tablets_key(def.storage_name()), map.encode()));
            } else {
                // "table/<ks>/<name>": the dropped table's maps go with it.
                const std::string rest = op.key.substr(6);
                const auto slash = rest.find('/');
                if (slash == std::string::npos) continue;
                auto old = schema->table(rest.substr(0, slash), rest.substr(slash + 1));
                if (old)
                    ops.push_back(
                        cluster::TxnOp::erase(control_->tablets_key(old->storage_name())));
            }
        } else if (op.key.rfind("ks/", 0) == 0 && op.value && router_) {
            // A replication change places every tablet of the keyspace's
            // tables again (repair then brings new replicas their data).
            TESSEL_ASSIGN_OR_RETURN(auto def, decode_keyspace(*op.value));
            auto old = schema->keyspace(def.name);
            if (!old || old->replication == def.replication) continue;
            TESSEL_ASSIGN_OR_RETURN(auto repl, replication_of(def.name));
            for (const auto& [_, t] : old->tables) {
                auto current = router_->tablets(t->storage_name());
                if (!current) continue;
                std::vector<Tablet> tablets = current->map.tablets();
                for (auto& tablet : tablets) {
                    tablet.replicas =
                        view->ring.replicas(view->ring.range_of(start_token(tablet)), repl);
                }
                TESSEL_ASSIGN_OR_RETURN(auto map, TabletMap::of(current->map.hashed(), tablets));
                ops.push_back(
                    cluster::TxnOp::put(control_->tablets_key(t->storage_name()), map.encode()));
            }
        }
    }
    return ops;
}

void ClusterNode::configure_router(query::TabletRouterOptions* o, const Catalog* catalog,
                                   cluster::Replica* local) {
    (void)catalog;
    o->shared_maps = true;
    o->first_map = [this](const std::string& table_id, bool hashed) {
        auto found = replication_of_table(table_id);
        const cluster::Replication repl = found.is_ok() ? *found : cluster::Replication{};
        return cluster::initial_cluster_map(hashed, membership_.view()->ring, repl,
                                            wall_clock_ms());
    };
    o->replica_set = [this, local](const std::string& table_id, const Tablet& tablet) {
        // A tablet moving reads from its read set and writes to the others
        // as well (partition/tablet_map.h, TabletTransition).
        cluster::Placement p;
        p.replicas = tablet.read_replicas();
        for (const auto& host : tablet.write_replicas()) {
            if (std::find(p.replicas.begin(), p.replicas.end(), host) == p.replicas.end())
                p.pending.push_back(host);
        }
        auto repl = replication_of_table(table_id);
        if (repl.is_ok()) {
            p.replication = *repl;
        } else {
            p.replication.replication_factor = static_cast<int>(tablet.replicas.size());
        }
        return cluster::make_tablet_replicas(proxy_.get(), std::move(p), local);
    };
}

void ClusterNode::watch(Catalog* catalog, query::TabletRouter* router, cluster::Replica* local,
                        std::function<void(std::shared_ptr<const Schema> before)> on_schema) {
    catalog_ = catalog;
    router_ = router;
    local_ = local;
    on_schema_ = std::move(on_schema);
    cluster::ControlPlane::Listener l;
    l.on_schema = [this](int64_t revision) {
        Status st = apply_schema(revision);
        if (!st.is_ok()) spdlog::error("cannot apply the cluster's schema: {}", st.message());
        note_revision(revision);
    };
    l.on_tablets = [this](const std::string& table_id, const std::optional<std::string>& map,
                          int64_t revision) {
        Status st = router_->apply_remote(table_id, map);
        if (!st.is_ok()) spdlog::error("tablet map of {}: {}", table_id, st.message());
        note_revision(revision);
    };
    // Every map up to the revision start() read is installed already.
    note_revision(control_->start_revision());
    control_->watch(std::move(l));
    report_schema(catalog->version().raw());
    watching_ = true;
    become_normal();
    start_balancer();
}

Status ClusterNode::apply_schema(int64_t revision) {
    std::lock_guard lock(schema_mu_);
    // This node's own DDL is applied already, with everything before it.
    if (revision != 0 && revision <= catalog_store_->last_write_revision()) {
        report_schema_if_changed();
        return Status::ok();
    }
    auto before = catalog_->snapshot();
    catalog_store_->pin_revision(revision);
    Status st = catalog_->load(*catalog_store_);
    catalog_store_->pin_revision(0);
    TESSEL_RETURN_IF_ERROR(st);
    auto after = catalog_->snapshot();
    catalog_store_->set_applied_version(after->version.raw());
    TESSEL_RETURN_IF_ERROR(catalog_store_->refresh_cache());
    // This node's storage follows the catalog.
    std::set<std::string> now_ids;
    for (const auto& [_, ks] : after->keyspaces) {
        for (const auto& [__, t] : ks->tables) {
            now_ids.insert(t->storage_name());
            if (!local_->has_table(t->storage_name())) {
                Status created =
                    router_->create_table(t->storage_name(), t->options.gc_grace_seconds);
                // This node's own CREATE TABLE may have made it meanwhile
                // (its watch can deliver the change before the DDL returns).
                if (!created.is_ok() && !(created.code() == ErrorCode::kAlreadyExists &&
                                          local_->has_table(t->storage_name()))) {
                    return created;
                }
            }
        }
    }
    for (const auto& [_, ks] : before->keyspaces) {
        for (const auto& [__, t] : ks->tables) {
            if (!now_ids.count(t->storage_name())) {
                TESSEL_RETURN_IF_ERROR(router_->drop_table(t->storage_name()));
            }
        }
    }
    router_->refresh_replicas();
    if (on_schema_) on_schema_(before);
    report_schema(after->version.raw());
    return Status::ok();
}

Status ClusterNode::refresh_catalog() {
    return apply_schema(0);
}

void ClusterNode::report_schema_if_changed() {
    if (!watching_) return;
    const std::string version = catalog_->version().raw();
    {
        std::lock_guard lock(report_mu_);
        if (version == reported_version_) return;
    }
    report_schema(version);
}

void ClusterNode::report_schema(const std::string& version) {
    {
        std::lock_guard lock(report_mu_);
        reported_version_ = version;
    }
    cluster::AliveInfo a;
    a.schema_version = version;
    auto load = store_->property("rocksdb.estimate-live-data-size");
    if (load) a.load_bytes = std::strtoull(load->c_str(), nullptr, 10);
    Status st = control_->report(a);
    if (!st.is_ok()) {
        spdlog::warn("cannot report this node's schema version: {}", st.message());
        std::lock_guard lock(report_mu_);
        reported_version_.clear();  // again at the next check
    }
}

void ClusterNode::set_event_listener(std::function<void(const ClusterEvent&)> listener) {
    event_listener_ = std::move(listener);
}

void ClusterNode::periodic_loop() {
    std::unique_lock lock(hints_mu_);
    while (!stopping_) {
        hints_cv_.wait_for(lock, std::chrono::seconds(2));
        if (stopping_) break;
        lock.unlock();
        report_schema_if_changed();
        auto view = membership_.view();
        for (const auto& [id, node] : view->nodes) {
            const std::string& host = id;  // lambdas cannot capture a structured binding (clang 14)
            if (host == control_->self().host_id || !view->is_up(host)) continue;
            if (hints_->count(host, 1) == 0) continue;
            auto delivered = sync_wait([&] {
                return hints_->replay(host, [&](const cluster::MutationMessage& m) -> Task<Status> {
                    auto r = co_await proxy_->send(
                        host, cluster::ReplicaVerb::kMutation, cluster::encode(m),
                        std::chrono::steady_clock::now() + std::chrono::seconds(10));
                    co_return r.is_ok() ? Status::ok() : r.status();
                });
            });
            if (delivered.is_ok() && *delivered > 0) {
                spdlog::info("replayed {} hints to {}", *delivered, node.listen_address);
            }
        }
        lock.lock();
    }
}

}  // namespace tessel::embedded
