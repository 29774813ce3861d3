// Collections, tuples and UDTs: literals, validation, order and cqlsh printing.
#include <gtest/gtest.h>

#include "types/bytes_util.h"
#include "types/collection.h"
#include "types_test_util.h"

namespace tessel {
namespace {

using namespace tessel::testing;
using K = Literal::Kind;

TypePtr Int_() {
    return T(TypeKind::kInt);
}
TypePtr Text_() {
    return T(TypeKind::kVarchar);
}

TEST(CollectionTest, ListLiteralsAndWireFormat) {
    auto l = list_type(Int_(), false);
    std::string v = V(l, ListL({Int("1"), Int("2")}));
    EXPECT_EQ(v, B({0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 2}));
    EXPECT_TRUE(validate_value(*l, v).is_ok());
    EXPECT_EQ(format_value(*l, v), "[1, 2]");
    EXPECT_EQ(format_cql_literal(*l, v), "[1, 2]");
    EXPECT_EQ(format_value(*l, V(l, ListL({}))), "[]");
    EXPECT_EQ(Err(l, ListL({Int("1"), Literal::null()})),
              "null is not supported inside collections");
    EXPECT_FALSE(value_from_literal(*l, ListL({Str("x")})).is_ok());
    EXPECT_FALSE(value_from_literal(*l, SetL({Int("1")})).is_ok());
    auto lt = list_type(Text_(), false);
    EXPECT_EQ(Show(lt, ListL({Str("a"), Str("it's")})), "['a', 'it''s']");
    EXPECT_EQ(format_cql_literal(*lt, V(lt, ListL({Str("a")}))), "['a']");
}

TEST(CollectionTest, SetsAreSortedAndDeduplicated) {
    auto s = set_type(Int_(), false);
    std::string v = V(s, SetL({Int("3"), Int("-1"), Int("3"), Int("2")}));
    EXPECT_EQ(format_value(*s, v), "{-1, 2, 3}");
    EXPECT_EQ(v, V(s, SetL({Int("-1"), Int("2"), Int("3")})));
    auto st = set_type(Text_(), true);
    EXPECT_EQ(Show(st, SetL({Str("b"), Str("a")})), "{'a', 'b'}");
    // A driver may send an unsorted set; canonicalize puts it in CQL order.
    std::string unsorted =
        collection::write_elements({B({0, 0, 0, 5}), B({0, 0, 0, 1}), B({0, 0, 0, 5})}, false);
    EXPECT_TRUE(validate_value(*s, unsorted).is_ok());
    EXPECT_EQ(format_value(*s, collection::canonicalize(*s, unsorted)), "{1, 5}");
}

TEST(CollectionTest, Maps) {
    auto m = map_type(Text_(), Int_(), false);
    std::string v = V(m, MapL({{Str("b"), Int("2")}, {Str("a"), Int("1")}, {Str("b"), Int("3")}}));
    EXPECT_EQ(format_value(*m, v), "{'a': 1, 'b': 3}");  // last duplicate wins
    EXPECT_EQ(format_cql_literal(*m, v), "{'a': 1, 'b': 3}");
    EXPECT_EQ(format_value(*m, V(m, SetL({}))), "{}");  // {} is also an empty map
    EXPECT_FALSE(value_from_literal(*m, SetL({Str("a")})).is_ok());
    EXPECT_FALSE(value_from_literal(*m, MapL({{Str("a"), Literal::null()}})).is_ok());
    auto nested = map_type(Int_(), list_type(T(TypeKind::kTimestamp), true), false);
    EXPECT_EQ(Show(nested, MapL({{Int("1"), ListL({Int("0")})}})),
              "{1: ['1970-01-01 00:00:00.000000+0000']}");
    // cqlsh formats doubles inside collections with the float precision (5 digits).
    auto doubles = list_type(T(TypeKind::kDouble), false);
    EXPECT_EQ(Show(doubles, ListL({Flt("3.141592653589793"), Flt("0.1")})), "[3.14159, 0.1]");
    EXPECT_EQ(Show(T(TypeKind::kDouble), Flt("3.141592653589793")), "3.14159265359");
    auto dates = list_type(T(TypeKind::kDate), false);
    EXPECT_EQ(Show(dates, ListL({Str("2024-01-02")})), "[2024-01-02]");
    auto inets = set_type(T(TypeKind::kInet), false);
    EXPECT_EQ(Show(inets, SetL({Str("10.0.0.1")})), "{'10.0.0.1'}");
    // cqlsh shows sets and map keys in Python's order: inets as strings, uuids as integers.
    EXPECT_EQ(Show(inets, SetL({Str("9.0.0.1"), Str("10.0.0.2")})), "{'10.0.0.2', '9.0.0.1'}");
    auto tus = set_type(T(TypeKind::kTimeuuid), false);
    std::string later_time = "00000000-0001-1000-8000-000000000000";
    std::string earlier_time = "ffffffff-0000-1000-8000-000000000000";
    std::string tv = V(tus, SetL({L(K::kUuid, later_time), L(K::kUuid, earlier_time)}));
    EXPECT_EQ(format_value(*tus, tv), "{" + later_time + ", " + earlier_time + "}");
    EXPECT_EQ(format_cql_literal(*tus, tv), "{" + earlier_time + ", " + later_time + "}");
}

TEST(CollectionTest, ValidationOfWireValues) {
    auto l = list_type(Int_(), false);
    EXPECT_FALSE(validate_value(*l, B({0, 0, 0, 1})).is_ok());                    // missing element
    EXPECT_FALSE(validate_value(*l, B({0, 0, 0, 1, 0, 0, 0, 2, 0, 0})).is_ok());  // bad int size
    EXPECT_FALSE(validate_value(*l, B({0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0xFF})).is_ok());  // null
    EXPECT_FALSE(validate_value(*l, B({0xFF, 0, 0, 0})).is_ok());           // negative count
    EXPECT_FALSE(validate_value(*l, B({0x7F, 0xFF, 0xFF, 0xFF})).is_ok());  // huge count
    EXPECT_FALSE(validate_value(*l, B({0, 0, 0, 0, 9})).is_ok());           // trailing bytes
    EXPECT_TRUE(validate_value(*l, B({0, 0, 0, 0})).is_ok());
    auto lt = list_type(Text_(), false);
    EXPECT_FALSE(validate_value(*lt, collection::write_elements({"\xFF"}, false)).is_ok());
}

TEST(CollectionTest, CompareElementWise) {
    auto l = list_type(Int_(), true);
    auto one = V(l, ListL({Int("1")}));
    auto one_two = V(l, ListL({Int("1"), Int("2")}));
    auto two = V(l, ListL({Int("2")}));
    auto empty = V(l, ListL({}));
    EXPECT_LT(compare_values(*l, empty, one), 0);
    EXPECT_LT(compare_values(*l, one, one_two), 0);
    EXPECT_LT(compare_values(*l, one_two, two), 0);
    EXPECT_EQ(compare_values(*l, one, V(l, ListL({Int("1")}))), 0);
    EXPECT_LT(compare_values(*l, "", empty), 0);
}

TEST(TupleTest, LiteralsNullsAndOrder) {
    auto t = tuple_type({Int_(), Text_()});
    std::string v = V(t, TupleL({Int("1"), Str("x")}));
    EXPECT_EQ(format_value(*t, v), "(1, 'x')");
    EXPECT_EQ(format_cql_literal(*t, v), "(1, 'x')");
    std::string with_null = V(t, TupleL({Int("1"), Literal::null()}));
    EXPECT_EQ(with_null, B({0, 0, 0, 4, 0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0xFF}));
    EXPECT_EQ(format_value(*t, with_null), "(1, null)");
    EXPECT_LT(compare_values(*t, with_null, v), 0);  // null before any value
    std::string short_value = V(t, TupleL({Int("1")}));
    EXPECT_EQ(format_value(*t, short_value), "(1, null)");
    EXPECT_EQ(compare_values(*t, short_value, with_null), 0);
    EXPECT_FALSE(value_from_literal(*t, TupleL({Int("1"), Str("x"), Int("2")})).is_ok());
    EXPECT_FALSE(validate_value(*t, v + B({0, 0, 0, 0})).is_ok());  // more components than the type
    EXPECT_FALSE(validate_value(*t, B({0, 0, 0, 4, 0, 0})).is_ok());
}

TEST(UdtTest, LiteralsByFieldName) {
    auto addr = udt_type("ks", "address", {"street", "zip"}, {Text_(), Int_()}, false);
    std::string v = V(addr, UdtL({{"zip", Int("1")}, {"street", Str("x")}}));
    EXPECT_EQ(format_value(*addr, v), "{street: 'x', zip: 1}");
    EXPECT_EQ(format_cql_literal(*addr, v), "{street: 'x', zip: 1}");
    std::string partial = V(addr, UdtL({{"street", Str("y")}}));
    EXPECT_EQ(format_value(*addr, partial), "{street: 'y', zip: null}");
    EXPECT_EQ(Err(addr, UdtL({{"x", Int("1")}})),
              "Unknown field 'x' in value of user defined type address");
    EXPECT_FALSE(value_from_literal(*addr, UdtL({{"zip", Int("1")}, {"zip", Int("2")}})).is_ok());
    EXPECT_FALSE(value_from_literal(*addr, UdtL({{"zip", Str("1")}})).is_ok());
    // Wire values may carry fewer fields than the type.
    std::string one_field = collection::write_fields({std::string("z")});
    EXPECT_TRUE(validate_value(*addr, one_field).is_ok());
    EXPECT_EQ(format_value(*addr, one_field), "{street: 'z', zip: null}");
    auto list_of = list_type(frozen_of(addr), false);
    EXPECT_EQ(Show(list_of, ListL({UdtL({{"zip", Int("7")}})})), "[{street: null, zip: 7}]");
}

}  // namespace
}  // namespace tessel
