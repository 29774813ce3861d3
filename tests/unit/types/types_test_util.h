// Shared helpers for the types unit tests.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "types/cql_type.h"
#include "types/literal.h"
#include "types/uuid.h"
#include "types/value.h"

namespace tessel::testing {

// Every non-collection type that can stand in a key or a literal (not counter).
inline std::vector<TypePtr> scalar_types() {
    std::vector<TypePtr> out;
    for (TypeKind k : {TypeKind::kTinyint, TypeKind::kSmallint, TypeKind::kInt, TypeKind::kBigint,
                       TypeKind::kTimestamp, TypeKind::kDate, TypeKind::kTime, TypeKind::kBoolean,
                       TypeKind::kFloat, TypeKind::kDouble, TypeKind::kVarint, TypeKind::kDecimal,
                       TypeKind::kAscii, TypeKind::kVarchar, TypeKind::kBlob, TypeKind::kUuid,
                       TypeKind::kTimeuuid, TypeKind::kInet, TypeKind::kDuration}) {
        out.push_back(native_type(k));
    }
    return out;
}

inline TypePtr T(TypeKind k) {
    return native_type(k);
}

inline Literal L(Literal::Kind k, std::string text) {
    return Literal::scalar(k, std::move(text));
}
inline Literal Str(std::string s) {
    return L(Literal::Kind::kString, std::move(s));
}
inline Literal Int(std::string s) {
    return L(Literal::Kind::kInteger, std::move(s));
}
inline Literal Flt(std::string s) {
    return L(Literal::Kind::kFloat, std::move(s));
}
inline Literal ListL(std::vector<Literal> e) {
    Literal l;
    l.kind = Literal::Kind::kList;
    l.elements = std::move(e);
    return l;
}
inline Literal SetL(std::vector<Literal> e) {
    Literal l;
    l.kind = Literal::Kind::kSet;
    l.elements = std::move(e);
    return l;
}
inline Literal TupleL(std::vector<Literal> e) {
    Literal l;
    l.kind = Literal::Kind::kTuple;
    l.elements = std::move(e);
    return l;
}
inline Literal MapL(std::vector<std::pair<Literal, Literal>> e) {
    Literal l;
    l.kind = Literal::Kind::kMap;
    l.entries = std::move(e);
    return l;
}
inline Literal UdtL(std::vector<std::pair<std::string, Literal>> f) {
    Literal l;
    l.kind = Literal::Kind::kUdt;
    l.fields = std::move(f);
    return l;
}

// The value of a literal that must convert; fails the test otherwise.
inline std::string V(const TypePtr& t, const Literal& l) {
    auto r = value_from_literal(*t, l);
    EXPECT_TRUE(r.is_ok()) << t->cql_name() << " <- '" << l.text
                           << "': " << (r.is_ok() ? "" : r.status().message());
    return r.is_ok() ? r.value() : std::string();
}

// cqlsh display of a literal converted to the type.
inline std::string Show(const TypePtr& t, const Literal& l) {
    return format_value(*t, V(t, l));
}

inline std::string Err(const TypePtr& t, const Literal& l) {
    auto r = value_from_literal(*t, l);
    EXPECT_FALSE(r.is_ok()) << t->cql_name() << " accepted '" << l.text << "'";
    return r.is_ok() ? std::string() : r.status().message();
}

inline std::string B(std::initializer_list<int> bytes) {
    std::string s;
    for (int b : bytes)
        s.push_back(static_cast<char>(b));
    return s;
}

inline std::optional<std::string> uuid_bytes(std::string_view text) {
    return uuid::parse(text);
}

}  // namespace tessel::testing
