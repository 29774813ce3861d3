#include "auth/auth_service.h"

#include "auth/statements.h"

namespace tessel::auth {
namespace {

constexpr std::string_view kAuthPackage = "org.apache.cassandra.auth.";
constexpr const char* kDefaultSuperuser = "cassandra";

std::string_view short_name(std::string_view name) {
    if (name.substr(0, kAuthPackage.size()) == kAuthPackage)
        name.remove_prefix(kAuthPackage.size());
    return name;
}

Status bad_credentials(std::string_view username) {
    return Status(ErrorCode::kBadCredentials,
                  "Provided username " + std::string(username) + " and/or password are incorrect");
}

}  // namespace

Result<bool> parse_authenticator(std::string_view name) {
    std::string_view n = short_name(name);
    if (n == "AllowAllAuthenticator") return false;
    if (n == "PasswordAuthenticator") return true;
    return Status::config("Unknown authenticator " + std::string(name) +
                          " (expected AllowAllAuthenticator or PasswordAuthenticator)");
}

Result<bool> parse_authorizer(std::string_view name) {
    std::string_view n = short_name(name);
    if (n == "AllowAllAuthorizer") return false;
    if (n == "CassandraAuthorizer") return true;
    return Status::config("Unknown authorizer " + std::string(name) +
                          " (expected AllowAllAuthorizer or CassandraAuthorizer)");
}

Result<std::unique_ptr<AuthService>> AuthService::open(std::shared_ptr<CatalogStore> store,
                                                       AuthOptions options) {
    if (options.cassandra_authorizer && !options.password_authenticator) {
        return Status::config(
            "CassandraAuthorizer needs PasswordAuthenticator: with AllowAllAuthenticator every "
            "client is anonymous");
    }
    auto service =
        std::unique_ptr<AuthService>(new AuthService(std::move(store), std::move(options)));
    TESSEL_RETURN_IF_ERROR(service->roles_.load());
    if (service->requires_login() && service->roles_.snapshot()->roles.empty()) {
        TESSEL_RETURN_IF_ERROR(service->create_default_superuser());
    }
    return service;
}

Status AuthService::create_default_superuser() {
    TESSEL_ASSIGN_OR_RETURN(std::string hash,
                            hash_password(kDefaultSuperuser, options_.hash_iterations));
    return roles_.update([&](RoleSet& roles, std::set<std::string>* changed) {
        Role r;
        r.name = kDefaultSuperuser;
        r.salted_hash = hash;
        r.can_login = true;
        r.is_superuser = true;
        roles.roles[r.name] = r;
        changed->insert(r.name);
        return Status::ok();
    });
}

Status AuthService::authenticate(std::string_view username, std::string_view password) {
    auto roles = roles_.snapshot();
    const Role* role = roles->find(std::string(username));
    if (!role || role->salted_hash.empty()) {
        std::call_once(dummy_once_, [this] {
            auto h = hash_password("", options_.hash_iterations);
            if (h.is_ok()) dummy_hash_ = std::move(h).value();
        });
        (void)verify_password(password, dummy_hash_);
        return bad_credentials(username);
    }
    if (!verify_password(password, role->salted_hash)) return bad_credentials(username);
    if (!role->can_login) {
        return Status(ErrorCode::kBadCredentials,
                      std::string(username) + " is not permitted to log in");
    }
    return Status::ok();
}

std::unique_ptr<SessionAccess> AuthService::access_for(std::string role) {
    return std::make_unique<SessionAccess>(*this, std::move(role));
}

void SessionAccess::on_schema_change(const SchemaChange& change) {
    const bool keyspace = change.target == "KEYSPACE";
    if (!keyspace && change.target != "TABLE") return;
    const AuthResource resource = keyspace ? keyspace_resource(change.keyspace)
                                           : table_resource(change.keyspace, change.name);
    const std::string name = resource_name(resource);
    if (change.change_type == "DROPPED") {
        // Permissions on a dropped keyspace (and its tables) or table go with it.
        const std::string below = name + "/";
        (void)service_.roles().update([&](RoleSet& roles, std::set<std::string>* changed) {
            for (auto& [role_name, role] : roles.roles) {
                for (auto it = role.permissions.begin(); it != role.permissions.end();) {
                    if (it->first == name || it->first.rfind(below, 0) == 0) {
                        it = role.permissions.erase(it);
                        changed->insert(role_name);
                    } else {
                        ++it;
                    }
                }
            }
            return Status::ok();
        });
        return;
    }
    if (change.change_type != "CREATED" || internal() || !service_.enforces_permissions()) return;
    (void)service_.roles().update([&](RoleSet& roles, std::set<std::string>* changed) {
        auto it = roles.roles.find(role_);
        if (it == roles.roles.end()) return Status::ok();
        it->second.permissions[name] |= applicable_permissions(resource);
        changed->insert(role_);
        return Status::ok();
    });
}

}  // namespace tessel::auth
