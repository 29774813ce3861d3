// SessionAccess: the permission each plan needs (Cassandra's checkAccess of
// every statement), and the dispatch of role and permission statements.
#include <type_traits>

#include "auth/auth_service.h"
#include "auth/statements.h"

namespace tessel::auth {
namespace detail {

Status unauthorized(std::string message) {
    return Status(ErrorCode::kUnauthorized, std::move(message));
}

Status require_permission(const RoleSet& roles, const std::string& role, uint32_t bit,
                          const AuthResource& resource) {
    if (roles.is_superuser(role)) return Status::ok();
    for (const auto& r : resource_chain(resource)) {
        if (roles.permissions_on(role, resource_name(r)) & bit) return Status::ok();
    }
    return unauthorized("User " + role + " has no " + std::string(permission_name(bit)) +
                        " permission on " + resource_display(resource) + " or any of its parents");
}

ColumnSpec auth_column(const char* table, const char* name, TypePtr type) {
    return ColumnSpec{"system_auth", table, name, std::move(type)};
}

}  // namespace detail

namespace {

// Tables every role may read: what drivers query on connect (the 4.0
// schema parsers read system_virtual_schema too).
bool always_readable(const std::string& keyspace) {
    return keyspace == "system" || keyspace == "system_schema" ||
           keyspace == "system_virtual_schema";
}

struct Needed {
    uint32_t bit = 0;  // 0: nothing needed
    AuthResource resource;
};

Needed schema_permission(const cql::SchemaPlan& s) {
    return std::visit(
        [&](const auto& st) -> Needed {
            using T = std::decay_t<decltype(st)>;
            if constexpr (std::is_same_v<T, cql::CreateKeyspaceStatement>) {
                return {cql::kPermCreate, all_keyspaces()};
            } else if constexpr (std::is_same_v<T, cql::AlterKeyspaceStatement>) {
                return {cql::kPermAlter, keyspace_resource(st.keyspace)};
            } else if constexpr (std::is_same_v<T, cql::DropKeyspaceStatement>) {
                return {cql::kPermDrop, keyspace_resource(st.keyspace)};
            } else if constexpr (std::is_same_v<T, cql::CreateTableStatement> ||
                                 std::is_same_v<T, cql::CreateTypeStatement>) {
                return {cql::kPermCreate, keyspace_resource(s.keyspace)};
            } else if constexpr (std::is_same_v<T, cql::AlterTableStatement>) {
                return {cql::kPermAlter, table_resource(s.keyspace, st.table.name)};
            } else if constexpr (std::is_same_v<T, cql::DropTableStatement>) {
                return {cql::kPermDrop, table_resource(s.keyspace, st.table.name)};
            } else if constexpr (std::is_same_v<T, cql::TruncateStatement>) {
                return {cql::kPermModify, table_resource(s.keyspace, st.table.name)};
            } else if constexpr (std::is_same_v<T, cql::AlterTypeStatement>) {
                return {cql::kPermAlter, keyspace_resource(s.keyspace)};
            } else if constexpr (std::is_same_v<T, cql::DropTypeStatement>) {
                return {cql::kPermDrop, keyspace_resource(s.keyspace)};
            } else if constexpr (std::is_same_v<T, cql::DescribeStatement>) {
                return {};
            } else {
                // A schema statement this list does not know yet: keyspace owners only.
                return {cql::kPermAlter, keyspace_resource(s.keyspace)};
            }
        },
        s.statement.node);
}

}  // namespace

Status SessionAccess::authorize(const cql::Plan& plan) {
    if (internal() || !service_.enforces_permissions()) return Status::ok();
    auto roles = service_.roles().snapshot();
    if (roles->is_superuser(role_)) return Status::ok();
    auto check = [&](uint32_t bit, const AuthResource& r) {
        return detail::require_permission(*roles, role_, bit, r);
    };
    if (const auto* s = std::get_if<cql::SelectPlan>(&plan.node)) {
        if (always_readable(s->table->keyspace)) return Status::ok();
        return check(cql::kPermSelect, table_resource(s->table->keyspace, s->table->name));
    }
    // Writes need MODIFY; conditional ones read too, and need SELECT.
    auto check_write = [&](const cql::ModifyPlan& m) {
        const AuthResource table = table_resource(m.table->keyspace, m.table->name);
        TESSEL_RETURN_IF_ERROR(check(cql::kPermModify, table));
        return m.is_conditional() ? check(cql::kPermSelect, table) : Status::ok();
    };
    if (const auto* m = std::get_if<cql::ModifyPlan>(&plan.node)) return check_write(*m);
    if (const auto* b = std::get_if<cql::BatchPlan>(&plan.node)) {
        for (const auto& m : b->statements)
            TESSEL_RETURN_IF_ERROR(check_write(m));
        return Status::ok();
    }
    if (const auto* s = std::get_if<cql::SchemaPlan>(&plan.node)) {
        Needed n = schema_permission(*s);
        return n.bit ? check(n.bit, n.resource) : Status::ok();
    }
    // USE needs nothing; role statements check themselves. A kind of plan
    // this function does not know yet is for superusers only.
    if (std::holds_alternative<cql::UsePlan>(plan.node) ||
        std::holds_alternative<cql::AuthPlan>(plan.node)) {
        return Status::ok();
    }
    return require_superuser("run this statement");
}

Status SessionAccess::require_superuser(std::string_view operation) const {
    if (internal() || !service_.enforces_permissions()) return Status::ok();
    if (service_.roles().snapshot()->is_superuser(role_)) return Status::ok();
    return detail::unauthorized("Only superusers are allowed to " + std::string(operation));
}

Result<ResultSet> SessionAccess::run_auth(const cql::AuthPlan& plan) {
    detail::Caller caller{service_, role_};
    using K = cql::AuthStatement::Kind;
    switch (plan.statement.kind) {
        case K::kGrantPermission:
        case K::kRevokePermission:
        case K::kListPermissions:
            return detail::run_permission_statement(caller, plan);
        default:
            return detail::run_role_statement(caller, plan.statement);
    }
}

}  // namespace tessel::auth
