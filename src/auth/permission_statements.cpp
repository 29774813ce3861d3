// GRANT/REVOKE permissions and LIST PERMISSIONS: CassandraAuthorizer's
// statements with its access rules and messages.
#include <tuple>

#include "auth/statements.h"
#include "system/cell_encoding.h"

namespace tessel::auth::detail {
namespace {

using Kind = cql::AuthStatement::Kind;

const char* operation_name(Kind kind) {
    switch (kind) {
        case Kind::kGrantPermission:
            return "GRANT";
        case Kind::kRevokePermission:
            return "REVOKE";
        default:
            return "LIST PERMISSIONS";
    }
}

// A table named without its keyspace belongs to the session's keyspace.
Result<AuthResource> resolve(const AuthResource& r, const std::string& session_keyspace) {
    AuthResource out = r;
    if (out.level == AuthResource::Level::kTable && out.keyspace.empty()) {
        if (session_keyspace.empty()) {
            return Status::invalid(
                "No keyspace has been specified. USE a keyspace, or explicitly specify "
                "keyspace.tablename");
        }
        out.keyspace = session_keyspace;
    }
    return out;
}

Result<ResultSet> grant_or_revoke(const Caller& c, const cql::AuthStatement& s,
                                  const AuthResource& resource) {
    auto current = c.service.roles().snapshot();
    const auto& exists = c.service.options().resource_exists;
    const bool missing =
        resource.level == AuthResource::Level::kRole ? !current->find(resource.role)
        : resource.is_role() || resource.level == AuthResource::Level::kAllKeyspaces
            ? false
            : exists && !exists(resource);
    if (missing)
        return Status::invalid("Resource " + resource_display(resource) + " doesn't exist");
    if (!current->find(s.role)) return Status::invalid("Role " + s.role + " doesn't exist");
    const uint32_t applicable = applicable_permissions(resource);
    uint32_t mask = s.permissions;
    if (mask == cql::kAllPermissions) {
        mask = applicable;
    } else if (mask & ~applicable) {
        std::string names;
        for (const auto& n : permission_names(mask & ~applicable))
            names += (names.empty() ? "" : ", ") + n;
        return Status::invalid(std::string("Resource type ") +
                               (resource.is_role() ? "RoleResource" : "DataResource") +
                               " does not support the requested permissions: " + names);
    }
    if (!c.internal()) {
        // The granter must hold AUTHORIZE and every permission it hands out.
        TESSEL_RETURN_IF_ERROR(require_permission(*current, c.role, cql::kPermAuthorize, resource));
        for (uint32_t bit = 1; bit <= cql::kAllPermissions; bit <<= 1) {
            if (mask & bit)
                TESSEL_RETURN_IF_ERROR(require_permission(*current, c.role, bit, resource));
        }
    }
    const bool grant = s.kind == Kind::kGrantPermission;
    const std::string name = resource_name(resource);
    TESSEL_RETURN_IF_ERROR(c.service.roles().update([&](RoleSet& roles, std::set<std::string>* ch) {
        auto it = roles.roles.find(s.role);
        if (it == roles.roles.end()) return Status::invalid("Role " + s.role + " doesn't exist");
        auto& perms = it->second.permissions;
        if (grant) {
            perms[name] |= mask;
        } else {
            auto p = perms.find(name);
            if (p == perms.end()) return Status::ok();
            p->second &= ~mask;
            if (p->second == 0) perms.erase(p);
        }
        ch->insert(s.role);
        return Status::ok();
    }));
    return ResultSet{};
}

// LIST perms [ON r] [OF role] [NORECURSIVE]: role, username, resource,
// permission; one row per permission, ordered by role, resource, permission.
Result<ResultSet> list_permissions(const Caller& c, const cql::AuthStatement& s,
                                   const std::optional<AuthResource>& resource) {
    auto roles = c.service.roles().snapshot();
    const bool super = c.internal() || roles->is_superuser(c.role);
    std::set<std::string> grantees;
    if (!s.role.empty()) {
        if (!roles->find(s.role)) return Status::invalid(s.role + " doesn't exist");
        if (!super && !roles->closure(c.role).count(s.role)) {
            return unauthorized("You are not authorized to view " + s.role + "'s permissions");
        }
        grantees = s.norecursive ? std::set<std::string>{s.role} : roles->closure(s.role);
    } else {
        if (!super) return unauthorized("You are not authorized to view everyone's permissions");
        for (const auto& [name, _] : roles->roles)
            grantees.insert(name);
    }
    std::set<std::string> resources;  // empty: all
    if (resource) {
        if (s.norecursive) {
            resources.insert(resource_name(*resource));
        } else {
            for (const auto& r : resource_chain(*resource))
                resources.insert(resource_name(r));
        }
    }
    std::vector<std::tuple<std::string, std::string, uint32_t>> found;  // role, resource, bit
    for (const auto& g : grantees) {
        for (const auto& [res, mask] : roles->find(g)->permissions) {
            if (!resources.empty() && !resources.count(res)) continue;
            for (uint32_t bit = 1; bit <= cql::kAllPermissions; bit <<= 1) {
                if (mask & bit & s.permissions) found.emplace_back(g, res, bit);
            }
        }
    }
    ResultSet rs;
    rs.kind = ResultSet::Kind::kRows;
    const auto text = native_type(TypeKind::kVarchar);
    for (const char* n : {"role", "username", "resource", "permission"})
        rs.columns.push_back(auth_column("permissions", n, text));
    for (const auto& [g, res, bit] : found) {
        auto parsed = parse_resource_name(res);
        const std::string shown = parsed ? resource_display(*parsed) : res;
        rs.rows.push_back({system::text_cell(g), system::text_cell(g), system::text_cell(shown),
                           system::text_cell(permission_name(bit))});
    }
    return rs;
}

}  // namespace

Result<ResultSet> run_permission_statement(const Caller& caller, const cql::AuthPlan& plan) {
    const cql::AuthStatement& s = plan.statement;
    if (!caller.service.enforces_permissions()) {
        return Status::invalid(std::string(operation_name(s.kind)) +
                               " operation is not supported by AllowAllAuthorizer");
    }
    std::optional<AuthResource> resource;
    if (s.resource) {
        TESSEL_ASSIGN_OR_RETURN(resource, resolve(*s.resource, plan.keyspace));
    }
    if (s.kind == Kind::kListPermissions) return list_permissions(caller, s, resource);
    return grant_or_revoke(caller, s, *resource);
}

}  // namespace tessel::auth::detail
