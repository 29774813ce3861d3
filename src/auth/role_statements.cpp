// CREATE/ALTER/DROP ROLE (and USER), LIST ROLES/USERS, GRANT/REVOKE role:
// CassandraRoleManager's statements with its access rules and messages.
#include <algorithm>

#include "auth/statements.h"
#include "system/cell_encoding.h"

namespace tessel::auth::detail {
namespace {

using Kind = cql::AuthStatement::Kind;

Status doesnt_exist(const std::string& role) {
    return Status::invalid(role + " doesn't exist");
}

bool caller_is_superuser(const Caller& c, const RoleSet& roles) {
    return c.internal() || roles.is_superuser(c.role);
}

// Permissions on <all roles> (target empty) or <role target>; without
// CassandraAuthorizer any logged-in role may manage roles, as in Cassandra.
Status require_role_permission(const Caller& c, const RoleSet& roles, uint32_t bit,
                               const std::string& target) {
    if (c.internal() || !c.service.enforces_permissions()) return Status::ok();
    return require_permission(roles, c.role, bit,
                              target.empty() ? all_roles() : role_resource(target));
}

Result<ResultSet> void_result() {
    return ResultSet{};
}

Result<ResultSet> create_role(const Caller& c, const cql::AuthStatement& s) {
    auto current = c.service.roles().snapshot();
    TESSEL_RETURN_IF_ERROR(require_role_permission(c, *current, cql::kPermCreate, ""));
    if (s.superuser.value_or(false) && !caller_is_superuser(c, *current)) {
        return unauthorized("Only superusers can create a role with superuser status");
    }
    std::string hash;
    if (s.password) {
        TESSEL_ASSIGN_OR_RETURN(hash,
                                hash_password(*s.password, c.service.options().hash_iterations));
    }
    TESSEL_RETURN_IF_ERROR(c.service.roles().update([&](RoleSet& roles, std::set<std::string>* ch) {
        if (roles.find(s.role)) {
            return s.if_not_exists ? Status::ok() : Status::invalid(s.role + " already exists");
        }
        Role r;
        r.name = s.role;
        r.salted_hash = hash;
        r.can_login = s.login.value_or(false);
        r.is_superuser = s.superuser.value_or(false);
        roles.roles[r.name] = std::move(r);
        ch->insert(s.role);
        // The creator gets every permission on the new role.
        auto creator = roles.roles.find(c.role);
        if (c.service.enforces_permissions() && creator != roles.roles.end()) {
            const AuthResource created = role_resource(s.role);
            creator->second.permissions[resource_name(created)] |= applicable_permissions(created);
            ch->insert(c.role);
        }
        return Status::ok();
    }));
    return void_result();
}

Result<ResultSet> alter_role(const Caller& c, const cql::AuthStatement& s) {
    if (!s.password && !s.login && !s.superuser) {
        return Status::syntax(std::string("ALTER ") + (s.user_syntax ? "USER" : "ROLE") +
                              " can't be empty");
    }
    auto current = c.service.roles().snapshot();
    if (!current->find(s.role)) return doesnt_exist(s.role);
    const bool super = caller_is_superuser(c, *current);
    if (!c.internal()) {
        if (s.superuser) {
            if (current->closure(c.role).count(s.role)) {
                return unauthorized(
                    "You aren't allowed to alter your own superuser status or that of a role "
                    "granted to you");
            }
            if (!super)
                return unauthorized("Only superusers are allowed to alter superuser status");
        }
        if (!super && c.role == s.role) {
            if (s.login) return unauthorized("You aren't allowed to alter LOGIN");
        } else if (!super) {
            TESSEL_RETURN_IF_ERROR(require_role_permission(c, *current, cql::kPermAlter, s.role));
            // Stricter than Cassandra: ALTER on a superuser role would let its
            // holder take the superuser's password.
            if (current->is_superuser(s.role)) {
                return unauthorized("Only superusers can alter a role with superuser status");
            }
        }
    }
    std::string hash;
    if (s.password) {
        TESSEL_ASSIGN_OR_RETURN(hash,
                                hash_password(*s.password, c.service.options().hash_iterations));
    }
    TESSEL_RETURN_IF_ERROR(c.service.roles().update([&](RoleSet& roles, std::set<std::string>* ch) {
        auto it = roles.roles.find(s.role);
        if (it == roles.roles.end()) return doesnt_exist(s.role);
        if (s.password) it->second.salted_hash = hash;
        if (s.login) it->second.can_login = *s.login;
        if (s.superuser) it->second.is_superuser = *s.superuser;
        ch->insert(s.role);
        return Status::ok();
    }));
    return void_result();
}

Result<ResultSet> drop_role(const Caller& c, const cql::AuthStatement& s) {
    auto current = c.service.roles().snapshot();
    TESSEL_RETURN_IF_ERROR(require_role_permission(c, *current, cql::kPermDrop, s.role));
    if (!c.internal() && c.role == s.role) {
        return Status::invalid("Cannot DROP primary role for current login");
    }
    const Role* target = current->find(s.role);
    if (target && target->is_superuser && !caller_is_superuser(c, *current)) {
        return unauthorized("Only superusers can drop a role with superuser status");
    }
    TESSEL_RETURN_IF_ERROR(c.service.roles().update([&](RoleSet& roles, std::set<std::string>* ch) {
        if (!roles.roles.erase(s.role)) return s.if_exists ? Status::ok() : doesnt_exist(s.role);
        ch->insert(s.role);
        const std::string resource = resource_name(role_resource(s.role));
        for (auto& [name, r] : roles.roles) {
            if (r.member_of.erase(s.role)) ch->insert(name);
            if (r.permissions.erase(resource)) ch->insert(name);
        }
        return Status::ok();
    }));
    return void_result();
}

Result<ResultSet> grant_role(const Caller& c, const cql::AuthStatement& s) {
    auto current = c.service.roles().snapshot();
    TESSEL_RETURN_IF_ERROR(
        require_role_permission(c, *current, cql::kPermAuthorize, s.granted_role));
    const bool grant = s.kind == Kind::kGrantRole;
    TESSEL_RETURN_IF_ERROR(c.service.roles().update([&](RoleSet& roles, std::set<std::string>* ch) {
        if (!roles.find(s.granted_role)) return doesnt_exist(s.granted_role);
        if (!roles.find(s.role)) return doesnt_exist(s.role);
        Role& grantee = roles.roles[s.role];
        if (grant) {
            if (roles.closure(s.role).count(s.granted_role)) {
                return Status::invalid(s.role + " is a member of " + s.granted_role);
            }
            if (roles.closure(s.granted_role).count(s.role)) {
                return Status::invalid(s.granted_role + " is a member of " + s.role);
            }
            grantee.member_of.insert(s.granted_role);
        } else if (!grantee.member_of.erase(s.granted_role)) {
            return Status::invalid(s.role + " is not a member of " + s.granted_role);
        }
        ch->insert(s.role);
        return Status::ok();
    }));
    return void_result();
}

// LIST ROLES [OF r] [NORECURSIVE]: role, super, login, options (Cassandra
// 3.11's columns). LIST USERS: name, super, for the roles that can log in.
Result<ResultSet> list_roles(const Caller& c, const cql::AuthStatement& s) {
    auto roles = c.service.roles().snapshot();
    // DESCRIBE on <all roles> lists every role; otherwise one's own.
    const bool super = caller_is_superuser(c, *roles) ||
                       require_role_permission(c, *roles, cql::kPermDescribe, "").is_ok();
    std::set<std::string> names;
    if (!s.role.empty()) {
        if (!roles->find(s.role)) return doesnt_exist(s.role);
        if (!super && !roles->closure(c.role).count(s.role)) {
            return unauthorized("You are not authorized to view roles granted to " + s.role);
        }
        if (s.norecursive) {
            names = roles->find(s.role)->member_of;
            names.insert(s.role);
        } else {
            names = roles->closure(s.role);
        }
    } else if (super) {
        for (const auto& [name, _] : roles->roles)
            names.insert(name);
    } else {
        names = roles->closure(c.role);
    }
    ResultSet rs;
    rs.kind = ResultSet::Kind::kRows;
    const auto text = native_type(TypeKind::kVarchar);
    const auto boolean = native_type(TypeKind::kBoolean);
    const char* table = s.user_syntax ? "users" : "roles";
    if (s.user_syntax) {
        rs.columns = {auth_column(table, "name", text), auth_column(table, "super", boolean)};
    } else {
        rs.columns = {auth_column(table, "role", text), auth_column(table, "super", boolean),
                      auth_column(table, "login", boolean),
                      auth_column(table, "options", map_type(text, text, false))};
    }
    for (const auto& name : names) {
        const Role* r = roles->find(name);
        if (s.user_syntax) {
            if (r->can_login)
                rs.rows.push_back({system::text_cell(name), system::bool_cell(r->is_superuser)});
            continue;
        }
        rs.rows.push_back({system::text_cell(name), system::bool_cell(r->is_superuser),
                           system::bool_cell(r->can_login), system::text_map_cell({})});
    }
    return rs;
}

}  // namespace

Result<ResultSet> run_role_statement(const Caller& caller, const cql::AuthStatement& s) {
    switch (s.kind) {
        case Kind::kCreateRole:
            return create_role(caller, s);
        case Kind::kAlterRole:
            return alter_role(caller, s);
        case Kind::kDropRole:
            return drop_role(caller, s);
        case Kind::kGrantRole:
        case Kind::kRevokeRole:
            return grant_role(caller, s);
        case Kind::kListRoles:
            return list_roles(caller, s);
        default:
            break;
    }
    return Status::server("not a role statement");
}

}  // namespace tessel::auth::detail
