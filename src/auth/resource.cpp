#include "auth/resource.h"

namespace tessel::auth {

AuthResource all_keyspaces() {
    return AuthResource{};
}

AuthResource keyspace_resource(std::string keyspace) {
    return AuthResource{AuthResource::Level::kKeyspace, std::move(keyspace), {}, {}};
}

AuthResource table_resource(std::string keyspace, std::string table) {
    return AuthResource{AuthResource::Level::kTable, std::move(keyspace), std::move(table), {}};
}

AuthResource all_roles() {
    return AuthResource{AuthResource::Level::kAllRoles, {}, {}, {}};
}

AuthResource role_resource(std::string role) {
    return AuthResource{AuthResource::Level::kRole, {}, {}, std::move(role)};
}

std::string resource_name(const AuthResource& r) {
    switch (r.level) {
        case AuthResource::Level::kAllKeyspaces:
            return "data";
        case AuthResource::Level::kKeyspace:
            return "data/" + r.keyspace;
        case AuthResource::Level::kAllRoles:
            return "roles";
        case AuthResource::Level::kRole:
            return "roles/" + r.role;
        case AuthResource::Level::kTable:
            break;
    }
    return "data/" + r.keyspace + "/" + r.table;
}

std::optional<AuthResource> parse_resource_name(std::string_view name) {
    if (name == "data") return all_keyspaces();
    if (name == "roles") return all_roles();
    if (name.substr(0, 6) == "roles/" && name.size() > 6) {
        return role_resource(std::string(name.substr(6)));
    }
    if (name.substr(0, 5) != "data/" || name.size() == 5) return std::nullopt;
    std::string_view rest = name.substr(5);
    size_t slash = rest.find('/');
    if (slash == std::string_view::npos) return keyspace_resource(std::string(rest));
    if (slash == 0 || slash + 1 == rest.size()) return std::nullopt;
    return table_resource(std::string(rest.substr(0, slash)), std::string(rest.substr(slash + 1)));
}

std::string resource_display(const AuthResource& r) {
    switch (r.level) {
        case AuthResource::Level::kAllKeyspaces:
            return "<all keyspaces>";
        case AuthResource::Level::kKeyspace:
            return "<keyspace " + r.keyspace + ">";
        case AuthResource::Level::kAllRoles:
            return "<all roles>";
        case AuthResource::Level::kRole:
            return "<role " + r.role + ">";
        case AuthResource::Level::kTable:
            break;
    }
    return "<table " + r.keyspace + "." + r.table + ">";
}

std::vector<AuthResource> resource_chain(const AuthResource& r) {
    std::vector<AuthResource> out{r};
    if (r.level == AuthResource::Level::kRole) out.push_back(all_roles());
    if (r.is_role()) return out;
    if (r.level == AuthResource::Level::kTable) out.push_back(keyspace_resource(r.keyspace));
    if (r.level != AuthResource::Level::kAllKeyspaces) out.push_back(all_keyspaces());
    return out;
}

std::string_view permission_name(uint32_t bit) {
    switch (bit) {
        case cql::kPermCreate:
            return "CREATE";
        case cql::kPermAlter:
            return "ALTER";
        case cql::kPermDrop:
            return "DROP";
        case cql::kPermSelect:
            return "SELECT";
        case cql::kPermModify:
            return "MODIFY";
        case cql::kPermAuthorize:
            return "AUTHORIZE";
        case cql::kPermDescribe:
            return "DESCRIBE";
        default:
            return "UNKNOWN";
    }
}

std::vector<std::string> permission_names(uint32_t mask) {
    std::vector<std::string> out;
    for (uint32_t bit = 1; bit <= cql::kAllPermissions; bit <<= 1) {
        if (mask & bit) out.emplace_back(permission_name(bit));
    }
    return out;
}

uint32_t applicable_permissions(const AuthResource& r) {
    constexpr uint32_t kData = cql::kPermCreate | cql::kPermAlter | cql::kPermDrop |
                               cql::kPermSelect | cql::kPermModify | cql::kPermAuthorize;
    switch (r.level) {
        case AuthResource::Level::kTable:
            return kData & ~cql::kPermCreate;
        case AuthResource::Level::kAllRoles:
            return cql::kPermCreate | cql::kPermAlter | cql::kPermDrop | cql::kPermAuthorize |
                   cql::kPermDescribe;
        case AuthResource::Level::kRole:
            return cql::kPermAlter | cql::kPermDrop | cql::kPermAuthorize;
        default:
            return kData;
    }
}

}  // namespace tessel::auth
