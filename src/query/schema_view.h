// The schema as prepare sees it: a catalog snapshot plus the virtual tables.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "cql/plan_table.h"
#include "schema/keyspace.h"

namespace tessel::query {

// TableInfo of a catalog table (columns in SELECT * order, storage ids).
cql::TablePtr table_info_from_def(const TableDef& def);

// Caches TableInfos per table definition so repeated prepares share them.
class CatalogSchemaView final : public cql::SchemaView {
  public:
    CatalogSchemaView(std::shared_ptr<const Schema> schema,
                      const std::map<std::pair<std::string, std::string>, cql::TablePtr>* virtuals)
        : schema_(std::move(schema)), virtuals_(virtuals) {}

    bool keyspace_exists(const std::string& keyspace) const override;
    cql::TablePtr find_table(const std::string& keyspace, const std::string& name) const override;
    TypePtr find_type(const std::string& keyspace, const std::string& name) const override;

    const Schema& schema() const { return *schema_; }

  private:
    std::shared_ptr<const Schema> schema_;
    const std::map<std::pair<std::string, std::string>, cql::TablePtr>* virtuals_;
};

}  // namespace tessel::query
