// The schema changes between two catalog snapshots, as the SCHEMA_CHANGE
// events a driver expects: what a node applying another node's DDL tells its
// own clients. Keyspaces are reported before what they contain when created
// and after it when dropped.
#pragma once

#include <vector>

#include "schema/keyspace.h"
#include "tessel/database.h"

namespace tessel::embedded {

std::vector<SchemaChange> schema_diff(const Schema& before, const Schema& after);

}  // namespace tessel::embedded
