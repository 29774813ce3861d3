// CREATE / ALTER / DROP TYPE. A user type is embedded in the CqlType of every
// column that uses it, so changing a type rewrites those tables and types too.
#include <fmt/format.h>

#include <set>

#include "schema/catalog.h"

namespace tessel {
namespace {

using Type = CatalogChange::Type;
using Target = CatalogChange::Target;

Status check_field_type(const TypeSpec& spec, const CqlType& type) {
    if (type.is_counter()) return Status::invalid("A user type cannot contain counters");
    if (type.kind == TypeKind::kUdt && !spec.frozen) {
        return Status::invalid("A user type cannot contain non-frozen UDTs");
    }
    return Status::ok();
}

}  // namespace

Result<CatalogChange> Catalog::create_type(
    const std::string& keyspace, const std::string& name,
    const std::vector<std::pair<std::string, TypeSpec>>& fields, bool if_not_exists) {
    return run([&](Txn& txn) -> Result<CatalogChange> {
        auto ks = txn.next.keyspace(keyspace);
        if (!ks) {
            return Status::invalid(fmt::format("Cannot add type in unknown keyspace {}", keyspace));
        }
        if (ks->type(name)) {
            if (if_not_exists)
                return CatalogChange{Type::kCreated, Target::kType, keyspace, name, false};
            return Status::invalid(
                fmt::format("A user type of name {}.{} already exists", keyspace, name));
        }
        UserTypeDef u{keyspace, name, {}, {}};
        std::set<std::string> seen;
        for (const auto& [field, spec] : fields) {
            if (!seen.insert(field).second) {
                return Status::invalid(
                    fmt::format("Duplicate field name {} in type {}.{}", field, keyspace, name));
            }
            TESSEL_ASSIGN_OR_RETURN(TypePtr type, txn.next.resolve_type(keyspace, spec));
            TESSEL_RETURN_IF_ERROR(check_field_type(spec, *type));
            u.field_names.push_back(field);
            u.field_types.push_back(std::move(type));
        }
        txn.put_type(u);
        txn.mutable_keyspace(keyspace).types[name] = std::make_shared<const UserTypeDef>(u);
        return CatalogChange{Type::kCreated, Target::kType, keyspace, name, true};
    });
}

namespace {

// Finds the type for ALTER TYPE with Cassandra's messages.
Result<std::shared_ptr<const UserTypeDef>> existing_type(const Schema& s, const std::string& ks,
                                                         const std::string& name) {
    if (!s.keyspace(ks)) {
        return Status::invalid(fmt::format("Cannot alter type in unknown keyspace {}", ks));
    }
    auto u = s.type(ks, name);
    if (!u) return Status::invalid(fmt::format("No user type named {}.{} exists.", ks, name));
    return u;
}

}  // namespace

Result<CatalogChange> Catalog::publish_type(Txn& txn, const UserTypeDef& u) {
    KeyspaceDef& ks = txn.mutable_keyspace(u.keyspace);
    ks.types[u.name] = std::make_shared<const UserTypeDef>(u);
    txn.put_type(u);
    for (auto& [name, other] : ks.types) {
        if (name == u.name) continue;
        bool uses = false;
        for (const auto& f : other->field_types) {
            uses = uses || type_references_udt(*f, u.keyspace, u.name);
        }
        if (!uses) continue;
        auto copy = std::make_shared<UserTypeDef>(*other);
        for (auto& f : copy->field_types)
            f = replace_udt(f, u);
        txn.put_type(*copy);
        other = std::move(copy);
    }
    for (auto& [name, table] : ks.tables) {
        bool uses = false;
        for (const auto& c : table->columns) {
            uses = uses || type_references_udt(*c.type, u.keyspace, u.name);
        }
        if (!uses) continue;
        auto copy = std::make_shared<TableDef>(*table);
        for (auto& c : copy->columns)
            c.type = replace_udt(c.type, u);
        copy->finalize();
        txn.put_table(*copy);
        table = std::move(copy);
    }
    return CatalogChange{Type::kUpdated, Target::kType, u.keyspace, u.name, true};
}

Result<CatalogChange> Catalog::alter_type_add(const std::string& keyspace, const std::string& name,
                                              const std::string& field, const TypeSpec& spec) {
    return run([&](Txn& txn) -> Result<CatalogChange> {
        TESSEL_ASSIGN_OR_RETURN(auto current, existing_type(txn.next, keyspace, name));
        if (current->field_index(field) >= 0) {
            return Status::invalid(fmt::format(
                "Cannot add new field {} to type {}.{}: a field of the same name already exists",
                field, keyspace, name));
        }
        TESSEL_ASSIGN_OR_RETURN(TypePtr type, txn.next.resolve_type(keyspace, spec));
        TESSEL_RETURN_IF_ERROR(check_field_type(spec, *type));
        if (type_references_udt(*type, keyspace, name)) {
            return Status::invalid(fmt::format(
                "Cannot add new field {} of type {} to type {}.{} as this would create a circular "
                "reference",
                field, type->cql_name(), keyspace, name));
        }
        UserTypeDef u = *current;
        u.field_names.push_back(field);
        u.field_types.push_back(std::move(type));
        return publish_type(txn, u);
    });
}

Result<CatalogChange> Catalog::alter_type_rename(
    const std::string& keyspace, const std::string& name,
    const std::vector<std::pair<std::string, std::string>>& renames) {
    return run([&](Txn& txn) -> Result<CatalogChange> {
        TESSEL_ASSIGN_OR_RETURN(auto current, existing_type(txn.next, keyspace, name));
        UserTypeDef u = *current;
        for (const auto& [from, to] : renames) {
            int idx = u.field_index(from);
            if (idx < 0) {
                return Status::invalid(
                    fmt::format("Unknown field {} in type {}.{}", from, keyspace, name));
            }
            if (u.field_index(to) >= 0) {
                return Status::invalid(
                    fmt::format("Duplicate field name {} in type {}.{}", to, keyspace, name));
            }
            u.field_names[static_cast<size_t>(idx)] = to;
        }
        return publish_type(txn, u);
    });
}

Result<CatalogChange> Catalog::drop_type(const std::string& keyspace, const std::string& name,
                                         bool if_exists) {
    return run([&](Txn& txn) -> Result<CatalogChange> {
        auto ks = txn.next.keyspace(keyspace);
        if (!ks) {
            if (if_exists)
                return CatalogChange{Type::kDropped, Target::kType, keyspace, name, false};
            return Status::invalid(
                fmt::format("Cannot drop type in unknown keyspace {}", keyspace));
        }
        if (!ks->type(name)) {
            if (if_exists)
                return CatalogChange{Type::kDropped, Target::kType, keyspace, name, false};
            return Status::invalid(fmt::format("No user type named {}.{} exists.", keyspace, name));
        }
        for (const auto& [other, u] : ks->types) {
            if (other == name) continue;
            for (const auto& f : u->field_types) {
                if (type_references_udt(*f, keyspace, name)) {
                    return Status::invalid(fmt::format(
                        "Cannot drop user type {}.{} as it is still used by user type {}", keyspace,
                        name, other));
                }
            }
        }
        for (const auto& [tname, t] : ks->tables) {
            for (const auto& c : t->columns) {
                if (type_references_udt(*c.type, keyspace, name)) {
                    return Status::invalid(fmt::format(
                        "Cannot drop user type {}.{} as it is still used by table {}.{}", keyspace,
                        name, keyspace, tname));
                }
            }
        }
        txn.mutable_keyspace(keyspace).types.erase(name);
        txn.batch.remove(type_key(keyspace, name));
        return CatalogChange{Type::kDropped, Target::kType, keyspace, name, true};
    });
}

}  // namespace tessel
