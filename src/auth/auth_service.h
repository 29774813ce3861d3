// AuthService: who gets in and what they may do.
//
// Authenticators: AllowAllAuthenticator (default: no login) or
// PasswordAuthenticator (SASL PLAIN; roles with salted PBKDF2 hashes). On
// first start with PasswordAuthenticator and no roles at all, the default
// superuser cassandra/cassandra is created, as Cassandra does.
// Authorizers: AllowAllAuthorizer (default: no checks; GRANT/REVOKE/LIST
// PERMISSIONS refused) or CassandraAuthorizer (permissions on ALL KEYSPACES,
// KEYSPACE and TABLE, inherited downwards and through granted roles;
// superusers may do anything).
//
// Roles always exist (CassandraRoleManager): CREATE ROLE and friends work
// whichever authenticator is configured. The embedded API's own sessions act
// with full rights (like Cassandra's internal client state); server sessions
// act as the role that logged in.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "auth/password_hash.h"
#include "auth/resource.h"
#include "auth/role_store.h"
#include "query/access.h"
#include "query/virtual_table.h"

namespace tessel::auth {

struct AuthOptions {
    bool password_authenticator = false;
    bool cassandra_authorizer = false;
    int hash_iterations = kDefaultIterations;
    // Whether a keyspace or table exists (GRANT on a missing one is refused).
    std::function<bool(const AuthResource&)> resource_exists;
};

// Parses an authenticator / authorizer setting: the short or the
// org.apache.cassandra.auth.* class name. Config_error for anything else.
Result<bool> parse_authenticator(std::string_view name);  // true: PasswordAuthenticator
Result<bool> parse_authorizer(std::string_view name);     // true: CassandraAuthorizer

class SessionAccess;

class AuthService {
  public:
    // Loads the roles from `store` (keys "role/<name>") and creates the
    // default superuser when it must.
    static Result<std::unique_ptr<AuthService>> open(std::shared_ptr<CatalogStore> store,
                                                     AuthOptions options);

    bool requires_login() const { return options_.password_authenticator; }
    bool enforces_permissions() const { return options_.cassandra_authorizer; }
    const AuthOptions& options() const { return options_; }
    RoleStore& roles() { return roles_; }

    // Bad_credentials "Provided username x and/or password are incorrect", or
    // "x is not permitted to log in" for a role without LOGIN.
    Status authenticate(std::string_view username, std::string_view password);

    // The access of a session logged in as `role`; an empty role is the
    // embedded API's unrestricted access.
    std::unique_ptr<SessionAccess> access_for(std::string role);

    // system_auth.roles, role_permissions and role_members.
    std::vector<std::unique_ptr<query::VirtualTable>> virtual_tables();

  private:
    AuthService(std::shared_ptr<CatalogStore> store, AuthOptions options)
        : options_(std::move(options)), roles_(std::move(store)) {}
    Status create_default_superuser();

    AuthOptions options_;
    RoleStore roles_;
    // A hash to check unknown users against, so that a wrong user name takes
    // as long as a wrong password (no user enumeration by timing).
    std::once_flag dummy_once_;
    std::string dummy_hash_;
};

// A session's AccessControl.
class SessionAccess final : public query::AccessControl {
  public:
    SessionAccess(AuthService& service, std::string role)
        : service_(service), role_(std::move(role)) {}

    Status authorize(const cql::Plan& plan) override;
    // Operator commands: anyone without CassandraAuthorizer, else superusers.
    Status require_superuser(std::string_view operation) const;
    Result<ResultSet> run_auth(const cql::AuthPlan& plan) override;

    // After a successful schema change by this session: the creator of a
    // keyspace or table gets ALL on it; a dropped one loses its permissions.
    void on_schema_change(const SchemaChange& change) override;

    const std::string& role() const { return role_; }
    bool internal() const { return role_.empty(); }

  private:
    AuthService& service_;
    std::string role_;
};

}  // namespace tessel::auth
