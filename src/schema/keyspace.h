// KeyspaceDef, UserTypeDef and Schema: the catalog's immutable snapshot.
//
// Readers hold a std::shared_ptr<const Schema>; everything reachable from it is
// immutable, so a snapshot can be used from any thread for as long as it is held.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "schema/table.h"
#include "schema/table_options.h"
#include "schema/type_spec.h"
#include "schema/uuid.h"
#include "types/cql_type.h"

namespace tessel {

struct UserTypeDef {
    std::string keyspace;
    std::string name;
    std::vector<std::string> field_names;
    std::vector<TypePtr> field_types;

    // The CqlType of this user type (frozen<name> when `frozen`).
    TypePtr as_type(bool frozen) const;
    // Index of a field by exact name, -1 when absent.
    int field_index(std::string_view field) const;
};

struct KeyspaceDef {
    std::string name;
    // Normalised: 'class' holds the full strategy class name.
    StringMap replication;
    bool durable_writes = true;
    std::map<std::string, std::shared_ptr<const TableDef>, std::less<>> tables;
    std::map<std::string, std::shared_ptr<const UserTypeDef>, std::less<>> types;

    std::shared_ptr<const TableDef> table(std::string_view name) const;
    std::shared_ptr<const UserTypeDef> type(std::string_view name) const;
};

struct Schema {
    std::map<std::string, std::shared_ptr<const KeyspaceDef>, std::less<>> keyspaces;
    // Changes on every successful DDL (system.local.schema_version).
    Uuid version;

    std::shared_ptr<const KeyspaceDef> keyspace(std::string_view name) const;
    std::shared_ptr<const TableDef> table(std::string_view keyspace, std::string_view name) const;
    std::shared_ptr<const UserTypeDef> type(std::string_view keyspace, std::string_view name) const;
    // Linear in the number of tables; for storage start-up and tools, not per request.
    std::shared_ptr<const TableDef> table_by_id(const Uuid& id) const;

    // Resolves a written type in the context of `keyspace` (whose user types
    // the names refer to). Applies Cassandra's rules for nested types:
    // collections and user types inside collections/tuples/user types must be
    // frozen ("Non-frozen collections are not allowed inside collections: ..."),
    // frozen<> applies to the whole nested type, no counters inside collections
    // or tuples, no durations in sets or map keys, user types only from the
    // same keyspace. A non-frozen user type is returned as is (allowed for
    // regular and static columns); callers check where it is placed.
    Result<TypePtr> resolve_type(std::string_view keyspace, const TypeSpec& spec) const;
};

// True when `type` mentions the user type ks.name at any depth.
bool type_references_udt(const CqlType& type, std::string_view keyspace, std::string_view name);
// True when `type` contains a duration at any depth.
bool type_references_duration(const CqlType& type);
// `type` with every occurrence of the user type `udt` replaced by its new definition
// (keeping each occurrence's frozen-ness). Returns `type` itself when unaffected.
TypePtr replace_udt(const TypePtr& type, const UserTypeDef& udt);

}  // namespace tessel
