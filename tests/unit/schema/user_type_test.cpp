#include <gtest/gtest.h>

#include "schema/catalog.h"
#include "schema_test_util.h"

namespace tessel {
namespace {

using testing::expect_error;
using testing::table_spec;
using testing::ts;

class UserTypes : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_TRUE(catalog.create_keyspace("ks", testing::simple_rf()).is_ok());
        ASSERT_TRUE(catalog.create_keyspace("other", testing::simple_rf()).is_ok());
        ASSERT_TRUE(
            catalog.create_type("ks", "address", {{"street", ts("text")}, {"zip", ts("int")}})
                .is_ok());
    }
    Catalog catalog;
};

TEST_F(UserTypes, ResolveFrozenAndNonFrozen) {
    auto frozen = catalog.resolve_type("ks", ts("frozen<address>"));
    ASSERT_TRUE(frozen.is_ok()) << frozen.status().to_string();
    EXPECT_EQ((*frozen)->kind, TypeKind::kUdt);
    EXPECT_TRUE((*frozen)->frozen);
    EXPECT_EQ((*frozen)->cql_name(), "frozen<address>");
    EXPECT_EQ((*frozen)->field_names, (std::vector<std::string>{"street", "zip"}));
    EXPECT_EQ((*frozen)->udt_keyspace, "ks");

    auto plain = catalog.resolve_type("ks", ts("address"));
    ASSERT_TRUE(plain.is_ok());
    EXPECT_TRUE((*plain)->is_multi_cell());

    auto in_list = catalog.resolve_type("ks", ts("list<frozen<address>>"));
    ASSERT_TRUE(in_list.is_ok());
    EXPECT_EQ((*in_list)->cql_name(), "list<frozen<address>>");
    auto qualified = catalog.resolve_type("ks", ts("ks.address"));
    ASSERT_TRUE(qualified.is_ok());
}

TEST_F(UserTypes, ResolveErrors) {
    expect_error(catalog.resolve_type("ks", ts("list<address>")), ErrorCode::kInvalid,
                 "Non-frozen UDTs are not allowed inside collections: list<address>");
    expect_error(catalog.resolve_type("ks", ts("nothere")), ErrorCode::kInvalid,
                 "Unknown type ks.nothere");
    expect_error(catalog.resolve_type("other", ts("ks.address")), ErrorCode::kInvalid,
                 "Statement on keyspace other cannot refer to a user type in keyspace ks; user "
                 "types can only be used in the keyspace they are defined in");
    expect_error(catalog.resolve_type("other", ts("address")), ErrorCode::kInvalid,
                 "Unknown type other.address");
}

TEST_F(UserTypes, NonFrozenUdtOnlyOutsideThePrimaryKey) {
    ASSERT_TRUE(
        catalog
            .create_table(table_spec("ks", "people", {{"id", "int"}, {"home", "address"}}, {"id"}))
            .is_ok());
    expect_error(catalog.create_table(table_spec("ks", "bad", {{"a", "address"}}, {"a"})),
                 ErrorCode::kInvalid,
                 "Invalid non-frozen user-defined type for PRIMARY KEY component a");
    ASSERT_TRUE(
        catalog.create_table(table_spec("ks", "ok", {{"a", "frozen<address>"}}, {"a"})).is_ok());

    ASSERT_TRUE(catalog.create_type("ks", "tags", {{"names", ts("list<text>")}}).is_ok());
    expect_error(catalog.create_table(table_spec("ks", "t2", {{"k", "int"}, {"t", "tags"}}, {"k"})),
                 ErrorCode::kInvalid,
                 "Non-frozen UDTs with nested non-frozen collections are not supported");
}

TEST_F(UserTypes, CreateTypeErrors) {
    expect_error(catalog.create_type("ks", "address", {{"a", ts("int")}}), ErrorCode::kInvalid,
                 "A user type of name ks.address already exists");
    auto quiet = catalog.create_type("ks", "address", {{"a", ts("int")}}, true);
    ASSERT_TRUE(quiet.is_ok());
    EXPECT_FALSE(quiet->applied);
    expect_error(catalog.create_type("nope", "t", {{"a", ts("int")}}), ErrorCode::kInvalid,
                 "Cannot add type in unknown keyspace nope");
    expect_error(catalog.create_type("ks", "t", {{"a", ts("int")}, {"a", ts("text")}}),
                 ErrorCode::kInvalid, "Duplicate field name a in type ks.t");
    expect_error(catalog.create_type("ks", "t", {{"n", ts("counter")}}), ErrorCode::kInvalid,
                 "A user type cannot contain counters");
    expect_error(catalog.create_type("ks", "t", {{"a", ts("address")}}), ErrorCode::kInvalid,
                 "A user type cannot contain non-frozen UDTs");
    expect_error(catalog.create_type("ks", "t", {{"a", ts("t")}}), ErrorCode::kInvalid,
                 "Unknown type ks.t");
}

TEST_F(UserTypes, DropTypeInUseIsRefused) {
    ASSERT_TRUE(catalog.create_type("ks", "person", {{"home", ts("frozen<address>")}}).is_ok());
    expect_error(catalog.drop_type("ks", "address"), ErrorCode::kInvalid,
                 "Cannot drop user type ks.address as it is still used by user type person");
    ASSERT_TRUE(catalog
                    .create_table(table_spec(
                        "ks", "people", {{"id", "int"}, {"p", "map<int, frozen<person>>"}}, {"id"}))
                    .is_ok());
    expect_error(catalog.drop_type("ks", "person"), ErrorCode::kInvalid,
                 "Cannot drop user type ks.person as it is still used by table ks.people");
    ASSERT_TRUE(catalog.drop_table("ks", "people").is_ok());
    ASSERT_TRUE(catalog.drop_type("ks", "person").is_ok());
    ASSERT_TRUE(catalog.drop_type("ks", "address").is_ok());
    expect_error(catalog.drop_type("ks", "address"), ErrorCode::kInvalid,
                 "No user type named ks.address exists.");
    ASSERT_TRUE(catalog.drop_type("ks", "address", true).is_ok());
}

TEST_F(UserTypes, AlterTypePropagatesToTablesAndTypes) {
    ASSERT_TRUE(catalog.create_type("ks", "person", {{"home", ts("frozen<address>")}}).is_ok());
    ASSERT_TRUE(
        catalog
            .create_table(table_spec(
                "ks", "people", {{"id", "int"}, {"p", "frozen<person>"}, {"a", "address"}}, {"id"}))
            .is_ok());
    ASSERT_TRUE(catalog.alter_type_add("ks", "address", "city", ts("text")).is_ok());
    auto snap = catalog.snapshot();
    EXPECT_EQ(snap->type("ks", "address")->field_names.size(), 3u);
    auto t = snap->table("ks", "people");
    EXPECT_EQ(t->column("a")->type->field_names,
              (std::vector<std::string>{"street", "zip", "city"}));
    EXPECT_FALSE(t->column("a")->type->frozen);
    // Nested: people.p -> person.home -> address.
    const CqlType& home = *t->column("p")->type->params[0];
    EXPECT_EQ(home.field_names.size(), 3u);
    EXPECT_EQ(snap->type("ks", "person")->field_types[0]->field_names.size(), 3u);

    ASSERT_TRUE(catalog.alter_type_rename("ks", "address", {{"zip", "postcode"}}).is_ok());
    EXPECT_EQ(catalog.snapshot()->table("ks", "people")->column("a")->type->field_names[1],
              "postcode");
}

TEST_F(UserTypes, AlterTypeErrors) {
    expect_error(catalog.alter_type_add("ks", "address", "zip", ts("int")), ErrorCode::kInvalid,
                 "Cannot add new field zip to type ks.address: a field of the same name already "
                 "exists");
    expect_error(catalog.alter_type_add("ks", "nope", "x", ts("int")), ErrorCode::kInvalid,
                 "No user type named ks.nope exists.");
    expect_error(catalog.alter_type_add("nope", "address", "x", ts("int")), ErrorCode::kInvalid,
                 "Cannot alter type in unknown keyspace nope");
    expect_error(catalog.alter_type_add("ks", "address", "self", ts("frozen<address>")),
                 ErrorCode::kInvalid,
                 "Cannot add new field self of type frozen<address> to type ks.address as this "
                 "would create a circular reference");
    expect_error(catalog.alter_type_rename("ks", "address", {{"nope", "x"}}), ErrorCode::kInvalid,
                 "Unknown field nope in type ks.address");
    expect_error(catalog.alter_type_rename("ks", "address", {{"zip", "street"}}),
                 ErrorCode::kInvalid, "Duplicate field name street in type ks.address");
}

TEST_F(UserTypes, DropKeyspaceTakesTypesAndTables) {
    ASSERT_TRUE(
        catalog.create_table(table_spec("ks", "t", {{"k", "frozen<address>"}}, {"k"})).is_ok());
    ASSERT_TRUE(catalog.drop_keyspace("ks").is_ok());
    EXPECT_EQ(catalog.snapshot()->type("ks", "address"), nullptr);
    ASSERT_TRUE(catalog.create_keyspace("ks", testing::simple_rf()).is_ok());
    EXPECT_TRUE(catalog.snapshot()->keyspace("ks")->types.empty());
}

TEST(TypeSpecParse, Syntax) {
    auto t = parse_type_spec("Map<TEXT, frozen<List<\"MyType\">>>");
    ASSERT_TRUE(t.is_ok());
    EXPECT_EQ(t->to_string(), "map<text, frozen<list<MyType>>>");
    EXPECT_EQ(t->params[1].params[0].name, "MyType");
    auto q = parse_type_spec("ks.addr");
    ASSERT_TRUE(q.is_ok());
    EXPECT_EQ(q->keyspace, "ks");
    EXPECT_EQ(q->name, "addr");
    expect_error(parse_type_spec("list<int"), ErrorCode::kSyntaxError, "Invalid type 'list<int'");
    expect_error(parse_type_spec("int>"), ErrorCode::kSyntaxError, "Invalid type 'int>'");
    expect_error(parse_type_spec(""), ErrorCode::kSyntaxError, "Invalid type ''");
    std::string deep;
    for (int i = 0; i < 200; ++i)
        deep += "list<";
    EXPECT_FALSE(parse_type_spec(deep + "int").is_ok());
}

}  // namespace
}  // namespace tessel
