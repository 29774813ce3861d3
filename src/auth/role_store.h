// Roles, their memberships and their permissions, persisted in the catalog
// family (CassandraRoleManager's and CassandraAuthorizer's data).
//
// Readers take an immutable RoleSet snapshot (one atomic load, no lock):
// authorization runs on every request. Changes are serialised, applied to a
// copy, written as one batch (one record per changed role under
// "role/<name>") and then published.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "common/status.h"
#include "schema/catalog_store.h"

namespace tessel::auth {

struct Role {
    std::string name;
    std::string salted_hash;  // empty: no password (cannot log in with one)
    bool can_login = false;
    bool is_superuser = false;
    std::set<std::string> member_of;              // roles granted to this one
    std::map<std::string, uint32_t> permissions;  // resource name -> Permission mask
};

std::string encode_role(const Role& role);
Result<Role> decode_role(std::string_view bytes);

class RoleSet {
  public:
    std::map<std::string, Role> roles;

    // Recomputes what each role holds through the roles granted to it (its
    // superuser status and permissions), so that checks are lookups. Called
    // before a set is published; is_superuser/permissions_on read it.
    void index();

    const Role* find(const std::string& name) const;
    // `name` and every role granted to it, transitively (cycles are refused
    // when granting, but tolerated here).
    std::set<std::string> closure(const std::string& name) const;
    // A superuser role, or one granted a superuser role.
    bool is_superuser(const std::string& name) const;
    // Union of the permissions `name` holds (directly or through its roles)
    // on exactly the resource `resource_name`.
    uint32_t permissions_on(const std::string& name, const std::string& resource_name) const;

  private:
    struct Effective {
        bool superuser = false;
        std::map<std::string, uint32_t> permissions;
    };
    std::map<std::string, Effective> effective_;
};

class RoleStore {
  public:
    // `store` keeps the records (keys "role/<name>").
    explicit RoleStore(std::shared_ptr<CatalogStore> store);

    // Reads every role; Server_error naming the key when one cannot be decoded.
    Status load();

    std::shared_ptr<const RoleSet> snapshot() const { return current_.load(); }

    // Runs `change` on a copy of the current set; it records in `changed` the
    // roles it created, modified or removed. Those are persisted in one batch,
    // then the copy becomes current. A failed change leaves everything as is.
    using Change = std::function<Status(RoleSet& roles, std::set<std::string>* changed)>;
    Status update(const Change& change);

  private:
    std::shared_ptr<CatalogStore> store_;
    std::mutex write_mu_;
    std::atomic<std::shared_ptr<const RoleSet>> current_;
};

}  // namespace tessel::auth
