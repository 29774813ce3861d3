// system_auth.roles, role_permissions and role_members (Cassandra 3.11's
// columns) as virtual tables over the role store. Reading them needs SELECT
// on them like any table, so only superusers see the salted hashes.
#include "auth/auth_service.h"
#include "system/cell_encoding.h"

namespace tessel::auth {
namespace {

using query::VirtualRow;

class AuthTable : public query::VirtualTable {
  public:
    AuthTable(RoleStore& roles, std::string name, std::string columns)
        : roles_(roles), name_(std::move(name)), columns_(std::move(columns)) {}
    std::string keyspace() const override { return "system_auth"; }
    std::string name() const override { return name_; }
    std::string schema_cql() const override {
        return "CREATE TABLE system_auth." + name_ + " (" + columns_ + ")";
    }

  protected:
    RoleStore& roles_;

  private:
    std::string name_;
    std::string columns_;
};

class RolesTable final : public AuthTable {
  public:
    explicit RolesTable(RoleStore& roles)
        : AuthTable(roles, "roles",
                    "role text PRIMARY KEY, can_login boolean, is_superuser boolean, "
                    "member_of frozen<set<text>>, salted_hash text") {}
    Result<std::vector<VirtualRow>> rows() const override {
        std::vector<VirtualRow> out;
        for (const auto& [name, r] : roles_.snapshot()->roles) {
            system::Cell member_of;
            if (!r.member_of.empty()) {
                member_of = system::text_set_cell({r.member_of.begin(), r.member_of.end()});
            }
            system::Cell hash;
            if (!r.salted_hash.empty()) hash = system::text_cell(r.salted_hash);
            out.push_back({system::text_cell(name), system::bool_cell(r.can_login),
                           system::bool_cell(r.is_superuser), member_of, hash});
        }
        return out;
    }
};

class RolePermissionsTable final : public AuthTable {
  public:
    explicit RolePermissionsTable(RoleStore& roles)
        : AuthTable(roles, "role_permissions",
                    "role text, resource text, permissions frozen<set<text>>, "
                    "PRIMARY KEY (role, resource)") {}
    Result<std::vector<VirtualRow>> rows() const override {
        std::vector<VirtualRow> out;
        for (const auto& [name, r] : roles_.snapshot()->roles) {
            for (const auto& [resource, mask] : r.permissions) {
                out.push_back({system::text_cell(name), system::text_cell(resource),
                               system::text_set_cell(permission_names(mask))});
            }
        }
        return out;
    }
};

class RoleMembersTable final : public AuthTable {
  public:
    explicit RoleMembersTable(RoleStore& roles)
        : AuthTable(roles, "role_members", "role text, member text, PRIMARY KEY (role, member)") {}
    Result<std::vector<VirtualRow>> rows() const override {
        std::vector<VirtualRow> out;
        for (const auto& [name, r] : roles_.snapshot()->roles) {
            for (const auto& granted : r.member_of)
                out.push_back({system::text_cell(granted), system::text_cell(name)});
        }
        return out;
    }
};

}  // namespace

std::vector<std::unique_ptr<query::VirtualTable>> AuthService::virtual_tables() {
    std::vector<std::unique_ptr<query::VirtualTable>> out;
    out.push_back(std::make_unique<RolesTable>(roles_));
    out.push_back(std::make_unique<RolePermissionsTable>(roles_));
    out.push_back(std::make_unique<RoleMembersTable>(roles_));
    return out;
}

}  // namespace tessel::auth
