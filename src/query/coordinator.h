// Coordinator: runs CQL statements — parse, prepare (with a global prepared
// statement cache), then execute the plan through the Replica: schema changes
// via the catalog, writes as mutations, reads page by page.
//
// Thread-safe: any number of sessions may call it concurrently. Per-session
// state (the current keyspace) is passed in by the caller.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cql/plan.h"
#include "query/access.h"
#include "query/mutation_limits.h"
#include "query/observer.h"
#include "query/plan_cache.h"
#include "query/schema_executor.h"
#include "query/table_source.h"
#include "query/virtual_table.h"
#include "query/write_builder.h"
#include "tessel/database.h"

namespace tessel {
class Catalog;
namespace cluster {
class StorageProxy;
}
}  // namespace tessel

namespace tessel::query {

class WriteReads;
struct CasTarget;

struct CoordinatorOptions {
    size_t max_page_bytes = 4u << 20;
    size_t prepared_cache_entries = 10000;
    size_t adhoc_cache_entries = 2000;
    std::string node_secret;  // signs paging states
    // Request timeouts in ms (DatabaseOptions); 0 disables.
    int read_timeout_ms = 5000;
    int range_timeout_ms = 10000;
    int write_timeout_ms = 2000;
    MutationLimits limits;
};

class Coordinator {
  public:
    // `catalog` and `replica` must outlive the coordinator.
    Coordinator(Catalog* catalog, Replica* replica, CoordinatorOptions options);
    ~Coordinator();

    // Makes a virtual table queryable (its schema_cql is parsed once here).
    Status register_virtual_table(std::unique_ptr<VirtualTable> table);

    // Partition health hooks (see observer.h); set before serving requests.
    void set_observer(std::shared_ptr<QueryObserver> observer) { observer_ = std::move(observer); }
    QueryObserver* observer() const { return observer_.get(); }

    // Called after each successful schema change, before its result returns.
    void set_schema_listener(std::function<void(const SchemaChange&)> listener);

    // On a cluster: DDL runs on `ddl_executor` (its etcd transaction blocks),
    // `refresh` reloads the catalog when another node's DDL won a race, and
    // TRUNCATE goes to every node through `proxy`.
    void set_cluster_ddl(Executor* ddl_executor, std::function<Status()> refresh,
                         cluster::StorageProxy* proxy);

    // `keyspace` is the session's current keyspace; USE changes it. `access`
    // (the session's, may be null: no checks, no role statements) authorizes
    // every plan before it runs. Every argument must stay valid until the
    // returned task finishes (it finishes inside the call unless a remote
    // replica is involved).
    Task<Result<ResultSet>> execute(std::string_view cql, const QueryOptions& options,
                                    std::string* keyspace, AccessControl* access = nullptr);
    Result<PreparedStatement> prepare(std::string_view cql, const std::string& keyspace);
    Task<Result<ResultSet>> execute_prepared(std::string_view id, const QueryOptions& options,
                                             std::string* keyspace,
                                             AccessControl* access = nullptr);
    Task<Result<ResultSet>> execute_batch(BatchType type, const std::vector<BatchEntry>& entries,
                                          const QueryOptions& options, std::string* keyspace,
                                          AccessControl* access = nullptr);

    // MD5 of keyspace + query text (Cassandra's prepared statement id).
    static std::string statement_id(const std::string& keyspace, std::string_view cql);

    // A write timestamp from the server clock: microseconds, strictly increasing.
    int64_t next_timestamp();

  private:
    using PlanPtr = std::shared_ptr<const cql::Plan>;

    Result<PlanPtr> plan_for(std::string_view cql, const std::string& keyspace);
    Result<PlanPtr> lookup_prepared(std::string_view id);
    // Parses and prepares `cql`, remembering the plan in `cache`.
    Result<PlanPtr> build_plan(std::string_view cql, const std::string& keyspace, PlanCache& cache);
    std::string schema_version() const;

    // Not a coroutine: a SELECT or a single modification whose values are
    // bound in place goes straight to run_select / run_modify; the rest to
    // run_statement.
    Task<Result<ResultSet>> run(PlanPtr plan, const QueryOptions& options, std::string* keyspace,
                                AccessControl* access);
    Task<Result<ResultSet>> run_statement(PlanPtr plan, const QueryOptions& options,
                                          std::string* keyspace, AccessControl* access);
    Result<std::vector<BoundValue>> bind(const cql::Plan& plan, const QueryOptions& options);
    Result<ResultSet> run_use(const cql::UsePlan& use, std::string* keyspace);
    Task<Result<ResultSet>> run_schema(const cql::SchemaPlan& s, const cql::Plan& plan);
    Result<SchemaOutcome> execute_schema(const cql::SchemaPlan& s);
    // run_select and run_modify hold `plan` (a SelectPlan / ModifyPlan) until
    // they finish.
    Task<Result<ResultSet>> run_select(PlanPtr plan, const std::vector<BoundValue>& values,
                                       const QueryOptions& options);
    // Write_timeout (of `write_type`) when the request's write deadline passed.
    Status check_write_deadline(const QueryOptions& options, const char* write_type) const;
    // What the replicas are asked for: the request's consistency, and its
    // deadline for a write (`write_type`) or a read (write_type null).
    RequestOptions request_options(const QueryOptions& options, const char* write_type) const;
    // SERIAL reads: a Paxos round on the read's partition first (Invalid for
    // more than one), then a QUORUM (LOCAL_QUORUM) read.
    Task<Status> serial_read_barrier(const cql::SelectPlan& s,
                                     const std::vector<BoundValue>& values, RequestOptions* ro);
    Task<Result<ResultSet>> run_modify(PlanPtr plan, const std::vector<BoundValue>& values,
                                       const QueryOptions& options);

    // Batch members, each with its values (lwt.cpp).
    struct BatchItem {
        const cql::ModifyPlan* plan;
        const std::vector<BoundValue>* values;
    };
    using TableMutation = std::pair<const cql::TableInfo*, storage::PartitionMutation>;
    // A statement's mutations as built (logical partitions, what partition
    // health observes) and as routed to physical partitions (what is applied).
    struct Writes {
        std::vector<TableMutation> logical;
        // Per physical partition; empty when that is `logical` (no table of
        // the statement has hidden key components).
        std::vector<TableMutation> physical;
        bool routed = false;
        const std::vector<TableMutation>& to_apply() const { return routed ? physical : logical; }
    };
    // A conditional statement's outcome against the rows it read: the result
    // to return and, when applied, the mutations to write.
    struct CasDecision {
        bool applied = false;
        ResultSet result;
        std::vector<TableMutation> mutations;
    };
    // is_batch: a BATCH statement (its LWT failure rows show the primary key).
    Task<Result<ResultSet>> run_batch(const std::vector<BatchItem>& items, int64_t timestamp,
                                      bool counter_batch, const RequestOptions& ro,
                                      bool is_batch = true);
    // Builds the mutations of `items` against the rows read so far (see
    // write_reads.h: fails with reads.has_missing() when a read is missing).
    Result<Writes> build_writes(const std::vector<BatchItem>& items, int64_t timestamp, int64_t now,
                                WriteReads& reads);
    Task<Status> apply_all(const std::vector<TableMutation>& mutations, const RequestOptions& ro);
    Task<Status> apply_each(const std::vector<TableMutation>& mutations, const RequestOptions& ro);
    Task<Result<ResultSet>> run_conditional(const std::vector<BatchItem>& items, int64_t timestamp,
                                            bool is_batch, const RequestOptions& ro);
    Result<CasDecision> decide_conditional(const std::vector<BatchItem>& items,
                                           const std::vector<CasTarget>& targets, int64_t timestamp,
                                           int64_t now, const RowFetcher& fetch, bool is_batch);
    Status observe_writes(const std::vector<TableMutation>& all);

    Catalog* catalog_;
    Replica* replica_;
    CoordinatorOptions options_;
    std::function<void(const SchemaChange&)> listener_;
    std::shared_ptr<QueryObserver> observer_;
    std::mutex ddl_mu_;
    Executor* ddl_executor_ = nullptr;
    std::function<Status()> refresh_schema_;
    cluster::StorageProxy* proxy_ = nullptr;
    std::atomic<int64_t> last_timestamp_{0};

    // Statements prepared by clients, and those run as plain text (kept
    // apart so ad-hoc traffic never evicts what drivers prepared).
    PlanCache prepared_;
    PlanCache adhoc_;

    struct Virtual {
        std::unique_ptr<VirtualTable> table;
        cql::TablePtr info;
    };
    std::map<std::pair<std::string, std::string>, Virtual> virtuals_;
    std::map<std::pair<std::string, std::string>, cql::TablePtr> virtual_infos_;
};

}  // namespace tessel::query
