// VirtualTable: a table whose rows are computed, not stored (system.local,
// system.peers, system_schema.*, later system.tablets and the health tables).
//
// The coordinator parses schema_cql() once at registration to learn the
// columns and primary key, then serves SELECTs on it with the same
// restriction rules, ordering, LIMIT and paging as a stored table, over the
// rows returned by rows(). Writes to a virtual table are refused (Invalid).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/status.h"

namespace tessel::query {

using VirtualRow = std::vector<std::optional<std::string>>;  // encoded values, nullopt = null

class VirtualTable {
  public:
    virtual ~VirtualTable() = default;

    virtual std::string keyspace() const = 0;
    virtual std::string name() const = 0;

    // "CREATE TABLE ks.name (...columns..., PRIMARY KEY (...))": the column
    // list fixes the order of values in every VirtualRow.
    virtual std::string schema_cql() const = 0;

    // The table's current rows, in any order. Called once per page read, so
    // it must be cheap relative to a query; it may read the catalog snapshot.
    virtual Result<std::vector<VirtualRow>> rows() const = 0;
};

}  // namespace tessel::query
