// Resources and permissions as Cassandra names them.
//
// A resource's stored name is "data", "data/<ks>", "data/<ks>/<table>",
// "roles" or "roles/<role>" (system_auth.role_permissions.resource); it is
// shown in messages and LIST PERMISSIONS as "<all keyspaces>", "<keyspace
// ks>", "<table ks.t>", "<all roles>" or "<role r>". Permissions granted on a
// resource apply to everything below it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cql/ast_auth.h"

namespace tessel::auth {

using cql::AuthResource;

AuthResource all_keyspaces();
AuthResource keyspace_resource(std::string keyspace);
AuthResource table_resource(std::string keyspace, std::string table);
AuthResource all_roles();
AuthResource role_resource(std::string role);

std::string resource_name(const AuthResource& r);
std::optional<AuthResource> parse_resource_name(std::string_view name);
std::string resource_display(const AuthResource& r);

// The resource, then each parent up to <all keyspaces> or <all roles>.
std::vector<AuthResource> resource_chain(const AuthResource& r);

// "SELECT" for one permission bit.
std::string_view permission_name(uint32_t bit);
// The names of the bits of `mask`, in Cassandra's order (CREATE, ALTER,
// DROP, SELECT, MODIFY, AUTHORIZE, DESCRIBE).
std::vector<std::string> permission_names(uint32_t mask);
// The permissions that apply to a resource (Cassandra's
// applicablePermissions): a table has no CREATE, a role only ALTER, DROP
// and AUTHORIZE.
uint32_t applicable_permissions(const AuthResource& r);

}  // namespace tessel::auth
