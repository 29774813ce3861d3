#include "types/cql_type.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace tessel {
namespace {

struct NativeName {
    TypeKind kind;
    std::string_view name;
};

// The first entry for a kind is its canonical CQL spelling.
constexpr std::array<NativeName, 22> kNativeNames{{
    {TypeKind::kAscii, "ascii"},       {TypeKind::kBigint, "bigint"},
    {TypeKind::kBlob, "blob"},         {TypeKind::kBoolean, "boolean"},
    {TypeKind::kCounter, "counter"},   {TypeKind::kDecimal, "decimal"},
    {TypeKind::kDouble, "double"},     {TypeKind::kFloat, "float"},
    {TypeKind::kInt, "int"},           {TypeKind::kTimestamp, "timestamp"},
    {TypeKind::kUuid, "uuid"},         {TypeKind::kVarchar, "text"},
    {TypeKind::kVarchar, "varchar"},   {TypeKind::kVarint, "varint"},
    {TypeKind::kTimeuuid, "timeuuid"}, {TypeKind::kInet, "inet"},
    {TypeKind::kDate, "date"},         {TypeKind::kTime, "time"},
    {TypeKind::kSmallint, "smallint"}, {TypeKind::kTinyint, "tinyint"},
    {TypeKind::kDuration, "duration"}, {TypeKind::kCustom, "custom"},
}};

std::string_view native_name(TypeKind kind) {
    for (const auto& n : kNativeNames) {
        if (n.kind == kind) return n.name;
    }
    return "blob";
}

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

// A UDT name as CQL prints it: quoted when it is not a plain lowercase identifier.
std::string maybe_quote(const std::string& name) {
    bool plain = !name.empty() && std::islower(static_cast<unsigned char>(name[0]));
    for (char c : name) {
        if (!(std::islower(static_cast<unsigned char>(c)) ||
              std::isdigit(static_cast<unsigned char>(c)) || c == '_')) {
            plain = false;
        }
    }
    if (plain) return name;
    std::string out = "\"";
    for (char c : name) {
        if (c == '"') out.push_back('"');
        out.push_back(c);
    }
    out.push_back('"');
    return out;
}

std::shared_ptr<CqlType> make(TypeKind kind, bool frozen, std::vector<TypePtr> params) {
    auto t = std::make_shared<CqlType>();
    t->kind = kind;
    t->frozen = frozen;
    t->params = std::move(params);
    return t;
}

}  // namespace

std::string CqlType::cql_name() const {
    std::string inner;
    switch (kind) {
        case TypeKind::kList:
        case TypeKind::kSet:
            inner = std::string(kind == TypeKind::kList ? "list<" : "set<") +
                    (params.empty() ? std::string("blob") : params[0]->cql_name()) + ">";
            break;
        case TypeKind::kMap:
            inner = "map<" + (params.size() > 0 ? params[0]->cql_name() : std::string("blob")) +
                    ", " + (params.size() > 1 ? params[1]->cql_name() : std::string("blob")) + ">";
            break;
        case TypeKind::kTuple: {
            inner = "tuple<";
            for (size_t i = 0; i < params.size(); ++i) {
                if (i > 0) inner += ", ";
                inner += params[i]->cql_name();
            }
            inner += ">";
            // Tuples are always frozen; Cassandra prints them as frozen<tuple<...>>.
            return "frozen<" + inner + ">";
        }
        case TypeKind::kUdt:
            inner = maybe_quote(udt_name);
            break;
        default:
            return std::string(native_name(kind));
    }
    return frozen ? "frozen<" + inner + ">" : inner;
}

bool CqlType::equals(const CqlType& other) const {
    if (kind != other.kind || frozen != other.frozen || params.size() != other.params.size()) {
        return false;
    }
    if (kind == TypeKind::kUdt &&
        (udt_keyspace != other.udt_keyspace || udt_name != other.udt_name ||
         field_names != other.field_names)) {
        return false;
    }
    for (size_t i = 0; i < params.size(); ++i) {
        if (!params[i]->equals(*other.params[i])) return false;
    }
    return true;
}

TypePtr native_type(TypeKind kind) {
    return make(kind, false, {});
}

TypePtr list_type(TypePtr element, bool frozen) {
    return make(TypeKind::kList, frozen, {std::move(element)});
}

TypePtr set_type(TypePtr element, bool frozen) {
    return make(TypeKind::kSet, frozen, {std::move(element)});
}

TypePtr map_type(TypePtr key, TypePtr value, bool frozen) {
    return make(TypeKind::kMap, frozen, {std::move(key), std::move(value)});
}

TypePtr tuple_type(std::vector<TypePtr> components) {
    return make(TypeKind::kTuple, true, std::move(components));
}

TypePtr udt_type(std::string keyspace, std::string name, std::vector<std::string> field_names,
                 std::vector<TypePtr> field_types, bool frozen) {
    auto t = make(TypeKind::kUdt, frozen, std::move(field_types));
    t->udt_keyspace = std::move(keyspace);
    t->udt_name = std::move(name);
    t->field_names = std::move(field_names);
    return t;
}

TypePtr frozen_of(const TypePtr& type) {
    if (!type || type->frozen) return type;
    if (!type->is_collection() && type->kind != TypeKind::kUdt) return type;
    auto t = std::make_shared<CqlType>(*type);
    t->frozen = true;
    return t;
}

TypePtr native_type_by_name(std::string_view name) {
    for (const auto& n : kNativeNames) {
        if (n.kind != TypeKind::kCustom && iequals(n.name, name)) return native_type(n.kind);
    }
    return nullptr;
}

}  // namespace tessel
