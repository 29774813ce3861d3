// Rows of the system_schema tables built from a SchemaModel, each in the
// column order of the table's built-in definition.
#pragma once

#include <string>
#include <vector>

#include "query/virtual_table.h"
#include "system/schema_model.h"

namespace tessel::system {

// Rows for system_schema.`table` (keyspaces, tables, columns, types,
// functions, aggregates, triggers, indexes, views). Unknown names give none.
std::vector<query::VirtualRow> schema_table_rows(const std::string& table,
                                                 const SchemaModel& model);

}  // namespace tessel::system
