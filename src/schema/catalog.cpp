#include "schema/catalog.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>

#include "schema/codec.h"

namespace tessel {
namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// Keyspaces the node owns; users can neither create, alter nor drop them.
bool is_system_keyspace(std::string_view name) {
    std::string l = lower(name);
    return l == "system" || l == "system_schema" || l == "system_virtual_schema" ||
           l == "system_auth" || l == "system_distributed" || l == "system_traces";
}

CatalogChange change(CatalogChange::Type type, CatalogChange::Target target, std::string ks,
                     std::string name = {}) {
    return CatalogChange{type, target, std::move(ks), std::move(name), true};
}

CatalogChange no_op(CatalogChange::Type type, CatalogChange::Target target, std::string ks,
                    std::string name = {}) {
    CatalogChange c = change(type, target, std::move(ks), std::move(name));
    c.applied = false;
    return c;
}

Status load_error(const Status& cause, const std::string& key) {
    return Status::server(
        fmt::format("Cannot load the schema catalog: {} (key '{}')", cause.message(), key));
}

}  // namespace

Status immutable_primary_key_error(std::string_view op, std::string_view column) {
    return Status::invalid(fmt::format(
        "Cannot {} PRIMARY KEY column {}: primary keys are immutable; create a new table and copy "
        "the data",
        op, column));
}

std::string Catalog::keyspace_key(std::string_view ks) {
    return fmt::format("ks/{}", ks);
}
std::string Catalog::table_key(std::string_view ks, std::string_view t) {
    return fmt::format("table/{}/{}", ks, t);
}
std::string Catalog::type_key(std::string_view ks, std::string_view t) {
    return fmt::format("type/{}/{}", ks, t);
}

Catalog::Catalog(CatalogStore* store) : store_(store) {
    auto empty = std::make_shared<Schema>();
    empty->version = Uuid::random();
    current_.store(std::move(empty));
}

KeyspaceDef& Catalog::Txn::mutable_keyspace(const std::string& name) {
    auto copy = std::make_shared<KeyspaceDef>(*next.keyspaces.at(name));
    KeyspaceDef& ref = *copy;
    next.keyspaces[name] = std::move(copy);
    return ref;
}

void Catalog::Txn::put_table(const TableDef& t) {
    batch.put(table_key(t.keyspace, t.name), encode_table(t));
}

void Catalog::Txn::put_type(const UserTypeDef& u) {
    batch.put(type_key(u.keyspace, u.name), encode_user_type(u));
}

void Catalog::Txn::put_keyspace(const KeyspaceDef& ks) {
    batch.put(keyspace_key(ks.name), encode_keyspace(ks));
}

Result<CatalogChange> Catalog::run(const TxnBody& body) {
    std::lock_guard<std::mutex> lock(ddl_mu_);
    Txn txn{*current_.load(), {}};
    Result<CatalogChange> result = body(txn);
    if (!result.is_ok() || !result->applied) return result;
    txn.next.version = Uuid::random();
    txn.batch.put(kVersionKey, txn.next.version.raw());
    if (store_ != nullptr) {
        Status s = store_->write(txn.batch);
        if (!s.is_ok()) {
            // A store that says why (a cluster's stale schema, which the
            // coordinator retries) is passed on as it is.
            if (!s.detail2.empty()) return s;
            return Status::server(fmt::format("Failed to persist schema change: {}", s.message()));
        }
    }
    current_.store(std::make_shared<const Schema>(std::move(txn.next)));
    return result;
}

Status Catalog::load(CatalogStore& store) {
    std::lock_guard<std::mutex> lock(ddl_mu_);
    auto schema = std::make_shared<Schema>();
    std::map<std::string, std::shared_ptr<KeyspaceDef>> keyspaces;

    auto list = [&](const char* prefix) { return store.list(prefix); };
    TESSEL_ASSIGN_OR_RETURN(auto ks_entries, list("ks/"));
    for (const auto& [key, value] : ks_entries) {
        Result<KeyspaceDef> ks = decode_keyspace(value);
        if (!ks.is_ok()) return load_error(ks.status(), key);
        if (key != keyspace_key(ks->name)) {
            return load_error(Status::server("entry does not match its key"), key);
        }
        std::string name = ks->name;  // read before the definition is moved from
        keyspaces[name] = std::make_shared<KeyspaceDef>(std::move(*ks));
    }
    TESSEL_ASSIGN_OR_RETURN(auto type_entries, list("type/"));
    for (const auto& [key, value] : type_entries) {
        Result<UserTypeDef> u = decode_user_type(value);
        if (!u.is_ok()) return load_error(u.status(), key);
        if (key != type_key(u->keyspace, u->name)) {
            return load_error(Status::server("entry does not match its key"), key);
        }
        auto ks = keyspaces.find(u->keyspace);
        if (ks == keyspaces.end()) {
            return load_error(Status::server("user type of an unknown keyspace"), key);
        }
        std::string name = u->name;
        ks->second->types[name] = std::make_shared<const UserTypeDef>(std::move(*u));
    }
    TESSEL_ASSIGN_OR_RETURN(auto table_entries, list("table/"));
    for (const auto& [key, value] : table_entries) {
        Result<TableDef> t = decode_table(value);
        if (!t.is_ok()) return load_error(t.status(), key);
        if (key != table_key(t->keyspace, t->name)) {
            return load_error(Status::server("entry does not match its key"), key);
        }
        auto ks = keyspaces.find(t->keyspace);
        if (ks == keyspaces.end()) {
            return load_error(Status::server("table of an unknown keyspace"), key);
        }
        std::string name = t->name;
        ks->second->tables[name] = std::make_shared<const TableDef>(std::move(*t));
    }
    TESSEL_ASSIGN_OR_RETURN(auto version, store.get(kVersionKey));
    if (version) {
        if (version->size() != 16) {
            return load_error(Status::server("schema version is not 16 bytes"), kVersionKey);
        }
        std::memcpy(schema->version.bytes.data(), version->data(), 16);
    } else {
        schema->version = Uuid::random();
    }
    for (auto& [name, ks] : keyspaces)
        schema->keyspaces[name] = std::move(ks);
    store_ = &store;
    current_.store(std::move(schema));
    return Status::ok();
}

void Catalog::set_datacenters(DatacentersFn datacenters) {
    std::lock_guard<std::mutex> lock(ddl_mu_);
    datacenters_ = std::move(datacenters);
}

std::map<std::string, int> Catalog::nodes_per_datacenter() const {
    if (!datacenters_) return {{std::string(kDefaultDatacenter), 1}};
    return datacenters_();
}

std::set<std::string> Catalog::datacenters() const {
    std::set<std::string> out;
    for (const auto& [dc, _] : nodes_per_datacenter())
        out.insert(dc);
    return out;
}

Result<CatalogChange> Catalog::create_keyspace(const std::string& name,
                                               const KeyspaceOptions& options, bool if_not_exists) {
    using T = CatalogChange::Type;
    using G = CatalogChange::Target;
    if (is_system_keyspace(name)) {
        return Status::invalid(fmt::format("{} keyspace is not user-modifiable", name));
    }
    if (!is_word(name)) {
        return Status::invalid(fmt::format("\"{}\" is not a valid keyspace name", name));
    }
    if (name.size() > 48) {
        return Status::invalid(fmt::format(
            "Keyspace names shouldn't be more than 48 characters long (got \"{}\")", name));
    }
    if (!options.replication) {
        return Status::config("Missing mandatory replication strategy class");
    }
    return run([&](Txn& txn) -> Result<CatalogChange> {
        // Cassandra 4.0 looks for the keyspace before it validates the replication.
        if (txn.next.keyspace(name)) {
            if (if_not_exists) return no_op(T::kCreated, G::kKeyspace, name);
            Status s(ErrorCode::kAlreadyExists,
                     fmt::format("Cannot add existing keyspace \"{}\"", name));
            s.detail1 = name;
            return s;
        }
        TESSEL_ASSIGN_OR_RETURN(StringMap replication,
                                normalize_replication(*options.replication, name, datacenters()));
        auto ks = std::make_shared<KeyspaceDef>();
        ks->name = name;
        ks->replication = replication;
        ks->durable_writes = options.durable_writes.value_or(true);
        txn.put_keyspace(*ks);
        txn.next.keyspaces[name] = std::move(ks);
        CatalogChange c = change(T::kCreated, G::kKeyspace, name);
        c.warnings = replication_warnings(replication, name, nodes_per_datacenter());
        return c;
    });
}

Result<CatalogChange> Catalog::alter_keyspace(const std::string& name,
                                              const KeyspaceOptions& options) {
    return run([&](Txn& txn) -> Result<CatalogChange> {
        if (!txn.next.keyspace(name)) return Status::invalid("Unknown keyspace " + name);
        if (is_system_keyspace(name)) return Status::invalid("Cannot alter system keyspace");
        KeyspaceDef& ks = txn.mutable_keyspace(name);
        if (options.replication) {
            TESSEL_ASSIGN_OR_RETURN(
                ks.replication,
                normalize_replication(*options.replication, name, datacenters(), ks.replication));
        }
        if (options.durable_writes) ks.durable_writes = *options.durable_writes;
        txn.put_keyspace(ks);
        // Cassandra validates (and warns about) the replication on every ALTER.
        CatalogChange c =
            change(CatalogChange::Type::kUpdated, CatalogChange::Target::kKeyspace, name);
        c.warnings = replication_warnings(ks.replication, name, nodes_per_datacenter());
        return c;
    });
}

Result<CatalogChange> Catalog::drop_keyspace(const std::string& name, bool if_exists) {
    if (is_system_keyspace(name)) {
        return Status::invalid(fmt::format("{} keyspace is not user-modifiable", name));
    }
    return run([&](Txn& txn) -> Result<CatalogChange> {
        auto ks = txn.next.keyspace(name);
        if (!ks) {
            if (if_exists) {
                return no_op(CatalogChange::Type::kDropped, CatalogChange::Target::kKeyspace, name);
            }
            return Status::config(fmt::format("Cannot drop non existing keyspace '{}'.", name));
        }
        for (const auto& [t, _] : ks->tables)
            txn.batch.remove(table_key(name, t));
        for (const auto& [u, _] : ks->types)
            txn.batch.remove(type_key(name, u));
        txn.batch.remove(keyspace_key(name));
        txn.next.keyspaces.erase(name);
        return change(CatalogChange::Type::kDropped, CatalogChange::Target::kKeyspace, name);
    });
}

Result<CatalogChange> Catalog::create_table(const TableSpec& spec, bool if_not_exists) {
    return run([&](Txn& txn) -> Result<CatalogChange> {
        if (!txn.next.keyspace(spec.keyspace)) {
            return Status::invalid(fmt::format("Keyspace {} does not exist", spec.keyspace));
        }
        // Cassandra validates the definition before it looks for an existing table.
        TESSEL_ASSIGN_OR_RETURN(TableDef table, build_table(txn.next, spec));
        if (txn.next.table(spec.keyspace, spec.name)) {
            if (if_not_exists) {
                return no_op(CatalogChange::Type::kCreated, CatalogChange::Target::kTable,
                             spec.keyspace, spec.name);
            }
            Status s(ErrorCode::kAlreadyExists,
                     fmt::format("Cannot add already existing table \"{}\" to keyspace \"{}\"",
                                 spec.name, spec.keyspace));
            s.detail1 = spec.keyspace;
            s.detail2 = spec.name;
            return s;
        }
        if (txn.next.table_by_id(table.id)) {
            return Status::invalid(
                fmt::format("Table id {} is already in use", table.id.to_string()));
        }
        replace_table(txn, std::move(table));
        return change(CatalogChange::Type::kCreated, CatalogChange::Target::kTable, spec.keyspace,
                      spec.name);
    });
}

Result<CatalogChange> Catalog::drop_table(const std::string& keyspace, const std::string& name,
                                          bool if_exists) {
    return run([&](Txn& txn) -> Result<CatalogChange> {
        auto existing = existing_table(txn.next, keyspace, name);
        if (!existing.is_ok()) {
            if (if_exists) {
                return no_op(CatalogChange::Type::kDropped, CatalogChange::Target::kTable, keyspace,
                             name);
            }
            return existing.status();
        }
        txn.mutable_keyspace(keyspace).tables.erase(name);
        txn.batch.remove(table_key(keyspace, name));
        return change(CatalogChange::Type::kDropped, CatalogChange::Target::kTable, keyspace, name);
    });
}

Result<std::shared_ptr<const TableDef>> Catalog::existing_table(const Schema& schema,
                                                                const std::string& keyspace,
                                                                const std::string& table) {
    auto ks = schema.keyspace(keyspace);
    if (!ks) return Status::invalid(fmt::format("Keyspace {} does not exist", keyspace));
    auto t = ks->table(table);
    if (!t) return Status::invalid(fmt::format("unconfigured table {}", table));
    return t;
}

void Catalog::replace_table(Txn& txn, TableDef table) {
    table.finalize();
    txn.put_table(table);
    std::string name = table.name;
    KeyspaceDef& ks = txn.mutable_keyspace(table.keyspace);
    ks.tables[name] = std::make_shared<const TableDef>(std::move(table));
}

}  // namespace tessel
