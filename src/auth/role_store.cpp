#include "auth/role_store.h"

#include <cstring>

#include "common/record_codec.h"

namespace tessel::auth {
namespace {

constexpr uint8_t kFormatVersion = 1;
constexpr const char* kRolePrefix = "role/";

using record::put_str;
using record::put_u32;
using record::Reader;

}  // namespace

std::string encode_role(const Role& role) {
    std::string out;
    out.push_back(static_cast<char>(kFormatVersion));
    put_str(&out, role.name);
    put_str(&out, role.salted_hash);
    out.push_back(static_cast<char>((role.can_login ? 1 : 0) | (role.is_superuser ? 2 : 0)));
    put_u32(&out, static_cast<uint32_t>(role.member_of.size()));
    for (const auto& m : role.member_of)
        put_str(&out, m);
    put_u32(&out, static_cast<uint32_t>(role.permissions.size()));
    for (const auto& [resource, mask] : role.permissions) {
        put_str(&out, resource);
        put_u32(&out, mask);
    }
    return out;
}

Result<Role> decode_role(std::string_view bytes) {
    Reader r(bytes);
    Role role;
    uint8_t version = 0, flags = 0;
    uint32_t n = 0;
    auto bad = [] { return Status::server("malformed role record"); };
    if (!r.u8(&version) || version != kFormatVersion) return bad();
    if (!r.str(&role.name) || !r.str(&role.salted_hash) || !r.u8(&flags) || !r.u32(&n)) {
        return bad();
    }
    role.can_login = flags & 1;
    role.is_superuser = flags & 2;
    for (uint32_t i = 0; i < n; ++i) {
        std::string m;
        if (!r.str(&m)) return bad();
        role.member_of.insert(std::move(m));
    }
    if (!r.u32(&n)) return bad();
    for (uint32_t i = 0; i < n; ++i) {
        std::string resource;
        uint32_t mask = 0;
        if (!r.str(&resource) || !r.u32(&mask)) return bad();
        role.permissions[resource] = mask;
    }
    if (!r.done()) return bad();
    return role;
}

const Role* RoleSet::find(const std::string& name) const {
    auto it = roles.find(name);
    return it == roles.end() ? nullptr : &it->second;
}

std::set<std::string> RoleSet::closure(const std::string& name) const {
    std::set<std::string> out;
    std::vector<std::string> todo{name};
    while (!todo.empty()) {
        std::string n = std::move(todo.back());
        todo.pop_back();
        const Role* r = find(n);
        if (!r || !out.insert(n).second) continue;
        for (const auto& m : r->member_of)
            todo.push_back(m);
    }
    return out;
}

void RoleSet::index() {
    effective_.clear();
    for (const auto& [name, _] : roles) {
        Effective& e = effective_[name];
        for (const auto& n : closure(name)) {
            const Role* r = find(n);
            e.superuser = e.superuser || r->is_superuser;
            for (const auto& [resource, mask] : r->permissions)
                e.permissions[resource] |= mask;
        }
    }
}

bool RoleSet::is_superuser(const std::string& name) const {
    auto it = effective_.find(name);
    return it != effective_.end() && it->second.superuser;
}

uint32_t RoleSet::permissions_on(const std::string& name, const std::string& resource_name) const {
    auto it = effective_.find(name);
    if (it == effective_.end()) return 0;
    auto p = it->second.permissions.find(resource_name);
    return p == it->second.permissions.end() ? 0 : p->second;
}

RoleStore::RoleStore(std::shared_ptr<CatalogStore> store)
    : store_(std::move(store)), current_(std::make_shared<const RoleSet>()) {}

Status RoleStore::load() {
    std::lock_guard<std::mutex> lock(write_mu_);
    TESSEL_ASSIGN_OR_RETURN(auto entries, store_->list(kRolePrefix));
    auto set = std::make_shared<RoleSet>();
    for (const auto& [key, value] : entries) {
        auto role = decode_role(value);
        if (!role.is_ok()) return Status::server("cannot read auth record " + key);
        std::string name = role->name;
        set->roles.emplace(std::move(name), std::move(role).value());
    }
    set->index();
    current_.store(std::move(set));
    return Status::ok();
}

Status RoleStore::update(const Change& change) {
    std::lock_guard<std::mutex> lock(write_mu_);
    auto copy = std::make_shared<RoleSet>(*current_.load());
    std::set<std::string> changed;
    TESSEL_RETURN_IF_ERROR(change(*copy, &changed));
    if (changed.empty()) return Status::ok();
    CatalogBatch batch;
    for (const auto& name : changed) {
        const Role* r = copy->find(name);
        if (r) {
            batch.put(kRolePrefix + name, encode_role(*r));
        } else {
            batch.remove(kRolePrefix + name);
        }
    }
    TESSEL_RETURN_IF_ERROR(store_->write(batch));
    copy->index();
    current_.store(std::move(copy));
    return Status::ok();
}

}  // namespace tessel::auth
