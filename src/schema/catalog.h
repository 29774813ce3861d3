// Catalog: the live schema, its DDL operations, and their persistence.
//
// Readers call snapshot() and get an immutable std::shared_ptr<const Schema>:
// one atomic load, no lock, so the request path never waits on DDL. Every DDL
// runs under one writer mutex, builds a new Schema that shares all untouched
// keyspaces/tables with the old one (copy-on-write), writes the changed entries
// to the CatalogStore (when one is attached), and only then publishes the new
// snapshot with a fresh schema version. A failed DDL changes nothing.
//
// Errors carry Cassandra 3.11's codes and messages (Already_exists with the
// keyspace and table in detail1/detail2, Invalid, Config_error, Syntax_error).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "schema/catalog_store.h"
#include "schema/keyspace.h"
#include "schema/keyspace_options.h"
#include "schema/table_builder.h"

namespace tessel {

// What a DDL statement changed, for the Schema_change result and event.
struct CatalogChange {
    enum class Type { kCreated, kUpdated, kDropped };
    enum class Target { kKeyspace, kTable, kType };

    Type type = Type::kCreated;
    Target target = Target::kKeyspace;
    std::string keyspace;
    std::string name;  // table or type name; empty for a keyspace
    // False when IF [NOT] EXISTS turned the statement into a no-op (Cassandra
    // then answers with a Void result and the schema version does not change).
    bool applied = true;
    // Client warnings (a replication factor higher than the nodes there).
    std::vector<std::string> warnings{};
};

// A column added by ALTER TABLE ... ADD.
struct NewColumn {
    std::string name;
    TypeSpec type;
    // kStatic for "ADD c int static". A key kind is refused: primary keys are immutable.
    ColumnKind kind = ColumnKind::kRegular;
};

// The refusal every primary-key change gets (ALTER TABLE, and UPDATE ... SET pk = ...
// in the CQL layer): Invalid "Cannot <op> PRIMARY KEY column <name>: primary keys
// are immutable; create a new table and copy the data".
Status immutable_primary_key_error(std::string_view op, std::string_view column);

class Catalog {
  public:
    // `store` (not owned, may be null) must outlive the catalog; with no store
    // the catalog lives in memory only.
    explicit Catalog(CatalogStore* store = nullptr);
    Catalog(const Catalog&) = delete;
    Catalog& operator=(const Catalog&) = delete;

    // Replaces the whole schema with what `store` holds and attaches `store` for
    // later DDL. Any unreadable or inconsistent entry fails the load with a
    // Server_error naming the key: the server must refuse to start rather than
    // start with part of its schema missing. On failure the catalog is unchanged.
    Status load(CatalogStore& store);

    // Lock-free; the snapshot stays valid (and unchanged) for as long as it is held.
    std::shared_ptr<const Schema> snapshot() const { return current_.load(); }
    Uuid version() const { return snapshot()->version; }

    // The data centres with their node counts: this node's and every known
    // node's. NetworkTopologyStrategy may name only these and
    // 'replication_factor' expands to them (Cassandra's
    // Datacenters.getValidDatacenters); the counts decide the warnings of
    // replication_warnings. Until one is set: one node in kDefaultDatacenter.
    using DatacentersFn = std::function<std::map<std::string, int>()>;
    void set_datacenters(DatacentersFn datacenters);

    Result<CatalogChange> create_keyspace(const std::string& name, const KeyspaceOptions& options,
                                          bool if_not_exists = false);
    Result<CatalogChange> alter_keyspace(const std::string& name, const KeyspaceOptions& options);
    Result<CatalogChange> drop_keyspace(const std::string& name, bool if_exists = false);

    Result<CatalogChange> create_table(const TableSpec& spec, bool if_not_exists = false);
    Result<CatalogChange> drop_table(const std::string& keyspace, const std::string& name,
                                     bool if_exists = false);
    Result<CatalogChange> alter_table_add(const std::string& keyspace, const std::string& table,
                                          const std::vector<NewColumn>& columns);
    // `timestamp_micros` is the drop time recorded in dropped_columns (USING
    // TIMESTAMP or the statement's time).
    Result<CatalogChange> alter_table_drop(const std::string& keyspace, const std::string& table,
                                           const std::vector<std::string>& columns,
                                           int64_t timestamp_micros);
    // Only primary key columns can be renamed (Cassandra 3.11).
    Result<CatalogChange> alter_table_rename(
        const std::string& keyspace, const std::string& table,
        const std::vector<std::pair<std::string, std::string>>& renames);
    // ALTER TABLE t ALTER c TYPE x. Refused as in Cassandra 3.11 ("Altering of
    // types is not allowed"); on a primary key column with the immutable-key message.
    Result<CatalogChange> alter_table_type(const std::string& keyspace, const std::string& table,
                                           const std::string& column, const TypeSpec& type);
    // ALTER TABLE t WITH ...: applied on top of the current options. The layout
    // options (distribution, write_sharding, time_bucket) cannot be changed.
    Result<CatalogChange> alter_table_options(
        const std::string& keyspace, const std::string& table,
        const std::vector<std::pair<std::string, OptionValue>>& options);

    Result<CatalogChange> create_type(const std::string& keyspace, const std::string& name,
                                      const std::vector<std::pair<std::string, TypeSpec>>& fields,
                                      bool if_not_exists = false);
    // Tables and types that use the type see the new field at once.
    Result<CatalogChange> alter_type_add(const std::string& keyspace, const std::string& name,
                                         const std::string& field, const TypeSpec& type);
    Result<CatalogChange> alter_type_rename(
        const std::string& keyspace, const std::string& name,
        const std::vector<std::pair<std::string, std::string>>& renames);
    // Refused while a table or another type uses it.
    Result<CatalogChange> drop_type(const std::string& keyspace, const std::string& name,
                                    bool if_exists = false);

    // Resolves a written type against the current snapshot (see Schema::resolve_type).
    Result<TypePtr> resolve_type(std::string_view keyspace, const TypeSpec& spec) const {
        return snapshot()->resolve_type(keyspace, spec);
    }

    // Keys in the CatalogStore.
    static std::string keyspace_key(std::string_view ks);
    static std::string table_key(std::string_view ks, std::string_view table);
    static std::string type_key(std::string_view ks, std::string_view type);
    static constexpr const char* kVersionKey = "schema_version";

  private:
    // The state one DDL works on: a private copy of the schema plus the store
    // writes that make the change durable.
    struct Txn {
        Schema next;
        CatalogBatch batch;
        KeyspaceDef& mutable_keyspace(const std::string& name);
        void put_table(const TableDef& table);
        void put_type(const UserTypeDef& type);
        void put_keyspace(const KeyspaceDef& ks);
    };
    using TxnBody = std::function<Result<CatalogChange>(Txn&)>;
    // Runs `body` under the writer lock; persists and publishes when it applied.
    Result<CatalogChange> run(const TxnBody& body);
    // Looks up a table for ALTER/DROP with Cassandra's "unconfigured table" errors.
    static Result<std::shared_ptr<const TableDef>> existing_table(const Schema& schema,
                                                                  const std::string& keyspace,
                                                                  const std::string& table);
    // Stores a modified table in the transaction.
    static void replace_table(Txn& txn, TableDef table);
    // Stores a new version of a user type and rewrites every type and table of
    // its keyspace that embeds it.
    static Result<CatalogChange> publish_type(Txn& txn, const UserTypeDef& type);

    std::map<std::string, int> nodes_per_datacenter() const;
    std::set<std::string> datacenters() const;

    CatalogStore* store_;
    DatacentersFn datacenters_;  // guarded by ddl_mu_
    std::mutex ddl_mu_;
    std::atomic<std::shared_ptr<const Schema>> current_;
};

}  // namespace tessel
