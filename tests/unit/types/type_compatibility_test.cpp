// Cassandra's compatibility rules between a type and the one it replaces.
#include "types/type_compatibility.h"

#include <gtest/gtest.h>

namespace tessel {
namespace {

TypePtr n(TypeKind k) {
    return native_type(k);
}

TEST(TypeCompatibilityTest, NativeTypes) {
    EXPECT_TRUE(is_compatible_with(*n(TypeKind::kInt), *n(TypeKind::kInt)));
    EXPECT_TRUE(is_compatible_with(*n(TypeKind::kVarchar), *n(TypeKind::kAscii)));
    EXPECT_FALSE(is_compatible_with(*n(TypeKind::kAscii), *n(TypeKind::kVarchar)));
    EXPECT_TRUE(is_compatible_with(*n(TypeKind::kBlob), *n(TypeKind::kVarchar)));
    EXPECT_FALSE(is_compatible_with(*n(TypeKind::kBlob), *n(TypeKind::kInt)));
    EXPECT_TRUE(is_value_compatible_with(*n(TypeKind::kBlob), *n(TypeKind::kInt)));
    EXPECT_TRUE(is_value_compatible_with(*n(TypeKind::kBigint), *n(TypeKind::kTimestamp)));
    EXPECT_TRUE(is_value_compatible_with(*n(TypeKind::kTimestamp), *n(TypeKind::kBigint)));
    EXPECT_TRUE(is_value_compatible_with(*n(TypeKind::kVarint), *n(TypeKind::kInt)));
    EXPECT_FALSE(is_value_compatible_with(*n(TypeKind::kInt), *n(TypeKind::kVarint)));
    EXPECT_FALSE(is_value_compatible_with(*n(TypeKind::kInt), *n(TypeKind::kVarchar)));
    EXPECT_FALSE(is_value_compatible_with(*n(TypeKind::kVarchar), *n(TypeKind::kInt)));
}

TEST(TypeCompatibilityTest, Collections) {
    const auto list_int = list_type(n(TypeKind::kInt), false);
    const auto list_text = list_type(n(TypeKind::kVarchar), false);
    const auto frozen_list_int = list_type(n(TypeKind::kInt), true);
    const auto frozen_list_blob = list_type(n(TypeKind::kBlob), true);
    EXPECT_TRUE(is_value_compatible_with(*list_int, *list_int));
    EXPECT_FALSE(is_value_compatible_with(*list_text, *list_int));
    EXPECT_FALSE(is_value_compatible_with(*frozen_list_int, *list_int));  // multi-cell differs
    EXPECT_TRUE(is_value_compatible_with(*frozen_list_blob, *frozen_list_int));
    EXPECT_FALSE(is_value_compatible_with(*set_type(n(TypeKind::kInt), false), *list_int));
    // Map keys order the entries: compatibility; values: value compatibility.
    const auto m = map_type(n(TypeKind::kAscii), n(TypeKind::kInt), true);
    EXPECT_TRUE(
        is_value_compatible_with(*map_type(n(TypeKind::kVarchar), n(TypeKind::kBlob), true), *m));
    EXPECT_FALSE(is_value_compatible_with(*map_type(n(TypeKind::kBlob), n(TypeKind::kInt), true),
                                          *map_type(n(TypeKind::kInt), n(TypeKind::kInt), true)));
    EXPECT_TRUE(is_value_compatible_with(*n(TypeKind::kBlob), *m));
}

TEST(TypeCompatibilityTest, TuplesAndUserTypesMayGrow) {
    const auto i = n(TypeKind::kInt);
    const auto t = n(TypeKind::kVarchar);
    EXPECT_TRUE(is_value_compatible_with(*tuple_type({i, t, i}), *tuple_type({i, t})));
    EXPECT_FALSE(is_value_compatible_with(*tuple_type({i}), *tuple_type({i, t})));
    EXPECT_FALSE(is_value_compatible_with(*tuple_type({t, t}), *tuple_type({i, t})));
    const auto u2 = udt_type("ks", "u", {"a", "b"}, {i, t}, true);
    const auto u3 = udt_type("ks", "u", {"a", "b", "c"}, {i, t, i}, true);
    EXPECT_TRUE(is_value_compatible_with(*u3, *u2));
    EXPECT_FALSE(is_value_compatible_with(*u2, *u3));
    EXPECT_FALSE(is_value_compatible_with(*udt_type("other", "u", {"a", "b"}, {i, t}, true), *u2));
}

}  // namespace
}  // namespace tessel
