#include "query/coordinator.h"

#include <openssl/evp.h>

#include <algorithm>
#include <chrono>

#include "cluster/etcd_catalog_store.h"
#include "cluster/storage_proxy.h"
#include "cql/parser.h"
#include "cql/prepare.h"
#include "cql/prepare_functions.h"
#include "query/key_values.h"
#include "query/paging_state.h"
#include "query/read_executor.h"
#include "query/schema_executor.h"
#include "query/schema_view.h"
#include "query/sharded_source.h"
#include "query/table_source.h"
#include "query/term_eval.h"
#include "query/write_builder.h"
#include "schema/keyspace.h"
#include "types/bytes_util.h"

namespace tessel::query {
namespace {

std::string fingerprint(const cql::Plan& plan, const std::vector<BoundValue>& values) {
    Fingerprint f;
    f.add(plan.keyspace);
    f.add(plan.text);
    for (const auto& v : values) {
        f.add_int(static_cast<int>(v.kind));
        f.add(v.bytes);
    }
    return f.finish();
}

Status invalid_paging_state() {
    return Status::invalid("Invalid paging state");
}

// The deadline of a request that arrived at `received_at` (default: now).
std::chrono::steady_clock::time_point deadline_of(const QueryOptions& options, int timeout_ms) {
    if (timeout_ms <= 0) return std::chrono::steady_clock::time_point::max();
    auto start = options.received_at == std::chrono::steady_clock::time_point{}
                     ? std::chrono::steady_clock::now()
                     : options.received_at;
    return start + std::chrono::milliseconds(timeout_ms);
}

}  // namespace

RequestOptions Coordinator::request_options(const QueryOptions& options,
                                            const char* write_type) const {
    RequestOptions ro;
    ro.consistency =
        cluster::consistency_from_code(options.consistency).value_or(cluster::Consistency::kOne);
    if (options.serial_consistency &&
        *options.serial_consistency == static_cast<uint16_t>(cluster::Consistency::kLocalSerial)) {
        ro.serial = cluster::Consistency::kLocalSerial;
    }
    if (write_type) {
        ro.write_type = write_type;
        ro.deadline = deadline_of(options, options_.write_timeout_ms);
    } else {
        ro.deadline = deadline_of(options, options_.read_timeout_ms);
    }
    return ro;
}

Status Coordinator::check_write_deadline(const QueryOptions& options,
                                         const char* write_type) const {
    if (std::chrono::steady_clock::now() < deadline_of(options, options_.write_timeout_ms)) {
        return Status::ok();
    }
    Status st(ErrorCode::kWriteTimeout, "Operation timed out - received only 0 responses.");
    st.detail1 = write_type;
    return st;
}

Coordinator::Coordinator(Catalog* catalog, Replica* replica, CoordinatorOptions options)
    : catalog_(catalog),
      replica_(replica),
      options_(std::move(options)),
      prepared_(options_.prepared_cache_entries),
      adhoc_(options_.adhoc_cache_entries) {}

Coordinator::~Coordinator() = default;

std::string Coordinator::statement_id(const std::string& keyspace, std::string_view cql) {
    std::string input = keyspace;
    input.append(cql);
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_Digest(input.data(), input.size(), md, &len, EVP_md5(), nullptr);
    return std::string(reinterpret_cast<const char*>(md), len);
}

int64_t Coordinator::next_timestamp() {
    const int64_t now = cql::now_micros();
    int64_t prev = last_timestamp_.load();
    while (true) {
        const int64_t next = std::max(now, prev + 1);
        if (last_timestamp_.compare_exchange_weak(prev, next)) return next;
    }
}

void Coordinator::set_schema_listener(std::function<void(const SchemaChange&)> listener) {
    listener_ = std::move(listener);
}

std::string Coordinator::schema_version() const {
    return catalog_snapshot(*catalog_)->version.raw();
}

Status Coordinator::register_virtual_table(std::unique_ptr<VirtualTable> table) {
    TESSEL_ASSIGN_OR_RETURN(auto st, cql::parse_statement(table->schema_cql()));
    if (!st.is<cql::CreateTableStatement>()) {
        return Status::server("virtual table schema is not a CREATE TABLE: " + table->schema_cql());
    }
    CatalogSchemaView view(catalog_snapshot(*catalog_), &virtual_infos_);
    TESSEL_ASSIGN_OR_RETURN(
        auto info,
        cql::table_info_from_create(st.as<cql::CreateTableStatement>(), table->keyspace(), view));
    info.keyspace = table->keyspace();
    info.name = table->name();
    info.id = "virtual:" + info.keyspace + "." + info.name;
    info.is_virtual = true;
    info.hashed = false;
    auto ptr = std::make_shared<const cql::TableInfo>(std::move(info));
    auto key = std::make_pair(ptr->keyspace, ptr->name);
    virtual_infos_[key] = ptr;
    virtuals_[key] = Virtual{std::move(table), ptr};
    return Status::ok();
}

// --- prepared statement cache ----------------------------------------------

Result<Coordinator::PlanPtr> Coordinator::build_plan(std::string_view cql,
                                                     const std::string& keyspace,
                                                     PlanCache& cache) {
    TESSEL_ASSIGN_OR_RETURN(auto st, cql::parse_statement(cql));
    auto entry = std::make_shared<CachedPlan>();
    entry->schema_version = schema_version();
    CatalogSchemaView view(catalog_snapshot(*catalog_), &virtual_infos_);
    TESSEL_ASSIGN_OR_RETURN(entry->plan, cql::prepare(st, keyspace, view));
    entry->id = statement_id(keyspace, cql);
    entry->text = std::string(cql);
    entry->keyspace = keyspace;
    PlanPtr plan = entry->plan;
    cache.put(std::move(entry));
    return plan;
}

Result<Coordinator::PlanPtr> Coordinator::plan_for(std::string_view cql,
                                                   const std::string& keyspace) {
    const std::string id = statement_id(keyspace, cql);
    for (PlanCache* cache : {&adhoc_, &prepared_}) {
        auto e = cache->find(id);
        if (e && e->schema_version == schema_version() && e->text == cql &&
            e->keyspace == keyspace) {
            return e->plan;
        }
    }
    return build_plan(cql, keyspace, adhoc_);
}

Result<Coordinator::PlanPtr> Coordinator::lookup_prepared(std::string_view id) {
    auto e = prepared_.find(std::string(id));
    if (!e) {
        Status s(ErrorCode::kUnprepared,
                 "Prepared query with ID " + bytes::to_hex(id) +
                     " not found (either the query was not prepared on this host (maybe the "
                     "host has been restarted?) or you have prepared too many queries and it "
                     "has been evicted from the internal cache)");
        s.detail1 = std::string(id);
        return s;
    }
    if (e->schema_version == schema_version()) return e->plan;
    // The schema changed since it was prepared: prepare it again.
    return build_plan(e->text, e->keyspace, prepared_);
}

Result<PreparedStatement> Coordinator::prepare(std::string_view cql, const std::string& keyspace) {
    TESSEL_ASSIGN_OR_RETURN(auto plan, build_plan(cql, keyspace, prepared_));
    PreparedStatement ps;
    ps.id = statement_id(keyspace, cql);
    ps.query = std::string(cql);
    ps.keyspace = keyspace;
    ps.bind_columns = plan->bind_specs;
    ps.partition_key_indexes = plan->partition_key_indexes;
    ps.result_columns = plan->result_columns;
    return ps;
}

// --- execution -------------------------------------------------------------

Task<Result<ResultSet>> Coordinator::execute(std::string_view cql, const QueryOptions& options,
                                             std::string* keyspace, AccessControl* access) {
    // Not a coroutine, as execute_prepared below.
    auto plan = plan_for(cql, *keyspace);
    if (!plan.is_ok()) return ready_task<Result<ResultSet>>(std::move(plan).status());
    return run(std::move(plan).value(), options, keyspace, access);
}

Task<Result<ResultSet>> Coordinator::execute_prepared(std::string_view id,
                                                      const QueryOptions& options,
                                                      std::string* keyspace,
                                                      AccessControl* access) {
    // Not a coroutine: the request runs in run()'s frame (one layer less on
    // every prepared statement).
    auto plan = lookup_prepared(id);
    if (!plan.is_ok()) return ready_task<Result<ResultSet>>(std::move(plan).status());
    return run(std::move(plan).value(), options, keyspace, access);
}

Result<std::vector<BoundValue>> Coordinator::bind(const cql::Plan& plan,
                                                  const QueryOptions& options) {
    const size_t n = plan.bind_specs.size();
    if (!options.named_values) {
        if (options.values.size() != n) {
            return Status::invalid("There were " + std::to_string(n) + " markers(?) in CQL but " +
                                   std::to_string(options.values.size()) + " bound variables");
        }
        return options.values;
    }
    std::vector<BoundValue> out(n, BoundValue::unset());
    std::vector<bool> filled(n, false);
    for (const auto& v : options.values) {
        bool found = false;
        for (size_t i = 0; i < n; ++i) {
            if (!filled[i] && plan.bind_specs[i].name == v.name) {
                out[i] = v;
                filled[i] = true;
                found = true;
                break;
            }
        }
        if (!found) return Status::invalid("Invalid named value " + v.name);
    }
    for (size_t i = 0; i < n; ++i) {
        if (!filled[i])
            return Status::invalid("No value for bind variable " + plan.bind_specs[i].name);
    }
    return out;
}

Task<Result<ResultSet>> Coordinator::run(PlanPtr plan_ptr, const QueryOptions& options,
                                         std::string* keyspace, AccessControl* access) {
    const cql::Plan& plan = *plan_ptr;
    if (access) {
        if (Status st = access->authorize(plan); !st.is_ok()) {
            return ready_task<Result<ResultSet>>(std::move(st));
        }
    }
    if (!options.named_values && options.values.size() == plan.bind_specs.size()) {
        if (std::holds_alternative<cql::SelectPlan>(plan.node)) {
            return run_select(std::move(plan_ptr), options.values, options);
        }
        if (std::holds_alternative<cql::ModifyPlan>(plan.node)) {
            return run_modify(std::move(plan_ptr), options.values, options);
        }
    }
    return run_statement(std::move(plan_ptr), options, keyspace, access);
}

// Authorized by run().
Task<Result<ResultSet>> Coordinator::run_statement(PlanPtr plan_ptr, const QueryOptions& options,
                                                   std::string* keyspace, AccessControl* access) {
    const cql::Plan& plan = *plan_ptr;
    if (const auto* a = std::get_if<cql::AuthPlan>(&plan.node)) {
        if (!access) co_return Status::invalid("Roles and permissions are not available here");
        co_return access->run_auth(*a);
    }
    // Positional values of the right count are used in place; bind() copies
    // only to reorder named values or to report a count mismatch.
    std::vector<BoundValue> bound;
    const std::vector<BoundValue>* in_place = &options.values;
    if (options.named_values || options.values.size() != plan.bind_specs.size()) {
        TESSEL_CO_ASSIGN_OR_RETURN(bound, bind(plan, options));
        in_place = &bound;
    }
    const std::vector<BoundValue>& values = *in_place;
    if (std::holds_alternative<cql::BatchPlan>(plan.node)) {
        TESSEL_CO_RETURN_IF_ERROR(check_write_deadline(options, "BATCH"));
    }
    if (const auto* use = std::get_if<cql::UsePlan>(&plan.node)) {
        co_return run_use(*use, keyspace);
    }
    if (const auto* s = std::get_if<cql::SchemaPlan>(&plan.node)) {
        auto result = co_await run_schema(*s, plan);
        if (access && result.is_ok() && result->kind == ResultSet::Kind::kSchemaChange) {
            access->on_schema_change(result->schema_change);
        }
        co_return result;
    }
    if (std::holds_alternative<cql::SelectPlan>(plan.node)) {
        co_return co_await run_select(plan_ptr, values, options);
    }
    if (std::holds_alternative<cql::ModifyPlan>(plan.node)) {
        co_return co_await run_modify(plan_ptr, values, options);
    }
    const auto& b = std::get<cql::BatchPlan>(plan.node);
    int64_t ts = options.default_timestamp ? *options.default_timestamp : next_timestamp();
    if (b.timestamp) {
        TESSEL_CO_ASSIGN_OR_RETURN(auto v, evaluate(*b.timestamp, values));
        if (v.is_null()) co_return Status::invalid("Invalid null value of timestamp");
        if (v.is_value()) ts = static_cast<int64_t>(cql::decode_bigint(v.bytes));
    }
    std::vector<BatchItem> items;
    for (const auto& m : b.statements)
        items.push_back({&m, &values});
    const bool counter = b.kind == cql::BatchStatement::Kind::kCounter;
    const char* write_type = counter                                          ? "COUNTER"
                             : b.kind == cql::BatchStatement::Kind::kUnlogged ? "UNLOGGED_BATCH"
                                                                              : "BATCH";
    co_return co_await run_batch(items, ts, counter, request_options(options, write_type));
}

Result<ResultSet> Coordinator::run_use(const cql::UsePlan& use, std::string* keyspace) {
    CatalogSchemaView view(catalog_snapshot(*catalog_), &virtual_infos_);
    if (!view.keyspace_exists(use.keyspace)) {
        return Status::invalid("Keyspace '" + use.keyspace + "' does not exist");
    }
    *keyspace = use.keyspace;
    ResultSet rs;
    rs.kind = ResultSet::Kind::kSetKeyspace;
    rs.keyspace = use.keyspace;
    return rs;
}

namespace {

// On a cluster, TRUNCATE reaches every node's copy of the table; the rest of
// a table's lifecycle is this node's (the others follow the catalog).
class ClusterTruncate final : public Replica {
  public:
    ClusterTruncate(Replica* local, cluster::StorageProxy* proxy, int timeout_ms)
        : local_(local), proxy_(proxy), timeout_ms_(timeout_ms) {}
    Task<Status> apply(const std::string& t, const storage::PartitionMutation& m,
                       const RequestOptions& o) override {
        return local_->apply(t, m, o);
    }
    Task<Result<std::unique_ptr<PartitionStream>>> read(const std::string& t, const std::string& k,
                                                        const SliceSpec& s, int64_t now,
                                                        const RequestOptions& o) override {
        return local_->read(t, k, s, now, o);
    }
    Task<Result<std::unique_ptr<PartitionCursor>>> scan(const std::string& t, const KeyRange& r,
                                                        int64_t now,
                                                        const RequestOptions& o) override {
        return local_->scan(t, r, now, o);
    }
    Task<Result<bool>> cas(const std::string& t, const std::string& k, const RequestOptions& o,
                           cluster::CasDecider decide) override {
        return local_->cas(t, k, o, std::move(decide));
    }
    Status create_table(const std::string& t, int32_t gc) override {
        return local_->create_table(t, gc);
    }
    Status drop_table(const std::string& t) override { return local_->drop_table(t); }
    // Runs on the DDL thread, never on an event loop: it may wait.
    Status truncate_table(const std::string& t) override {
        const auto deadline =
            std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms_);
        return sync_wait([&] { return proxy_->truncate(t, deadline); });
    }
    Status set_gc_grace(const std::string& t, int32_t gc) override {
        return local_->set_gc_grace(t, gc);
    }
    bool has_table(const std::string& t) const override { return local_->has_table(t); }
    Status flush() override { return local_->flush(); }
    int64_t now_seconds() const override { return local_->now_seconds(); }

  private:
    Replica* local_;
    cluster::StorageProxy* proxy_;
    int timeout_ms_;
};

}  // namespace

void Coordinator::set_cluster_ddl(Executor* ddl_executor, std::function<Status()> refresh,
                                  cluster::StorageProxy* proxy) {
    ddl_executor_ = ddl_executor;
    refresh_schema_ = std::move(refresh);
    proxy_ = proxy;
}

Result<SchemaOutcome> Coordinator::execute_schema(const cql::SchemaPlan& s) {
    std::lock_guard<std::mutex> lock(ddl_mu_);
    if (!proxy_) {
        return execute_schema_statement(s.statement, s.keyspace, *catalog_, *replica_,
                                        next_timestamp());
    }
    // Another node may change the schema first: the catalog is refreshed and
    // the statement runs again against the new schema (it then fails with
    // the error that schema gives it, or applies).
    ClusterTruncate replica(replica_, proxy_, options_.write_timeout_ms * 5);
    for (int attempt = 0;; ++attempt) {
        auto out =
            execute_schema_statement(s.statement, s.keyspace, *catalog_, replica, next_timestamp());
        if (out.is_ok() || attempt >= 3 ||
            !cluster::EtcdCatalogStore::is_stale_schema(out.status()) || !refresh_schema_) {
            return out;
        }
        TESSEL_RETURN_IF_ERROR(refresh_schema_());
    }
}

Task<Result<ResultSet>> Coordinator::run_schema(const cql::SchemaPlan& s, const cql::Plan&) {
    SchemaOutcome out;
    if (ddl_executor_) {
        // Schema changes wait for etcd: off the event loop.
        TESSEL_CO_ASSIGN_OR_RETURN(
            out, co_await run_on(ddl_executor_, [&] { return execute_schema(s); }));
    } else {
        TESSEL_CO_ASSIGN_OR_RETURN(out, execute_schema(s));
    }
    ResultSet rs;
    rs.warnings = std::move(out.warnings);
    if (out.describe) {
        rs.kind = ResultSet::Kind::kRows;
        const auto text = native_type(TypeKind::kVarchar);
        for (const char* n : {"keyspace_name", "type", "name", "create_statement"}) {
            rs.columns.push_back(ColumnSpec{"", "", n, text});
        }
        for (auto& r : out.describe_rows) {
            std::vector<std::optional<std::string>> row(r.begin(), r.end());
            rs.rows.push_back(std::move(row));
        }
        co_return rs;
    }
    if (!out.changed) co_return rs;
    rs.kind = ResultSet::Kind::kSchemaChange;
    rs.schema_change = SchemaChange{out.change_type, out.target, out.keyspace, out.name, {}};
    if (listener_) listener_(rs.schema_change);
    co_return rs;
}

Task<Result<ResultSet>> Coordinator::run_select(PlanPtr plan_ptr,
                                                const std::vector<BoundValue>& values,
                                                const QueryOptions& options) {
    const cql::Plan& plan = *plan_ptr;
    const auto& s = std::get<cql::SelectPlan>(plan.node);
    const cql::TableInfo& t = *s.table;
    // The fingerprint (a SHA-256) is only needed to check or sign a paging
    // state, which most single-page reads never do.
    std::string fp;
    auto statement_fingerprint = [&]() -> const std::string& {
        if (fp.empty()) fp = fingerprint(plan, values);
        return fp;
    };
    ReadRequest req;
    req.plan = &s;
    req.values = &values;
    req.page_size = options.page_size;
    req.max_page_bytes = options_.max_page_bytes;
    req.now_seconds = replica_->now_seconds();
    req.observer = observer_.get();
    req.deadline =
        deadline_of(options, s.where.partition_values.empty() ? options_.range_timeout_ms
                                                              : options_.read_timeout_ms);
    if (!options.paging_state.empty()) {
        auto st = decode_paging_state(options.paging_state, options_.node_secret);
        if (!st.is_ok()) co_return invalid_paging_state();
        TESSEL_CO_RETURN_IF_ERROR(
            check_resume(*st, t, statement_fingerprint(), columns_digest(plan.result_columns)));
        req.resume = std::move(st).value();
    }
    if (s.reversed && options.page_size > 0) {
        for (const auto& kv : s.where.partition_values) {
            if (kv.is_in) {
                TESSEL_CO_ASSIGN_OR_RETURN(auto targets,
                                           partition_targets(s.where, t, layout_of(t), values));
                if (targets.size() > 1) {
                    co_return Status::invalid(
                        "Cannot page queries with both ORDER BY and a IN restriction on the "
                        "partition key; you must either remove the ORDER BY or the IN and sort "
                        "client side, or disable paging for this query");
                }
            }
        }
    }
    std::unique_ptr<TableSource> source;
    if (t.is_virtual) {
        auto it = virtuals_.find({t.keyspace, t.name});
        if (it == virtuals_.end()) co_return Status::invalid("unconfigured table " + t.name);
        TESSEL_CO_ASSIGN_OR_RETURN(source, make_virtual_source(*it->second.table, t, layout_of(t)));
    } else {
        RequestOptions ro = request_options(options, nullptr);
        ro.deadline = req.deadline;
        if (cluster::is_serial(ro.consistency)) {
            TESSEL_CO_RETURN_IF_ERROR(co_await serial_read_barrier(s, values, &ro));
        }
        source = make_replica_source(replica_, t.id, req.now_seconds, ro);
        if (t.has_hidden_key()) source = make_sharded_source(std::move(source), t);
    }
    TESSEL_CO_ASSIGN_OR_RETURN(auto page, co_await execute_read(*source, req));
    ResultSet rs;
    if (observer_ && !t.is_virtual) {
        TESSEL_CO_RETURN_IF_ERROR(
            observer_->after_read(t, page.tombstones, page.rows.size(), plan.text, &rs.warnings));
    }
    rs.kind = ResultSet::Kind::kRows;
    rs.columns = plan.result_columns;
    rs.rows = std::move(page.rows);
    if (page.next) {
        page.next->table_id = t.id;
        page.next->fingerprint = statement_fingerprint();
        page.next->columns = columns_digest(plan.result_columns);
        rs.paging_state = encode_paging_state(*page.next, options_.node_secret);
    }
    co_return rs;
}

Task<Status> Coordinator::serial_read_barrier(const cql::SelectPlan& s,
                                              const std::vector<BoundValue>& values,
                                              RequestOptions* ro) {
    const cql::TableInfo& t = *s.table;
    if (!s.where.partition_restricted() || t.has_hidden_key()) {
        co_return Status::invalid(
            "SERIAL/LOCAL_SERIAL consistency may only be requested for one partition at a time");
    }
    TESSEL_CO_ASSIGN_OR_RETURN(auto targets, partition_targets(s.where, t, layout_of(t), values));
    if (targets.size() != 1) {
        co_return Status::invalid(
            "SERIAL/LOCAL_SERIAL consistency may only be requested for one partition at a time");
    }
    // A transaction round that commits an empty update: it finishes any
    // proposal left in progress, so the read sees every committed
    // transaction, and makes sure one it did not see is never finished
    // after it (a later read cannot see what this one did not).
    ro->serial = ro->consistency;
    storage::PartitionMutation empty;
    empty.partition_key = targets[0].key;
    cluster::CasDecider nothing =
        [empty](int64_t) -> Task<Result<std::optional<storage::PartitionMutation>>> {
        co_return std::optional<storage::PartitionMutation>(empty);
    };
    auto round = co_await replica_->cas(t.id, targets[0].key, *ro, nothing);
    if (!round.is_ok()) {
        // Cassandra answers a SERIAL read that could not finish its round
        // in time with a Read_timeout.
        const Status& st = round.status();
        if (st.code() == ErrorCode::kWriteTimeout && st.replicas) {
            co_return cluster::read_timeout(ro->serial, 0, st.replicas->block_for, false);
        }
        co_return st;
    }
    ro->consistency = ro->serial == cluster::Consistency::kLocalSerial
                          ? cluster::Consistency::kLocalQuorum
                          : cluster::Consistency::kQuorum;
    co_return Status::ok();
}

Task<Result<ResultSet>> Coordinator::run_modify(PlanPtr plan, const std::vector<BoundValue>& values,
                                                const QueryOptions& options) {
    const auto& m = std::get<cql::ModifyPlan>(plan->node);
    const char* write_type = m.is_conditional()    ? "CAS"
                             : m.table->is_counter ? "COUNTER"
                                                   : "SIMPLE";
    TESSEL_CO_RETURN_IF_ERROR(
        check_write_deadline(options, m.table->is_counter ? "COUNTER" : "SIMPLE"));
    const int64_t ts = options.default_timestamp ? *options.default_timestamp : next_timestamp();
    const std::vector<BatchItem> items{BatchItem{&m, &values}};
    co_return co_await run_batch(items, ts, m.table->is_counter,
                                 request_options(options, write_type), /*is_batch=*/false);
}

}  // namespace tessel::query
