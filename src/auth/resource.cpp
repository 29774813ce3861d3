#include "auth/resource.h"

namespace tessel::auth {

DataResource all_keyspaces() {
    return DataResource{};
}

DataResource keyspace_resource(std::string keyspace) {
    return DataResource{DataResource::Level::kKeyspace, std::move(keyspace), {}};
}

DataResource table_resource(std::string keyspace, std::string table) {
    return DataResource{DataResource::Level::kTable, std::move(keyspace), std::move(table)};
}

std::string resource_name(const DataResource& r) {
    switch (r.level) {
        case DataResource::Level::kAllKeyspaces:
            return "data";
        case DataResource::Level::kKeyspace:
            return "data/" + r.keyspace;
        case DataResource::Level::kTable:
            break;
    }
    return "data/" + r.keyspace + "/" + r.table;
}

std::optional<DataResource> parse_resource_name(std::string_view name) {
    if (name == "data") return all_keyspaces();
    if (name.substr(0, 5) != "data/" || name.size() == 5) return std::nullopt;
    std::string_view rest = name.substr(5);
    size_t slash = rest.find('/');
    if (slash == std::string_view::npos) return keyspace_resource(std::string(rest));
    if (slash == 0 || slash + 1 == rest.size()) return std::nullopt;
    return table_resource(std::string(rest.substr(0, slash)), std::string(rest.substr(slash + 1)));
}

std::string resource_display(const DataResource& r) {
    switch (r.level) {
        case DataResource::Level::kAllKeyspaces:
            return "<all keyspaces>";
        case DataResource::Level::kKeyspace:
            return "<keyspace " + r.keyspace + ">";
        case DataResource::Level::kTable:
            break;
    }
    return "<table " + r.keyspace + "." + r.table + ">";
}

std::vector<DataResource> resource_chain(const DataResource& r) {
    std::vector<DataResource> out{r};
    if (r.level == DataResource::Level::kTable) out.push_back(keyspace_resource(r.keyspace));
    if (r.level != DataResource::Level::kAllKeyspaces) out.push_back(all_keyspaces());
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

uint32_t applicable_permissions(const DataResource& r) {
    if (r.level == DataResource::Level::kTable) return cql::kAllPermissions & ~cql::kPermCreate;
    return cql::kAllPermissions;
}

}  // namespace tessel::auth
