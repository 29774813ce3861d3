// The schema a catalog snapshot holds, as system_schema rows describe it,
// with the built-in system keyspaces in front of the user's.
#pragma once

#include "schema/keyspace.h"
#include "system/schema_model.h"

namespace tessel::system {

// Built-in keyspaces (system, system_auth, system_distributed, system_schema,
// system_traces) followed by every user keyspace of `schema`. A catalog
// keyspace with a built-in name is shown by its built-in definition.
SchemaModel model_of(const Schema& schema);

}  // namespace tessel::system
