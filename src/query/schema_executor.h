// Executing schema statements (CREATE/ALTER/DROP KEYSPACE, TABLE, TYPE,
// TRUNCATE, DESCRIBE) against the catalog, and creating, dropping and
// truncating the tables' storage through the Replica.
//
// Kept apart from the rest of the coordinator: it is the one place in
// query/ that changes the catalog.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cluster/replica.h"
#include "common/status.h"
#include "cql/ast.h"

namespace tessel {
class Catalog;
struct Schema;
}  // namespace tessel

namespace tessel::query {

struct SchemaOutcome {
    bool changed = false;     // false: Void result (IF [NOT] EXISTS no-op, TRUNCATE)
    std::string change_type;  // CREATED | UPDATED | DROPPED
    std::string target;       // KEYSPACE | TABLE | TYPE
    std::string keyspace;
    std::string name;
    // DESCRIBE: rows of (keyspace_name, type, name, create_statement).
    bool describe = false;
    std::vector<std::vector<std::string>> describe_rows;
    std::vector<std::string> warnings;  // client warnings
};

// `keyspace` is the statement's resolved keyspace (see cql::SchemaPlan).
Result<SchemaOutcome> execute_schema_statement(const cql::Statement& statement,
                                               const std::string& keyspace, Catalog& catalog,
                                               cluster::Replica& replica, int64_t timestamp_micros);

// The catalog's current snapshot (so callers need not include schema/catalog.h).
std::shared_ptr<const Schema> catalog_snapshot(const Catalog& catalog);

// Creates the storage of every catalog table that lacks it (a crash between
// a catalog write and the family creation) at open.
Status reconcile_storage(const Catalog& catalog, cluster::Replica& replica);

}  // namespace tessel::query
