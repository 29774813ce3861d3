#include "protocol/type_option.h"

#include <algorithm>
#include <memory>

namespace tessel::protocol {
namespace {

// Types are built here rather than with the constructors of types/cql_type.h
// so that the codec needs nothing from the types library but the struct.
TypePtr make(TypeKind kind, bool frozen, std::vector<TypePtr> params = {}) {
    auto t = std::make_shared<CqlType>();
    t->kind = kind;
    t->frozen = frozen;
    t->params = std::move(params);
    return t;
}

// 0x0001..0x0015 are the native types (0x000A, legacy text, is read apart).
bool is_native_id(uint16_t id) {
    return id >= 0x0001 && id <= 0x0015;
}

Result<TypePtr> read_option(WireReader& r, int depth) {
    if (depth > kMaxTypeNesting) {
        return Status::protocol("Type nesting deeper than " + std::to_string(kMaxTypeNesting) +
                                " levels in [option]");
    }
    const bool nested = depth > 0;
    TESSEL_ASSIGN_OR_RETURN(uint16_t id, r.read_short());
    switch (id) {
        case 0x0000: {
            TESSEL_ASSIGN_OR_RETURN(std::string_view cls, r.read_string());
            if (cls == kDurationTypeClass) return make(TypeKind::kDuration, false);
            auto t = std::make_shared<CqlType>();
            t->kind = TypeKind::kCustom;
            t->udt_name = std::string(cls);
            return TypePtr(t);
        }
        case 0x000A:
            return make(TypeKind::kVarchar, false);
        case 0x0020:
        case 0x0022: {
            TESSEL_ASSIGN_OR_RETURN(TypePtr elem, read_option(r, depth + 1));
            return make(id == 0x0020 ? TypeKind::kList : TypeKind::kSet, nested, {elem});
        }
        case 0x0021: {
            TESSEL_ASSIGN_OR_RETURN(TypePtr key, read_option(r, depth + 1));
            TESSEL_ASSIGN_OR_RETURN(TypePtr value, read_option(r, depth + 1));
            return make(TypeKind::kMap, nested, {key, value});
        }
        case 0x0030: {
            auto t = std::make_shared<CqlType>();
            t->kind = TypeKind::kUdt;
            t->frozen = true;
            TESSEL_ASSIGN_OR_RETURN(std::string_view ks, r.read_string());
            TESSEL_ASSIGN_OR_RETURN(std::string_view name, r.read_string());
            t->udt_keyspace = std::string(ks);
            t->udt_name = std::string(name);
            TESSEL_ASSIGN_OR_RETURN(uint16_t n, r.read_short());
            for (uint16_t i = 0; i < n; ++i) {
                TESSEL_ASSIGN_OR_RETURN(std::string_view field, r.read_string());
                TESSEL_ASSIGN_OR_RETURN(TypePtr ft, read_option(r, depth + 1));
                t->field_names.emplace_back(field);
                t->params.push_back(std::move(ft));
            }
            return TypePtr(t);
        }
        case 0x0031: {
            TESSEL_ASSIGN_OR_RETURN(uint16_t n, r.read_short());
            std::vector<TypePtr> components;
            for (uint16_t i = 0; i < n; ++i) {
                TESSEL_ASSIGN_OR_RETURN(TypePtr c, read_option(r, depth + 1));
                components.push_back(std::move(c));
            }
            return make(TypeKind::kTuple, true, std::move(components));
        }
        default:
            if (is_native_id(id)) return make(static_cast<TypeKind>(id), false);
            return Status::protocol("Unknown type id " + std::to_string(id) + " in [option]");
    }
}

}  // namespace

void write_type_option(const CqlType& type, WireWriter& w) {
    switch (type.kind) {
        case TypeKind::kCustom:
            w.write_short(0x0000);
            w.write_string(type.udt_name);
            return;
        case TypeKind::kDuration:
            w.write_short(0x0000);
            w.write_string(kDurationTypeClass);
            return;
        case TypeKind::kList:
        case TypeKind::kSet:
            w.write_short(static_cast<uint16_t>(type.kind));
            if (!type.params.empty() && type.params[0]) {
                write_type_option(*type.params[0], w);
            } else {
                w.write_short(static_cast<uint16_t>(TypeKind::kBlob));
            }
            return;
        case TypeKind::kMap:
            w.write_short(0x0021);
            for (size_t i = 0; i < 2; ++i) {
                if (i < type.params.size() && type.params[i]) {
                    write_type_option(*type.params[i], w);
                } else {
                    w.write_short(static_cast<uint16_t>(TypeKind::kBlob));
                }
            }
            return;
        case TypeKind::kUdt: {
            w.write_short(0x0030);
            w.write_string(type.udt_keyspace);
            w.write_string(type.udt_name);
            const size_t n = std::min(type.field_names.size(), type.params.size());
            w.write_short(static_cast<uint16_t>(std::min<size_t>(n, 0xFFFF)));
            for (size_t i = 0; i < n && i < 0xFFFF; ++i) {
                w.write_string(type.field_names[i]);
                if (type.params[i]) {
                    write_type_option(*type.params[i], w);
                } else {
                    w.write_short(static_cast<uint16_t>(TypeKind::kBlob));
                }
            }
            return;
        }
        case TypeKind::kTuple: {
            w.write_short(0x0031);
            const size_t n = std::min<size_t>(type.params.size(), 0xFFFF);
            w.write_short(static_cast<uint16_t>(n));
            for (size_t i = 0; i < n; ++i) {
                if (type.params[i]) {
                    write_type_option(*type.params[i], w);
                } else {
                    w.write_short(static_cast<uint16_t>(TypeKind::kBlob));
                }
            }
            return;
        }
        default:
            // Every remaining kind is native and its enum value is its id.
            w.write_short(static_cast<uint16_t>(type.kind));
            return;
    }
}

Result<TypePtr> read_type_option(WireReader& r) {
    return read_option(r, 0);
}

}  // namespace tessel::protocol
