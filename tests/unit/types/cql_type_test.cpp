#include <gtest/gtest.h>

#include "types/cql_type.h"

namespace tessel {
namespace {

TEST(CqlTypeTest, NativeNamesRoundTrip) {
    for (const char* name :
         {"ascii", "bigint", "blob",      "boolean",  "counter", "decimal", "double",
          "float", "int",    "timestamp", "uuid",     "text",    "varint",  "timeuuid",
          "inet",  "date",   "time",      "smallint", "tinyint", "duration"}) {
        TypePtr t = native_type_by_name(name);
        ASSERT_NE(t, nullptr) << name;
        EXPECT_EQ(t->cql_name(), name);
    }
    EXPECT_EQ(native_type_by_name("VARCHAR")->kind, TypeKind::kVarchar);
    EXPECT_EQ(native_type_by_name("varchar")->cql_name(), "text");
    EXPECT_EQ(native_type_by_name("Int")->kind, TypeKind::kInt);
    EXPECT_EQ(native_type_by_name("list"), nullptr);
    EXPECT_EQ(native_type_by_name("custom"), nullptr);
    EXPECT_EQ(native_type_by_name(""), nullptr);
}

TEST(CqlTypeTest, ParameterisedNames) {
    auto i = native_type(TypeKind::kInt);
    auto t = native_type(TypeKind::kVarchar);
    EXPECT_EQ(list_type(i, false)->cql_name(), "list<int>");
    EXPECT_EQ(set_type(t, true)->cql_name(), "frozen<set<text>>");
    EXPECT_EQ(map_type(t, i, false)->cql_name(), "map<text, int>");
    EXPECT_EQ(map_type(t, list_type(i, true), false)->cql_name(), "map<text, frozen<list<int>>>");
    EXPECT_EQ(tuple_type({i, t})->cql_name(), "frozen<tuple<int, text>>");
    auto addr = udt_type("ks", "address", {"street", "zip"}, {t, i}, false);
    EXPECT_EQ(addr->cql_name(), "address");
    EXPECT_EQ(frozen_of(addr)->cql_name(), "frozen<address>");
    EXPECT_EQ(udt_type("ks", "MyType", {}, {}, true)->cql_name(), "frozen<\"MyType\">");
}

TEST(CqlTypeTest, FlagsAndEquality) {
    auto i = native_type(TypeKind::kInt);
    auto l = list_type(i, false);
    EXPECT_TRUE(l->is_collection());
    EXPECT_TRUE(l->is_multi_cell());
    EXPECT_FALSE(frozen_of(l)->is_multi_cell());
    EXPECT_TRUE(tuple_type({i})->frozen);
    EXPECT_TRUE(native_type(TypeKind::kCounter)->is_counter());
    EXPECT_TRUE(l->equals(*list_type(native_type(TypeKind::kInt), false)));
    EXPECT_FALSE(l->equals(*frozen_of(l)));
    EXPECT_FALSE(l->equals(*set_type(i, false)));
    EXPECT_FALSE(l->equals(*list_type(native_type(TypeKind::kBigint), false)));
    auto a = udt_type("ks", "a", {"x"}, {i}, true);
    EXPECT_TRUE(a->equals(*udt_type("ks", "a", {"x"}, {i}, true)));
    EXPECT_FALSE(a->equals(*udt_type("ks", "a", {"y"}, {i}, true)));
    EXPECT_FALSE(a->equals(*udt_type("ks2", "a", {"x"}, {i}, true)));
    // frozen_of leaves native types alone and does not change the original.
    EXPECT_EQ(frozen_of(i), i);
    EXPECT_FALSE(l->frozen);
}

}  // namespace
}  // namespace tessel
