// Internal to src/auth: the runners of role and permission statements and
// the checks they share with SessionAccess::authorize.
#pragma once

#include <string>

#include "auth/auth_service.h"

namespace tessel::auth::detail {

// Who runs a statement: a logged-in role, or (internal) the embedded API.
struct Caller {
    AuthService& service;
    const std::string& role;
    bool internal() const { return role.empty(); }
};

Status unauthorized(std::string message);

// OK when `role` holds `bit` on `resource` or one of its parents (or is a
// superuser); else "User x has no P permission on <r> or any of its parents".
Status require_permission(const RoleSet& roles, const std::string& role, uint32_t bit,
                          const AuthResource& resource);

// CREATE/ALTER/DROP ROLE|USER, LIST ROLES|USERS, GRANT/REVOKE role.
Result<ResultSet> run_role_statement(const Caller& caller, const cql::AuthStatement& s);
// GRANT/REVOKE permission, LIST PERMISSIONS.
Result<ResultSet> run_permission_statement(const Caller& caller, const cql::AuthPlan& plan);

// A result column of the system_auth pseudo-table `table`.
ColumnSpec auth_column(const char* table, const char* name, TypePtr type);

}  // namespace tessel::auth::detail
