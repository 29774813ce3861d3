// The embedded API: open a database on a directory and run CQL against it.
//
// This is the one entry point to the engine. The shell uses it directly
// (embedded mode), and the server (tesseld) maps every protocol request onto
// it, so a statement behaves the same whichever way it arrives.
//
// Thread-safety: Database is thread-safe. A Session is a connection's state
// (current keyspace) and must be used by one thread at a time; create one per
// connection. Values are CQL native-protocol encoded bytes (types/value.h has
// the functions to validate, print and compare them).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "common/task.h"
#include "diagnostics/advisor.h"
#include "diagnostics/large_partitions.h"
#include "diagnostics/tombstone_thresholds.h"
#include "partition/tablet_policy.h"
#include "types/cql_type.h"

namespace tessel {

namespace embedded {
class PartitionHealth;
}

enum class CommitlogSync { kPeriodic, kBatch };

// Tablets: how each table is cut into tablets and when they split and merge
// (docs/architecture.md, "Tablets"; the thresholds in partition/tablet_policy.h).
struct TabletOptions {
    int initial_tablets = 4;  // of a new hash table; it never merges below this
    int shards = 0;           // local shards the tablets are assigned to (0: 1; tesseld:
                              // one per event loop)
    TabletThresholds thresholds;
    int64_t evaluation_interval_ms = 10000;  // split/merge rounds; 0: only when asked
};

// Joining a cluster (docs/architecture.md, "Cluster"). Without etcd
// endpoints the database is a single node and needs nothing else.
struct ClusterOptions {
    std::vector<std::string> etcd_endpoints;  // "http://127.0.0.1:2379"; empty: one node
    // Where other nodes reach this one (internode messages), and its place.
    std::string listen_address = "127.0.0.1";
    int storage_port = 7000;
    std::string dc = "datacenter1";
    std::string rack = "rack1";
    int num_tokens = 16;            // ring tokens taken when the node first joins
    int lease_ttl_seconds = 10;     // past it without a keep-alive, the node is down
    int failure_timeout_ms = 5000;  // heartbeats: a silent peer is down here sooner
    int64_t max_hint_window_ms = 3 * 3600 * 1000;
    int messaging_threads = 1;
    // What this node streams to others (tablet moves), all streams together,
    // in megabits (125,000 bytes) per second; 0: unlimited (Cassandra 4.0's default).
    int64_t stream_throughput_outbound_megabits_per_sec = 200;
    // The tablet balancer (one node leads it): how often it plans a round,
    // and the migrations each node takes part in at once, in and out.
    bool balancer_enabled = true;
    int balancer_interval_ms = 5000;
    int max_migrations_in = 2;
    int max_migrations_out = 2;
    // Internode TLS (server_encryption_options): PEM files; both ends
    // verify the other's certificate against `ca`.
    bool tls_enabled = false;
    std::string tls_certificate;
    std::string tls_private_key;
    std::string tls_ca;
    bool tls_require_client_auth = true;

    bool enabled() const { return !etcd_endpoints.empty(); }
};

struct DatabaseOptions {
    std::string data_dir = "./data";
    // periodic: the WAL is fsynced every commitlog_sync_period_ms; batch: every
    // acknowledged write is fsynced before it is acknowledged (group commit).
    CommitlogSync commitlog_sync = CommitlogSync::kPeriodic;
    int commitlog_sync_period_ms = 10000;
    size_t block_cache_bytes = 256ull << 20;
    // Pages are cut at this many bytes even when fewer rows than the page size.
    size_t max_page_bytes = 4ull << 20;
    // Request timeouts in ms (cassandra.yaml's read_, range_ and
    // write_request_timeout_in_ms), counted from QueryOptions::received_at:
    // a read still running at its deadline stops with Read_timeout (a
    // single-partition read gets the read timeout, a scan the range one); a
    // write not started by its deadline is not applied and fails with
    // Write_timeout. 0 disables a timeout.
    int read_request_timeout_ms = 5000;
    int range_request_timeout_ms = 10000;
    int write_request_timeout_ms = 2000;
    // A batch over several partitions larger than the warn threshold gets a
    // client warning, larger than the fail threshold is refused ("Batch too
    // large"); one partition key of a keyspace may receive at most
    // max_mutation_size bytes per statement or batch (Cassandra: half of
    // commitlog_segment_size_in_mb).
    size_t batch_size_warn_threshold_bytes = 5u << 10;
    size_t batch_size_fail_threshold_bytes = 50u << 10;
    size_t max_mutation_size_bytes = 16u << 20;
    std::string cluster_name = "Tessel Cluster";
    // What system.local reports as this node's client address and port.
    std::string rpc_address = "127.0.0.1";
    int native_port = 9042;
    // Who gets in: AllowAllAuthenticator (no login) or PasswordAuthenticator;
    // what they may do: AllowAllAuthorizer or CassandraAuthorizer (short or
    // org.apache.cassandra.auth.* names). Sessions of the embedded API itself
    // (new_session()) always act with full rights.
    std::string authenticator = "AllowAllAuthenticator";
    std::string authorizer = "AllowAllAuthorizer";
    TabletOptions tablets;
    // Partition health: large-partition warn/fail thresholds (checked on
    // writes, reported in system.large_partitions), tombstone thresholds on
    // reads, and the window and size of the hot-partition counters.
    diagnostics::LargePartitionThresholds large_partitions;
    diagnostics::TombstoneThresholds tombstones;
    int64_t hot_partitions_window_ms = 60000;
    size_t hot_partitions_capacity = 128;  // counters per sketch
    // The advisor's budgets (system.partition_advice, tessel-admin advise).
    diagnostics::AdvisorConfig advisor;
    ClusterOptions cluster;
};

// A topology or status change of a cluster node, as drivers hear it
// (TOPOLOGY_CHANGE NEW_NODE / REMOVED_NODE, STATUS_CHANGE UP / DOWN), and
// kDecommissioned: this node left the cluster (its process may stop).
struct ClusterEvent {
    enum class Kind { kNewNode, kRemovedNode, kUp, kDown, kDecommissioned };
    Kind kind = Kind::kUp;
    std::string rpc_address;
    int native_port = 9042;
};

// A bound value as a client sends it.
struct BoundValue {
    enum class Kind { kValue, kNull, kUnset };
    Kind kind = Kind::kValue;
    std::string bytes;  // kValue only
    std::string name;   // set when values are bound by name
    static BoundValue value(std::string b) { return {Kind::kValue, std::move(b), {}}; }
    static BoundValue null() { return {Kind::kNull, {}, {}}; }
    static BoundValue unset() { return {Kind::kUnset, {}, {}}; }
};

// Consistency levels are accepted and recorded; one node satisfies them all.
struct QueryOptions {
    std::vector<BoundValue> values;
    bool named_values = false;
    int32_t page_size = -1;    // <= 0: no paging (everything, still bounded by bytes)
    std::string paging_state;  // empty: first page
    std::optional<int64_t> default_timestamp;  // client timestamp, microseconds
    uint16_t consistency = 0x000A;             // LOCAL_ONE
    std::optional<uint16_t> serial_consistency;
    // When the request arrived (the server sets the time its frame was read);
    // the default means "now", when execution starts.
    std::chrono::steady_clock::time_point received_at{};
};

struct ColumnSpec {
    std::string keyspace;
    std::string table;
    std::string name;
    TypePtr type;
};

struct SchemaChange {
    std::string change_type;  // CREATED | UPDATED | DROPPED
    std::string target;       // KEYSPACE | TABLE | TYPE | FUNCTION | AGGREGATE
    std::string keyspace;
    std::string name;  // empty for KEYSPACE
    std::vector<std::string> argument_types;
};

// The result of one statement, mirroring the protocol's RESULT kinds.
struct ResultSet {
    enum class Kind { kVoid, kRows, kSetKeyspace, kSchemaChange };
    Kind kind = Kind::kVoid;
    std::vector<ColumnSpec> columns;                            // kRows
    std::vector<std::vector<std::optional<std::string>>> rows;  // kRows; nullopt = null
    std::string paging_state;           // kRows: non-empty when more pages remain
    std::string keyspace;               // kSetKeyspace
    SchemaChange schema_change;         // kSchemaChange
    std::vector<std::string> warnings;  // client warnings (protocol warnings flag)
};

struct PreparedStatement {
    std::string id;  // MD5 of keyspace + query text: same on every connection and restart
    std::string query;
    std::string keyspace;                  // the session keyspace when prepared
    std::vector<ColumnSpec> bind_columns;  // one per bind marker, in order
    // For each partition-key column, in order, the index of its bind marker;
    // empty when some partition-key column is not a plain bind marker.
    std::vector<uint16_t> partition_key_indexes;
    std::vector<ColumnSpec> result_columns;  // empty for non-SELECT
};

enum class BatchType : uint8_t { kLogged = 0, kUnlogged = 1, kCounter = 2 };

struct BatchEntry {
    // Exactly one of query / prepared_id is non-empty.
    std::string query;
    std::string prepared_id;
    std::vector<BoundValue> values;
};

class Session;

class Database {
  public:
    virtual ~Database() = default;

    // Opens (creating if needed) the database in options.data_dir. Fails with a
    // clear message, never silently starting empty, when the catalog is corrupt.
    static Result<std::unique_ptr<Database>> open(const DatabaseOptions& options);

    virtual std::unique_ptr<Session> new_session() = 0;

    // True with PasswordAuthenticator: network clients must log in.
    virtual bool requires_login() const { return false; }
    // A session acting as `username` once its password checks out;
    // Bad_credentials "Provided username x and/or password are incorrect"
    // otherwise. The password check is deliberately slow (a salted KDF).
    virtual Result<std::unique_ptr<Session>> login(std::string_view username,
                                                   std::string_view password) {
        (void)username;
        (void)password;
        return Status(ErrorCode::kBadCredentials, "Authentication is not enabled");
    }

    // Called after every successful schema change, from the thread that made it,
    // before the statement's result is returned. Returns a subscription id.
    virtual int subscribe_schema_changes(std::function<void(const SchemaChange&)> listener) = 0;
    virtual void unsubscribe_schema_changes(int id) = 0;

    // Called on a cluster when a node joins, leaves, goes down or comes back
    // (from a control-plane thread). Returns a subscription id.
    virtual int subscribe_cluster_events(std::function<void(const ClusterEvent&)> listener) {
        (void)listener;
        return 0;
    }
    virtual void unsubscribe_cluster_events(int id) { (void)id; }

    // 16-byte UUID of the current schema; changes on every DDL.
    virtual std::string schema_version() const = 0;
    // This node's host id (16-byte UUID, persisted in the data directory).
    virtual std::string host_id() const = 0;

    // Flushes memtables and syncs the WAL (graceful stop, tessel-admin flush).
    virtual Status flush() = 0;

    // Runs one tablet split/merge round now (besides the periodic ones);
    // returns how many tablets were split or merged.
    virtual Result<size_t> evaluate_tablets() { return size_t{0}; }
    // The partition health tracking behind the diagnostics tables and metrics
    // (null for a Database without one).
    virtual const embedded::PartitionHealth* partition_health() const { return nullptr; }
    // A RocksDB property summed over the store ("rocksdb.estimate-live-data-size");
    // nullopt when unknown.
    virtual std::optional<uint64_t> storage_int_property(std::string_view name) const {
        (void)name;
        return std::nullopt;
    }
};

class Session {
  public:
    virtual ~Session() = default;

    // The asynchronous forms (what the server uses). The task finishes inside
    // the call unless a replica on another node is involved; until it
    // finishes, the arguments and the session must stay valid. A task that
    // suspended continues on the executor current where it suspended
    // (common/task.h), so a session is still used by one thread at a time.
    virtual Task<Result<ResultSet>> execute_async(std::string_view cql,
                                                  const QueryOptions& options) = 0;
    virtual Task<Result<ResultSet>> execute_prepared_async(std::string_view id,
                                                           const QueryOptions& options) = 0;
    virtual Task<Result<ResultSet>> execute_batch_async(BatchType type,
                                                        const std::vector<BatchEntry>& entries,
                                                        const QueryOptions& options) = 0;

    // The synchronous forms block the calling thread until the statement is
    // done: for embedded use, never on an event loop thread.
    // Runs one CQL statement (text with literals and/or bind markers).
    Result<ResultSet> execute(std::string_view cql, const QueryOptions& options) {
        return sync_wait([&] { return execute_async(cql, options); });
    }
    // Unknown id -> ErrorCode::kUnprepared with Status::detail1 = the id.
    Result<ResultSet> execute_prepared(std::string_view id, const QueryOptions& options) {
        return sync_wait([&] { return execute_prepared_async(id, options); });
    }
    // BATCH: options.values are ignored (each entry carries its own).
    Result<ResultSet> execute_batch(BatchType type, const std::vector<BatchEntry>& entries,
                                    const QueryOptions& options) {
        return sync_wait([&] { return execute_batch_async(type, entries, options); });
    }

    // Prepares a statement; the id is deterministic (see PreparedStatement).
    virtual Result<PreparedStatement> prepare(std::string_view cql) = 0;

    virtual const std::string& keyspace() const = 0;

    // OK when this session may run an operator command (CALL system.flush,
    // compaction, ...): always without CassandraAuthorizer, else only as a
    // superuser (Unauthorized "Only superusers are allowed to <operation>").
    virtual Status require_superuser(std::string_view operation) const {
        (void)operation;
        return Status::ok();
    }
};

}  // namespace tessel
