// Statements about roles and permissions (Cassandra's CassandraRoleManager
// and CassandraAuthorizer grammar): CREATE/ALTER/DROP ROLE and USER, LIST
// ROLES/USERS, GRANT/REVOKE of roles and of permissions, LIST PERMISSIONS.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tessel::cql {

// The resources permissions apply to: data (all keyspaces > keyspace >
// table) and roles (all roles > role).
struct AuthResource {
    enum class Level { kAllKeyspaces, kKeyspace, kTable, kAllRoles, kRole };
    Level level = Level::kAllKeyspaces;
    std::string keyspace;  // kKeyspace, kTable (empty: the session keyspace)
    std::string table;     // kTable
    std::string role;      // kRole

    bool is_role() const { return level == Level::kAllRoles || level == Level::kRole; }
    bool operator==(const AuthResource&) const = default;
};

// Permission bits, in Cassandra's order; kAllPermissions is every bit (ALL
// grants those that apply to the resource).
enum Permission : uint32_t {
    kPermCreate = 1u << 0,
    kPermAlter = 1u << 1,
    kPermDrop = 1u << 2,
    kPermSelect = 1u << 3,
    kPermModify = 1u << 4,
    kPermAuthorize = 1u << 5,
    kPermDescribe = 1u << 6,
    kAllPermissions = (1u << 7) - 1,
};

struct AuthStatement {
    enum class Kind {
        kCreateRole,
        kAlterRole,
        kDropRole,
        kListRoles,
        kGrantRole,         // GRANT role TO grantee
        kRevokeRole,        // REVOKE role FROM grantee
        kGrantPermission,   // GRANT perms ON resource TO grantee
        kRevokePermission,  // REVOKE perms ON resource FROM grantee
        kListPermissions,
    };
    Kind kind = Kind::kListRoles;
    // The role the statement is about: created, altered, dropped, granted to,
    // revoked from, or listed (LIST ROLES OF r / LIST PERMISSIONS OF r; empty
    // when there is no OF).
    std::string role;
    std::string granted_role;  // kGrantRole / kRevokeRole
    bool if_not_exists = false;
    bool if_exists = false;
    // The USER forms (CREATE USER ..., LIST USERS): same semantics, Cassandra's
    // older output columns.
    bool user_syntax = false;
    std::optional<std::string> password;
    std::optional<bool> login;
    std::optional<bool> superuser;
    uint32_t permissions = 0;  // a Permission mask
    // GRANT/REVOKE/LIST PERMISSIONS: nullopt on LIST means every resource.
    std::optional<AuthResource> resource;
    bool norecursive = false;  // LIST ... NORECURSIVE
};

}  // namespace tessel::cql
