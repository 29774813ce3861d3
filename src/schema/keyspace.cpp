#include "schema/keyspace.h"

#include <fmt/format.h>

namespace tessel {
namespace {

// Cassandra's freeze(): a frozen collection freezes everything inside it.
TypePtr freeze_deep(const TypePtr& t) {
    if (t->kind == TypeKind::kUdt) return frozen_of(t);
    if (!t->is_collection() && t->kind != TypeKind::kTuple) return t;
    auto copy = std::make_shared<CqlType>(*t);
    copy->frozen = true;
    for (auto& p : copy->params)
        p = freeze_deep(p);
    return copy;
}

Status invalid(std::string m) {
    return Status::invalid(std::move(m));
}

class Resolver {
  public:
    Resolver(const Schema& schema, std::string_view keyspace)
        : schema_(schema), keyspace_(keyspace) {}

    Result<TypePtr> resolve(const TypeSpec& spec) {
        if (++depth_ > 64) return Status::syntax("Type nesting is too deep");
        auto r = resolve_inner(spec);
        --depth_;
        return r;
    }

  private:
    Result<TypePtr> resolve_inner(const TypeSpec& spec) {
        if (spec.keyspace.empty()) {
            if (TypePtr native = native_type_by_name(spec.name)) {
                if (!spec.params.empty()) return bad_arity(spec);
                if (spec.frozen) {
                    return invalid(
                        "frozen<> is only allowed on collections, tuples, and user-defined types");
                }
                return native;
            }
            if (spec.name == "list" || spec.name == "set" || spec.name == "map") {
                return collection(spec);
            }
            if (spec.name == "tuple") return tuple(spec);
        }
        return user_type(spec);
    }

    Status bad_arity(const TypeSpec& spec) {
        return Status::syntax(fmt::format("Invalid type {}", spec.to_string()));
    }

    Result<TypePtr> collection(const TypeSpec& spec) {
        size_t arity = spec.name == "map" ? 2 : 1;
        if (spec.params.size() != arity) return bad_arity(spec);
        std::vector<TypePtr> params;
        for (const TypeSpec& ps : spec.params) {
            TESSEL_ASSIGN_OR_RETURN(TypePtr p, resolve(ps));
            if (!spec.frozen && p->is_multi_cell()) {
                return invalid(
                    fmt::format(fmt::runtime(p->is_collection()
                                                 ? "Non-frozen collections are not allowed inside "
                                                   "collections: {}"
                                                 : "Non-frozen UDTs are not allowed inside "
                                                   "collections: {}"),
                                spec.to_string()));
            }
            if (p->is_counter()) {
                return invalid(fmt::format("Counters are not allowed inside collections: {}",
                                           spec.to_string()));
            }
            params.push_back(spec.frozen ? freeze_deep(p) : p);
        }
        if (spec.name == "set" && type_references_duration(*params[0])) {
            return invalid(
                fmt::format("Durations are not allowed inside sets: {}", spec.to_string()));
        }
        if (spec.name == "map" && type_references_duration(*params[0])) {
            return invalid(
                fmt::format("Durations are not allowed as map keys: {}", spec.to_string()));
        }
        if (spec.name == "list") return list_type(params[0], spec.frozen);
        if (spec.name == "set") return set_type(params[0], spec.frozen);
        return map_type(params[0], params[1], spec.frozen);
    }

    Result<TypePtr> tuple(const TypeSpec& spec) {
        if (spec.params.empty()) return bad_arity(spec);
        std::vector<TypePtr> params;
        for (const TypeSpec& ps : spec.params) {
            TESSEL_ASSIGN_OR_RETURN(TypePtr p, resolve(ps));
            if (p->is_counter()) return invalid("Counters are not allowed inside tuples");
            params.push_back(freeze_deep(p));  // tuple components are always frozen
        }
        return tuple_type(std::move(params));
    }

    Result<TypePtr> user_type(const TypeSpec& spec) {
        if (!spec.params.empty()) return bad_arity(spec);
        std::string ks = spec.keyspace.empty() ? std::string(keyspace_) : spec.keyspace;
        if (ks != keyspace_) {
            return invalid(fmt::format(
                "Statement on keyspace {} cannot refer to a user type in keyspace {}; user types "
                "can only be used in the keyspace they are defined in",
                keyspace_, ks));
        }
        auto def = schema_.type(ks, spec.name);
        if (!def) return invalid(fmt::format("Unknown type {}.{}", ks, spec.name));
        return def->as_type(spec.frozen);
    }

    const Schema& schema_;
    std::string_view keyspace_;
    int depth_ = 0;
};

}  // namespace

TypePtr UserTypeDef::as_type(bool frozen) const {
    return udt_type(keyspace, name, field_names, field_types, frozen);
}

int UserTypeDef::field_index(std::string_view field) const {
    for (size_t i = 0; i < field_names.size(); ++i) {
        if (field_names[i] == field) return static_cast<int>(i);
    }
    return -1;
}

std::shared_ptr<const TableDef> KeyspaceDef::table(std::string_view n) const {
    auto it = tables.find(n);
    return it == tables.end() ? nullptr : it->second;
}

std::shared_ptr<const UserTypeDef> KeyspaceDef::type(std::string_view n) const {
    auto it = types.find(n);
    return it == types.end() ? nullptr : it->second;
}

std::shared_ptr<const KeyspaceDef> Schema::keyspace(std::string_view name) const {
    auto it = keyspaces.find(name);
    return it == keyspaces.end() ? nullptr : it->second;
}

std::shared_ptr<const TableDef> Schema::table(std::string_view ks, std::string_view name) const {
    auto k = keyspace(ks);
    return k ? k->table(name) : nullptr;
}

std::shared_ptr<const UserTypeDef> Schema::type(std::string_view ks, std::string_view name) const {
    auto k = keyspace(ks);
    return k ? k->type(name) : nullptr;
}

std::shared_ptr<const TableDef> Schema::table_by_id(const Uuid& id) const {
    for (const auto& [_, ks] : keyspaces) {
        for (const auto& [__, t] : ks->tables) {
            if (t->id == id) return t;
        }
    }
    return nullptr;
}

Result<TypePtr> Schema::resolve_type(std::string_view keyspace, const TypeSpec& spec) const {
    return Resolver(*this, keyspace).resolve(spec);
}

bool type_references_udt(const CqlType& type, std::string_view keyspace, std::string_view name) {
    if (type.kind == TypeKind::kUdt && type.udt_keyspace == keyspace && type.udt_name == name) {
        return true;
    }
    for (const auto& p : type.params) {
        if (type_references_udt(*p, keyspace, name)) return true;
    }
    return false;
}

bool type_references_duration(const CqlType& type) {
    if (type.kind == TypeKind::kDuration) return true;
    for (const auto& p : type.params) {
        if (type_references_duration(*p)) return true;
    }
    return false;
}

TypePtr replace_udt(const TypePtr& type, const UserTypeDef& udt) {
    if (!type_references_udt(*type, udt.keyspace, udt.name)) return type;
    if (type->kind == TypeKind::kUdt && type->udt_keyspace == udt.keyspace &&
        type->udt_name == udt.name) {
        return udt.as_type(type->frozen);
    }
    auto copy = std::make_shared<CqlType>(*type);
    for (auto& p : copy->params)
        p = replace_udt(p, udt);
    return copy;
}

}  // namespace tessel
