// Data resources and permissions as Cassandra names them.
//
// A resource's stored name is "data", "data/<ks>" or "data/<ks>/<table>"
// (system_auth.role_permissions.resource); it is shown in messages and LIST
// PERMISSIONS as "<all keyspaces>", "<keyspace ks>" or "<table ks.t>".
// Permissions granted on a resource apply to everything below it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cql/ast_auth.h"

namespace tessel::auth {

using cql::DataResource;

DataResource all_keyspaces();
DataResource keyspace_resource(std::string keyspace);
DataResource table_resource(std::string keyspace, std::string table);

std::string resource_name(const DataResource& r);
std::optional<DataResource> parse_resource_name(std::string_view name);
std::string resource_display(const DataResource& r);

// The resource, then each parent up to <all keyspaces>.
std::vector<DataResource> resource_chain(const DataResource& r);

// "SELECT" for one permission bit.
std::string_view permission_name(uint32_t bit);
// The names of the bits of `mask`, in Cassandra's order (CREATE, ALTER,
// DROP, SELECT, MODIFY, AUTHORIZE).
std::vector<std::string> permission_names(uint32_t mask);
// The permissions that apply to a resource: a table has no CREATE.
uint32_t applicable_permissions(const DataResource& r);

}  // namespace tessel::auth
