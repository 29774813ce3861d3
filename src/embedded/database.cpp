// Database and Session: the embedded API over the coordinator.
#include <charconv>
#include <filesystem>
#include <map>
#include <mutex>

#include "auth/auth_service.h"
#include "cluster/repair.h"
#include "cluster/replica.h"
#include "diagnostics/admin_calls.h"
#include "diagnostics/health_tables.h"
#include "embedded/catalog_glue.h"
#include "embedded/cluster_node.h"
#include "embedded/node_files.h"
#include "embedded/open_checks.h"
#include "embedded/partition_health.h"
#include "embedded/schema_diff.h"
#include "embedded/tablet_service.h"
#include "query/coordinator.h"
#include "query/schema_executor.h"
#include "query/schema_view.h"
#include "schema/catalog.h"
#include "schema/describe.h"
#include "storage/store.h"
#include "system/cluster_nodes_table.h"
#include "system/system_tables.h"
#include "system/tablets_table.h"
#include "tessel/database.h"

namespace tessel {
namespace {

// How long CALL system.decommission / removenode wait for the tablet
// replicas to move before they answer (the move goes on afterwards).
constexpr auto kNodeLifecycleTimeout = std::chrono::minutes(30);

class SessionImpl;

class DatabaseImpl final : public Database {
  public:
    ~DatabaseImpl() override {
        // The cluster first: its watch applies changes to the catalog and the
        // tablets, its messaging serves the store.
        cluster_.reset();
        coordinator_.reset();
        auth_.reset();
        tablets_.reset();
        health_.reset();
        replica_.reset();
        catalog_.reset();
        catalog_store_.reset();
        if (store_) store_->close();
    }

    static Result<std::unique_ptr<Database>> open(const DatabaseOptions& o) {
        auto db = std::unique_ptr<DatabaseImpl>(new DatabaseImpl());
        TESSEL_RETURN_IF_ERROR(db->init(o));
        return std::unique_ptr<Database>(std::move(db));
    }

    std::unique_ptr<Session> new_session() override;
    bool requires_login() const override { return auth_->requires_login(); }
    Result<std::unique_ptr<Session>> login(std::string_view username,
                                           std::string_view password) override;

    int subscribe_schema_changes(std::function<void(const SchemaChange&)> listener) override {
        std::lock_guard<std::mutex> lock(listeners_mu_);
        const int id = next_listener_++;
        listeners_[id] = std::move(listener);
        return id;
    }
    void unsubscribe_schema_changes(int id) override {
        std::lock_guard<std::mutex> lock(listeners_mu_);
        listeners_.erase(id);
    }
    int subscribe_cluster_events(std::function<void(const ClusterEvent&)> listener) override {
        std::lock_guard<std::mutex> lock(listeners_mu_);
        const int id = next_listener_++;
        cluster_listeners_[id] = std::move(listener);
        return id;
    }
    void unsubscribe_cluster_events(int id) override {
        std::lock_guard<std::mutex> lock(listeners_mu_);
        cluster_listeners_.erase(id);
    }
    std::string schema_version() const override { return embedded::catalog_version(*catalog_); }
    std::string host_id() const override { return host_id_; }
    Status flush() override { return replica_->flush(); }
    Result<size_t> evaluate_tablets() override { return tablets_->evaluate(); }
    const embedded::PartitionHealth* partition_health() const override { return health_.get(); }
    std::optional<uint64_t> storage_int_property(std::string_view name) const override {
        auto v = store_->property(name);
        if (!v) return std::nullopt;
        uint64_t n = 0;
        auto [p, ec] = std::from_chars(v->data(), v->data() + v->size(), n);
        if (ec != std::errc()) return std::nullopt;
        // The block cache is shared; other properties are per column family,
        // so the node's figure is the sum over every table's family.
        if (name.find("block-cache") != std::string_view::npos) return n;
        for (const auto& id : store_->list_tables())
            n += store_->table_int_property(id, name).value_or(0);
        return n;
    }

    // CALL system.flush(...) / system.compact(...) (diagnostics/admin_calls.h).
    Task<Result<ResultSet>> run_admin_call(const diagnostics::AdminCall& call);
    Result<ResultSet> flush_or_compact(const diagnostics::AdminCall& call,
                                       const std::vector<std::string>& table_ids);

    query::Coordinator& coordinator() { return *coordinator_; }
    auth::AuthService& auth() { return *auth_; }

  private:
    DatabaseImpl() = default;

    Status init(const DatabaseOptions& o) {
        std::error_code ec;
        std::filesystem::create_directories(o.data_dir, ec);
        if (ec)
            return Status::server("Cannot create data directory " + o.data_dir + ": " +
                                  ec.message());
        storage::StoreOptions so;
        so.commitlog_sync = o.commitlog_sync == CommitlogSync::kBatch
                                ? storage::CommitlogSync::kBatch
                                : storage::CommitlogSync::kPeriodic;
        so.commitlog_sync_period_ms =
            static_cast<uint32_t>(std::max(1, o.commitlog_sync_period_ms));
        so.block_cache_bytes = o.block_cache_bytes;
        TESSEL_RETURN_IF_ERROR(embedded::check_storage_present(o.data_dir, o.data_dir + "/store"));
        TESSEL_ASSIGN_OR_RETURN(store_, storage::Store::open(o.data_dir + "/store", so));
        catalog_store_ = embedded::make_store_catalog(store_.get());
        auto catalog = embedded::load_catalog(catalog_store_.get());
        if (!catalog.is_ok()) {
            return Status::server("Cannot open the database in " + o.data_dir +
                                  ": the schema catalog cannot be read (" +
                                  catalog.status().message() +
                                  "); refusing to start with a partial or empty schema");
        }
        catalog_ = std::move(catalog).value();
        TESSEL_RETURN_IF_ERROR(
            embedded::check_catalog_present(o.data_dir, *catalog_store_, *store_));
        TESSEL_ASSIGN_OR_RETURN(
            auto secret, embedded::load_or_create_random_file(o.data_dir + "/node_secret", 32));
        TESSEL_ASSIGN_OR_RETURN(host_id_,
                                embedded::load_or_create_random_file(o.data_dir + "/host_id", 16));
        replica_ = cluster::make_local_replica(store_.get());
        if (o.cluster.enabled()) {
            // A cluster node: the catalog, the tablet maps and the paging
            // secret are the cluster's, from etcd.
            TESSEL_ASSIGN_OR_RETURN(cluster_, embedded::ClusterNode::start(
                                                  o, store_.get(), host_id_, catalog_store_.get()));
            TESSEL_RETURN_IF_ERROR(cluster_->load_catalog(catalog_.get()));
            // NetworkTopologyStrategy names these data centres: this node's
            // and every registered node's (with their node counts).
            catalog_->set_datacenters([this] {
                std::map<std::string, int> dcs{{cluster_->self().dc, 0}};
                auto view = cluster_->membership().view();
                if (!view->node(cluster_->self().host_id)) dcs[cluster_->self().dc] = 1;
                for (const auto& [_, n] : view->nodes)
                    ++dcs[n.dc];
                return dcs;
            });
            TESSEL_ASSIGN_OR_RETURN(secret, cluster_->paging_secret());
            TESSEL_ASSIGN_OR_RETURN(
                tablets_, embedded::TabletService::start_shared(
                              o.tablets, replica_.get(), catalog_.get(), cluster_->tablet_maps(),
                              [this](query::TabletRouterOptions* ro) {
                                  cluster_->configure_router(ro, catalog_.get(), replica_.get());
                              }));
        } else {
            TESSEL_ASSIGN_OR_RETURN(
                tablets_, embedded::TabletService::start(o.tablets, replica_.get(), catalog_.get(),
                                                         store_.get()));
        }
        TESSEL_RETURN_IF_ERROR(query::reconcile_storage(*catalog_, tablets_->router()));
        query::CoordinatorOptions co;
        co.max_page_bytes = o.max_page_bytes;
        co.read_timeout_ms = o.read_request_timeout_ms;
        co.range_timeout_ms = o.range_request_timeout_ms;
        co.write_timeout_ms = o.write_request_timeout_ms;
        co.limits.batch_warn_bytes = o.batch_size_warn_threshold_bytes;
        co.limits.batch_fail_bytes = o.batch_size_fail_threshold_bytes;
        co.limits.max_mutation_bytes = o.max_mutation_size_bytes;
        co.node_secret = secret;
        coordinator_ =
            std::make_unique<query::Coordinator>(catalog_.get(), &tablets_->router(), co);
        coordinator_->set_schema_listener([this](const SchemaChange& c) { notify(c); });
        if (cluster_) {
            coordinator_->set_cluster_ddl(
                cluster_->control_executor(), [this] { return cluster_->refresh_catalog(); },
                &cluster_->proxy());
        }
        TESSEL_RETURN_IF_ERROR(init_partition_health(o));
        system::NodeInfo node;
        node.cluster_name = o.cluster_name;
        node.host_id = host_id_;
        node.rpc_address = o.rpc_address;
        node.native_port = o.native_port;
        system::PeersFn peers;
        if (cluster_) {
            const cluster::NodeInfo& self = cluster_->self();
            node.listen_address = self.listen_address;
            node.storage_port = self.storage_port;
            node.data_center = self.dc;
            node.rack = self.rack;
            for (int64_t t : self.tokens)
                node.tokens.push_back(std::to_string(t));
            peers = [this] { return peer_infos(); };
        }
        for (auto& t : system::make_system_tables(node, *catalog_, peers)) {
            TESSEL_RETURN_IF_ERROR(coordinator_->register_virtual_table(std::move(t)));
        }
        system::ReplicaNamer replica_name;
        if (cluster_) {
            replica_name = [this](const std::string& host) {
                const cluster::NodeInfo* n = cluster_->membership().view()->node(host);
                return n ? n->listen_address : cluster::host_id_hex(host);
            };
        }
        TESSEL_RETURN_IF_ERROR(coordinator_->register_virtual_table(
            system::make_tablets_table(tablets_->router(), *catalog_, replica_name)));
        TESSEL_RETURN_IF_ERROR(coordinator_->register_virtual_table(
            system::make_cluster_nodes_table([this, o] { return cluster_nodes(o); })));
        TESSEL_RETURN_IF_ERROR(open_auth(o));
        if (cluster_) {
            cluster_->set_event_listener([this](const ClusterEvent& e) { notify_cluster(e); });
            cluster_->watch(
                catalog_.get(), &tablets_->router(), replica_.get(),
                [this](std::shared_ptr<const Schema> before) {
                    for (const auto& c : embedded::schema_diff(*before, *catalog_->snapshot())) {
                        notify(c);
                    }
                });
        }
        return Status::ok();
    }

    // Every node as this one sees it, for system.cluster_nodes.
    std::vector<system::ClusterNodeRow> cluster_nodes(const DatabaseOptions& o) const {
        std::vector<system::ClusterNodeRow> out;
        std::map<std::string, int64_t> tablets;
        auto schema = catalog_->snapshot();
        for (const auto& [_, ks] : schema->keyspaces) {
            for (const auto& [__, t] : ks->tables) {
                auto maps = tablets_->router().tablets(t->storage_name());
                if (!maps) continue;
                for (const auto& tablet : maps->map.tablets()) {
                    if (tablet.replicas.empty()) ++tablets[host_id_];
                    for (const auto& r : tablet.replicas)
                        ++tablets[r];
                }
            }
        }
        if (!cluster_) {
            system::ClusterNodeRow me;
            me.host_id = host_id_;
            me.address = o.rpc_address;
            me.status = "UN";
            me.load_bytes = static_cast<int64_t>(
                storage_int_property("rocksdb.estimate-live-data-size").value_or(0));
            me.tablets = tablets[host_id_];
            me.data_center = "datacenter1";
            me.rack = "rack1";
            me.tokens = 1;
            me.schema_version = catalog_->version().raw();
            out.push_back(std::move(me));
            return out;
        }
        auto view = cluster_->membership().view();
        for (const auto& [id, n] : view->nodes) {
            system::ClusterNodeRow r;
            r.host_id = id;
            r.address = n.listen_address;
            const bool up = id == host_id_ || view->is_up(id);
            r.status =
                std::string(up ? "U" : "D") + (n.state == cluster::NodeState::kJoining   ? "J"
                                               : n.state == cluster::NodeState::kLeaving ? "L"
                                                                                         : "N");
            auto alive = view->alive.find(id);
            if (alive != view->alive.end()) {
                r.load_bytes = static_cast<int64_t>(alive->second.load_bytes);
                r.schema_version = alive->second.schema_version;
            }
            r.tablets = tablets[id];
            r.data_center = n.dc;
            r.rack = n.rack;
            r.tokens = static_cast<int32_t>(n.tokens.size());
            out.push_back(std::move(r));
        }
        return out;
    }

    // CALL system.repair(...): every tablet of the tables in scope, compared
    // and repaired across its replicas (cluster/repair.h). Runs on the
    // cluster's DDL thread (it waits).
    Result<ResultSet> repair(const std::vector<std::pair<std::string, const TableDef*>>& tables) {
        ResultSet rs;
        rs.kind = ResultSet::Kind::kRows;
        const auto text = native_type(TypeKind::kVarchar);
        const auto bigint = native_type(TypeKind::kBigint);
        rs.columns = {{"", "", "keyspace_name", text},
                      {"", "", "table_name", text},
                      {"", "", "ranges", bigint},
                      {"", "", "mismatched", bigint},
                      {"", "", "partitions", bigint}};
        auto big = [](uint64_t v) {
            std::string out;
            for (int s = 56; s >= 0; s -= 8)
                out.push_back(static_cast<char>((v >> s) & 0xFF));
            return std::optional<std::string>(out);
        };
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(30);
        for (const auto& [ks, def] : tables) {
            auto maps = tablets_->router().tablets(def->storage_name());
            if (!maps) continue;
            cluster::RepairReport total;
            for (size_t i = 0; i < maps->map.size(); ++i) {
                const Tablet& tablet = maps->map.at(i);
                if (tablet.replicas.size() < 2) continue;
                auto view = cluster_->membership().view();
                for (const auto& r : tablet.replicas) {
                    if (r != host_id_ && !view->is_up(r)) {
                        const cluster::NodeInfo* n = view->node(r);
                        return Status(ErrorCode::kUnavailable,
                                      "Repair needs every replica up: node " +
                                          (n ? n->listen_address : cluster::host_id_hex(r)) +
                                          " is down");
                    }
                }
                storage::KeyRange range;
                range.start_key = tablet.start;
                if (auto end = maps->map.end(i)) {
                    range.end_key = *end;
                    range.end_inclusive = false;
                }
                // The coroutine keeps references: no temporaries in its call.
                const std::string table_id = def->storage_name();
                auto report = sync_wait([&] {
                    return cluster::repair_tablet(cluster_->proxy(), table_id, range,
                                                  maps->map.hashed(), tablet.replicas, deadline);
                });
                if (!report.is_ok()) return report.status();
                total.ranges += report->ranges;
                total.mismatched += report->mismatched;
                total.partitions += report->partitions;
            }
            rs.rows.push_back({std::string(ks), def->name, big(total.ranges), big(total.mismatched),
                               big(total.partitions)});
        }
        return rs;
    }

    // The other nodes of the cluster, for system.peers.
    std::vector<system::PeerInfo> peer_infos() const {
        std::vector<system::PeerInfo> out;
        auto view = cluster_->membership().view();
        for (const auto& [id, n] : view->nodes) {
            if (id == host_id_) continue;
            system::PeerInfo p;
            p.host_id = id;
            p.listen_address = n.listen_address;
            p.rpc_address = n.rpc_address;
            p.native_port = n.native_port;
            p.storage_port = n.storage_port;
            p.data_center = n.dc;
            p.rack = n.rack;
            p.release_version = n.release_version;
            auto alive = view->alive.find(id);
            if (alive != view->alive.end()) p.schema_version = alive->second.schema_version;
            for (int64_t t : n.tokens)
                p.tokens.push_back(std::to_string(t));
            out.push_back(std::move(p));
        }
        return out;
    }

    void notify_cluster(const ClusterEvent& e) {
        std::vector<std::function<void(const ClusterEvent&)>> copy;
        {
            std::lock_guard<std::mutex> lock(listeners_mu_);
            for (const auto& [_, l] : cluster_listeners_)
                copy.push_back(l);
        }
        for (const auto& l : copy)
            l(e);
    }

    Status open_auth(const DatabaseOptions& o) {
        auth::AuthOptions ao;
        TESSEL_ASSIGN_OR_RETURN(ao.password_authenticator,
                                auth::parse_authenticator(o.authenticator));
        TESSEL_ASSIGN_OR_RETURN(ao.cassandra_authorizer, auth::parse_authorizer(o.authorizer));
        ao.resource_exists = [this](const cql::AuthResource& r) {
            static const std::map<std::pair<std::string, std::string>, cql::TablePtr> kNone;
            query::CatalogSchemaView view(query::catalog_snapshot(*catalog_), &kNone);
            if (r.level == cql::AuthResource::Level::kTable) {
                return view.find_table(r.keyspace, r.table) != nullptr;
            }
            return view.keyspace_exists(r.keyspace);
        };
        TESSEL_ASSIGN_OR_RETURN(
            auth_, auth::AuthService::open(embedded::make_store_catalog(store_.get(), "auth/"),
                                           std::move(ao)));
        for (auto& t : auth_->virtual_tables()) {
            TESSEL_RETURN_IF_ERROR(coordinator_->register_virtual_table(std::move(t)));
        }
        return Status::ok();
    }

    Status init_partition_health(const DatabaseOptions& o) {
        embedded::PartitionHealthOptions ho;
        ho.large = o.large_partitions;
        ho.tombstones = o.tombstones;
        ho.hot.window_ms = o.hot_partitions_window_ms;
        ho.hot.capacity = o.hot_partitions_capacity;
        health_ = std::make_shared<embedded::PartitionHealth>(
            store_.get(), ho, [this](const std::string& ks, const std::string& t) {
                embedded::PartitionHealth::TableSchema out;
                auto schema = query::catalog_snapshot(*catalog_);
                if (auto def = schema->table(ks, t)) {
                    out.info = query::table_info_from_def(*def);
                    out.create_statement = describe_table(*def);
                }
                return out;
            });
        coordinator_->set_observer(health_);
        auto* health = health_.get();
        TESSEL_RETURN_IF_ERROR(coordinator_->register_virtual_table(
            diagnostics::make_large_partitions_table(health->large())));
        TESSEL_RETURN_IF_ERROR(coordinator_->register_virtual_table(
            diagnostics::make_hot_partitions_table(health->hot())));
        return coordinator_->register_virtual_table(diagnostics::make_partition_advice_table(
            [health] { return health->advisor_statistics(); }, o.advisor));
    }

    void notify(const SchemaChange& c) {
        if (c.change_type == "DROPPED" && c.target == "TABLE") {
            health_->forget_table(c.keyspace, c.name);
        } else if (c.change_type == "DROPPED" && c.target == "KEYSPACE") {
            for (const auto& e : health_->hot().list()) {
                if (e.keyspace == c.keyspace) health_->forget_table(e.keyspace, e.table);
            }
            for (const auto& r : health_->large().records()) {
                if (r.keyspace == c.keyspace) health_->forget_table(r.keyspace, r.table);
            }
        }
        std::vector<std::function<void(const SchemaChange&)>> copy;
        {
            std::lock_guard<std::mutex> lock(listeners_mu_);
            for (const auto& [_, l] : listeners_)
                copy.push_back(l);
        }
        for (const auto& l : copy)
            l(c);
    }

    std::unique_ptr<storage::Store> store_;
    // Declared before what it serves and destroyed after it: on a cluster,
    // the node's messaging, control plane and storage proxy.
    std::unique_ptr<embedded::ClusterNode> cluster_;
    std::shared_ptr<CatalogStore> catalog_store_;
    std::shared_ptr<Catalog> catalog_;
    std::unique_ptr<cluster::Replica> replica_;
    std::unique_ptr<embedded::TabletService> tablets_;  // routes every request to a tablet
    std::shared_ptr<embedded::PartitionHealth> health_;
    std::unique_ptr<query::Coordinator> coordinator_;
    std::unique_ptr<auth::AuthService> auth_;
    std::string host_id_;
    std::mutex listeners_mu_;
    std::map<int, std::function<void(const SchemaChange&)>> listeners_;
    std::map<int, std::function<void(const ClusterEvent&)>> cluster_listeners_;
    int next_listener_ = 1;
};

class SessionImpl final : public Session {
  public:
    SessionImpl(DatabaseImpl* db, std::unique_ptr<auth::SessionAccess> access)
        : db_(db), access_(std::move(access)) {}

    // Statements go straight to the coordinator's Task (no coroutine layer
    // here); it tells access_ about this session's schema changes.
    Task<Result<ResultSet>> execute_async(std::string_view cql,
                                          const QueryOptions& options) override {
        if (auto call = diagnostics::parse_admin_call(cql)) return run_admin_call(std::move(*call));
        return db_->coordinator().execute(cql, options, &keyspace_, access_.get());
    }
    Result<PreparedStatement> prepare(std::string_view cql) override {
        return db_->coordinator().prepare(cql, keyspace_);
    }
    Task<Result<ResultSet>> execute_prepared_async(std::string_view id,
                                                   const QueryOptions& options) override {
        return db_->coordinator().execute_prepared(id, options, &keyspace_, access_.get());
    }
    Task<Result<ResultSet>> execute_batch_async(BatchType type,
                                                const std::vector<BatchEntry>& entries,
                                                const QueryOptions& options) override {
        return db_->coordinator().execute_batch(type, entries, options, &keyspace_, access_.get());
    }
    const std::string& keyspace() const override { return keyspace_; }
    Status require_superuser(std::string_view operation) const override {
        return access_->require_superuser(operation);
    }

  private:
    // CALL system.flush/compact/repair(...): operators only.
    Task<Result<ResultSet>> run_admin_call(Result<diagnostics::AdminCall> call) {
        if (!call.is_ok()) co_return call.status();
        const auto op = call->op;
        TESSEL_CO_RETURN_IF_ERROR(require_superuser(diagnostics::admin_call_name(op)));
        co_return co_await db_->run_admin_call(*call);
    }

    DatabaseImpl* db_;
    std::unique_ptr<auth::SessionAccess> access_;
    std::string keyspace_;
};

Task<Result<ResultSet>> DatabaseImpl::run_admin_call(const diagnostics::AdminCall& call) {
    auto schema = query::catalog_snapshot(*catalog_);
    std::vector<std::pair<std::string, const TableDef*>> tables;
    if (!call.keyspace.empty()) {
        auto ks = schema->keyspace(call.keyspace);
        if (!ks) co_return Status::invalid("Keyspace '" + call.keyspace + "' does not exist");
        if (!call.table.empty() && !ks->table(call.table)) {
            co_return Status::invalid("Table '" + call.keyspace + "." + call.table +
                                      "' does not exist");
        }
        for (const auto& [name, def] : ks->tables) {
            if (call.table.empty() || name == call.table) tables.emplace_back(ks->name, def.get());
        }
    } else {
        for (const auto& [ks_name, ks] : schema->keyspaces) {
            for (const auto& [name, def] : ks->tables)
                tables.emplace_back(ks_name, def.get());
        }
    }
    if (call.op == diagnostics::AdminCall::Op::kDecommission ||
        call.op == diagnostics::AdminCall::Op::kRemoveNode) {
        if (!cluster_) {
            co_return Status::invalid(std::string(diagnostics::admin_call_name(call.op)) +
                                      " needs a cluster: this node is alone");
        }
        const auto deadline = std::chrono::steady_clock::now() + kNodeLifecycleTimeout;
        embedded::ClusterNode* node = cluster_.get();
        const std::string host = call.host_id;
        const bool leave = call.op == diagnostics::AdminCall::Op::kDecommission;
        // Named, not a temporary of the co_await expression.
        std::function<Status()> work = [node, host, leave, deadline] {
            return leave ? node->decommission(deadline) : node->removenode(host, deadline);
        };
        Task<Status> running = node->run_lifecycle(std::move(work));
        Status st = co_await std::move(running);
        if (!st.is_ok()) co_return st;
        co_return ResultSet{};
    }
    if (call.op == diagnostics::AdminCall::Op::kRepair) {
        if (!cluster_) co_return Status::invalid("Repair needs a cluster: this node is alone");
        co_return co_await run_on(cluster_->control_executor(), [&] { return repair(tables); });
    }
    std::vector<std::string> table_ids;
    for (const auto& [_, def] : tables)
        table_ids.push_back(def->storage_name());
    co_return flush_or_compact(call, table_ids);
}

Result<ResultSet> DatabaseImpl::flush_or_compact(const diagnostics::AdminCall& call,
                                                 const std::vector<std::string>& table_ids) {
    if (call.op == diagnostics::AdminCall::Op::kFlush) {
        // Memtables are shared by every table's write path through one WAL:
        // a flush of any scope flushes them all (and persists statistics).
        TESSEL_RETURN_IF_ERROR(store_->flush());
    } else {
        for (const auto& id : table_ids) {
            if (store_->has_table(id)) TESSEL_RETURN_IF_ERROR(store_->compact(id));
        }
    }
    return ResultSet{};
}

std::unique_ptr<Session> DatabaseImpl::new_session() {
    return std::make_unique<SessionImpl>(this, auth_->access_for(""));
}

Result<std::unique_ptr<Session>> DatabaseImpl::login(std::string_view username,
                                                     std::string_view password) {
    TESSEL_RETURN_IF_ERROR(auth_->authenticate(username, password));
    return std::unique_ptr<Session>(
        std::make_unique<SessionImpl>(this, auth_->access_for(std::string(username))));
}

}  // namespace

Result<std::unique_ptr<Database>> Database::open(const DatabaseOptions& options) {
    return DatabaseImpl::open(options);
}

}  // namespace tessel
