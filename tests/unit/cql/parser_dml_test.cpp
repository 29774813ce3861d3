#include <gtest/gtest.h>

#include "parse_helpers.h"

namespace tessel::cql {
namespace {

using testing::parse_as;
using testing::str;
using testing::syntax_error;

TEST(ParserDml, InsertValuesWithConstants) {
    auto s = parse_as<InsertStatement>(
        "INSERT INTO ks.t (a, b, c, d, e, f, g, h, i) VALUES (1, -2.5, 'x''y', "
        "12345678-1234-1234-1234-123456789abc, 0xff, true, null, -1h, NaN)");
    EXPECT_EQ(s.table.keyspace, "ks");
    ASSERT_EQ(s.values.size(), 9u);
    EXPECT_EQ(s.values[0].literal().kind, Literal::Kind::kInteger);
    EXPECT_EQ(s.values[1].literal().text, "-2.5");
    EXPECT_EQ(s.values[1].literal().kind, Literal::Kind::kFloat);
    EXPECT_EQ(s.values[2].literal().text, "x'y");
    EXPECT_EQ(s.values[3].literal().kind, Literal::Kind::kUuid);
    EXPECT_EQ(s.values[4].literal().text, "0xff");
    EXPECT_EQ(s.values[5].literal().kind, Literal::Kind::kBoolean);
    EXPECT_EQ(s.values[6].literal().kind, Literal::Kind::kNull);
    EXPECT_EQ(s.values[7].literal().text, "-1h");
    EXPECT_EQ(s.values[8].literal().kind, Literal::Kind::kFloat);
    EXPECT_EQ(s.values[8].literal().text, "NaN");
    EXPECT_FALSE(s.if_not_exists);
}

TEST(ParserDml, InsertInfinityAndNegativeInfinity) {
    auto s = parse_as<InsertStatement>("INSERT INTO t (a, b) VALUES (Infinity, -Infinity)");
    EXPECT_EQ(s.values[0].literal().text, "Infinity");
    EXPECT_EQ(s.values[1].literal().text, "-Infinity");
    EXPECT_EQ(s.values[1].literal().kind, Literal::Kind::kFloat);
}

TEST(ParserDml, InsertCollectionLiterals) {
    auto s = parse_as<InsertStatement>(
        "INSERT INTO t (l, s, m, e, tu, u) VALUES ([1, 2], {'a', 'b'}, {'k': 1, 'j': 2}, {}, "
        "(1, 'x'), {street: 'Main', zip: 123})");
    ASSERT_EQ(s.values.size(), 6u);
    EXPECT_EQ(s.values[0].literal().kind, Literal::Kind::kList);
    EXPECT_EQ(s.values[0].literal().elements.size(), 2u);
    EXPECT_EQ(s.values[1].literal().kind, Literal::Kind::kSet);
    EXPECT_EQ(s.values[2].literal().kind, Literal::Kind::kMap);
    EXPECT_EQ(s.values[2].literal().entries[1].first.text, "j");
    EXPECT_EQ(s.values[3].literal().kind, Literal::Kind::kSet);
    EXPECT_TRUE(s.values[3].literal().elements.empty());
    EXPECT_EQ(s.values[4].literal().kind, Literal::Kind::kTuple);
    EXPECT_EQ(s.values[5].literal().kind, Literal::Kind::kUdt);
    EXPECT_EQ(s.values[5].literal().fields[1].first, "zip");
    EXPECT_EQ(to_string(s.values[5]), "{street: 'Main', zip: 123}");
}

TEST(ParserDml, CollectionsWithBindMarkersStayTerms) {
    Statement whole;
    auto s = parse_as<InsertStatement>(
        "INSERT INTO t (k, l, m, tu) VALUES (?, [?, 1], {'a': :v}, (now(), ?))", &whole);
    EXPECT_TRUE(s.values[0].is_bind_marker());
    ASSERT_TRUE(s.values[1].is_collection());
    EXPECT_EQ(str(s.values[1]), "[?#1, 1]");
    ASSERT_TRUE(s.values[2].is_collection());
    EXPECT_EQ(s.values[2].collection().kind, Literal::Kind::kMap);
    EXPECT_EQ(str(s.values[2]), "{'a': :v#2}");
    EXPECT_EQ(str(s.values[3]), "(now(), ?#3)");
    EXPECT_EQ(whole.bind_count(), 4u);
    EXPECT_EQ(whole.bind_names, (std::vector<std::string>{"", "", "v", ""}));
}

TEST(ParserDml, InsertFunctionCallsAndTypeHints) {
    auto s = parse_as<InsertStatement>(
        "INSERT INTO t (a, b, c, d) VALUES (now(), toTimestamp(now()), textAsBlob('x'), (int) ?)");
    ASSERT_TRUE(s.values[0].is_function_call());
    EXPECT_EQ(s.values[0].function_call().name, "now");
    EXPECT_EQ(str(s.values[1]), "totimestamp(now())");
    EXPECT_EQ(s.values[2].function_call().args.size(), 1u);
    ASSERT_TRUE(s.values[3].is_bind_marker());
    ASSERT_EQ(s.values[3].type_hint.size(), 1u);
    EXPECT_EQ(s.values[3].type_hint[0].name, "int");
}

TEST(ParserDml, InsertIfNotExistsUsing) {
    auto s = parse_as<InsertStatement>(
        "INSERT INTO t (a) VALUES (1) IF NOT EXISTS USING TTL 60 AND TIMESTAMP 123");
    EXPECT_TRUE(s.if_not_exists);
    EXPECT_EQ(str(s.using_clause.ttl), "60");
    EXPECT_EQ(str(s.using_clause.timestamp), "123");
    auto u = parse_as<InsertStatement>("INSERT INTO t (a) VALUES (1) USING TIMESTAMP ?");
    EXPECT_FALSE(u.using_clause.ttl.has_value());
    EXPECT_TRUE(u.using_clause.timestamp->is_bind_marker());
}

TEST(ParserDml, InsertJson) {
    auto s = parse_as<InsertStatement>(
        "INSERT INTO t JSON '{\"a\": 1}' DEFAULT UNSET IF NOT EXISTS USING TTL 5");
    EXPECT_TRUE(s.json);
    EXPECT_EQ(s.json_value->literal().text, "{\"a\": 1}");
    EXPECT_TRUE(s.json_default_unset);
    EXPECT_TRUE(s.if_not_exists);
    auto m = parse_as<InsertStatement>("INSERT INTO t JSON ? DEFAULT NULL");
    EXPECT_TRUE(m.json_value->is_bind_marker());
    EXPECT_FALSE(m.json_default_unset);
    // "json" is also a valid column name.
    auto c = parse_as<InsertStatement>("INSERT INTO t (json) VALUES ('x')");
    EXPECT_FALSE(c.json);
    EXPECT_EQ(c.columns[0], "json");
}

TEST(ParserDml, InsertCountMismatchIsSyntaxError) {
    EXPECT_NE(syntax_error("INSERT INTO t (a, b) VALUES (1)").find("Unmatched column names/values"),
              std::string::npos);
}

TEST(ParserDml, UpdateAssignments) {
    using K = Assignment::Kind;
    auto s = parse_as<UpdateStatement>(
        "UPDATE ks.t USING TTL 10 SET a = 1, c = c + 1, d = d - ?, l = [0] + l, m['k'] = 'v', "
        "u.street = 'x', s += {'a'}, s2 -= {'b'} WHERE k = 1 AND ck > 2");
    EXPECT_EQ(str(s.using_clause.ttl), "10");
    ASSERT_EQ(s.assignments.size(), 8u);
    EXPECT_EQ(s.assignments[0].kind, K::kSet);
    EXPECT_EQ(s.assignments[1].kind, K::kAdd);
    EXPECT_EQ(str(s.assignments[1].value), "1");
    EXPECT_EQ(s.assignments[2].kind, K::kSubtract);
    EXPECT_TRUE(s.assignments[2].value.is_bind_marker());
    EXPECT_EQ(s.assignments[3].kind, K::kPrepend);
    EXPECT_EQ(str(s.assignments[3].value), "[0]");
    EXPECT_EQ(s.assignments[4].kind, K::kSetElement);
    EXPECT_EQ(str(s.assignments[4].key), "'k'");
    EXPECT_EQ(s.assignments[5].kind, K::kSetField);
    EXPECT_EQ(s.assignments[5].field, "street");
    EXPECT_EQ(s.assignments[6].kind, K::kAdd);
    EXPECT_EQ(s.assignments[7].kind, K::kSubtract);
    EXPECT_EQ(s.assignments[7].column, "s2");
    ASSERT_EQ(s.where.size(), 2u);
    EXPECT_EQ(s.where[1].op, Operator::kGt);
}

TEST(ParserDml, UpdateMismatchedSelfReferenceIsRejected) {
    EXPECT_NE(syntax_error("UPDATE t SET c = d + 1 WHERE k = 1").find("X = X + <value>"),
              std::string::npos);
}

TEST(ParserDml, UpdateConditions) {
    auto e = parse_as<UpdateStatement>("UPDATE t SET a = 1 WHERE k = 1 IF EXISTS");
    EXPECT_TRUE(e.if_exists);
    auto c = parse_as<UpdateStatement>(
        "UPDATE t SET a = 1 WHERE k = 1 IF a = 2 AND m['x'] != 'y' AND b IN (1, 2) AND u.f > 3");
    EXPECT_FALSE(c.if_exists);
    ASSERT_EQ(c.conditions.size(), 4u);
    EXPECT_EQ(c.conditions[0].op, Operator::kEq);
    EXPECT_EQ(str(c.conditions[1].element), "'x'");
    EXPECT_EQ(c.conditions[1].op, Operator::kNeq);
    EXPECT_EQ(c.conditions[2].op, Operator::kIn);
    EXPECT_TRUE(c.conditions[2].in_values.is_list);
    EXPECT_EQ(c.conditions[2].in_values.list.size(), 2u);
    EXPECT_EQ(c.conditions[3].field, "f");
    EXPECT_EQ(c.conditions[3].op, Operator::kGt);
}

TEST(ParserDml, Delete) {
    auto all = parse_as<DeleteStatement>("DELETE FROM t USING TIMESTAMP 5 WHERE k = 1");
    EXPECT_TRUE(all.columns.empty());
    EXPECT_EQ(str(all.using_clause.timestamp), "5");
    auto some = parse_as<DeleteStatement>(
        "DELETE a, m['k'], l[0], u.street FROM ks.t WHERE k = ? IF EXISTS");
    ASSERT_EQ(some.columns.size(), 4u);
    EXPECT_EQ(some.columns[0].column, "a");
    EXPECT_EQ(str(some.columns[1].element), "'k'");
    EXPECT_EQ(str(some.columns[2].element), "0");
    EXPECT_EQ(some.columns[3].field, "street");
    EXPECT_TRUE(some.if_exists);
    auto cond = parse_as<DeleteStatement>("DELETE FROM t WHERE k = 1 IF v = 3");
    ASSERT_EQ(cond.conditions.size(), 1u);
    // DELETE takes no TTL.
    EXPECT_NE(syntax_error("DELETE FROM t USING TTL 5 WHERE k = 1").find("K_TIMESTAMP"),
              std::string::npos);
}

TEST(ParserDml, Batch) {
    Statement whole;
    auto b = parse_as<BatchStatement>(
        "BEGIN UNLOGGED BATCH USING TIMESTAMP 7 "
        "INSERT INTO t (k, v) VALUES (?, ?); "
        "UPDATE t SET v = ? WHERE k = ?; "
        "DELETE FROM t WHERE k = :last "
        "APPLY BATCH;",
        &whole);
    EXPECT_EQ(b.kind, BatchStatement::Kind::kUnlogged);
    EXPECT_EQ(str(b.using_clause.timestamp), "7");
    ASSERT_EQ(b.statements.size(), 3u);
    EXPECT_TRUE(std::holds_alternative<InsertStatement>(b.statements[0]));
    EXPECT_TRUE(std::holds_alternative<UpdateStatement>(b.statements[1]));
    const auto& del = std::get<DeleteStatement>(b.statements[2]);
    EXPECT_EQ(del.where[0].value->bind_marker().index, 4);
    EXPECT_EQ(whole.bind_count(), 5u);
    EXPECT_EQ(whole.bind_names[4], "last");
    EXPECT_EQ(parse_as<BatchStatement>("BEGIN COUNTER BATCH UPDATE t SET c = c + 1 WHERE k = 1 "
                                       "APPLY BATCH")
                  .kind,
              BatchStatement::Kind::kCounter);
    EXPECT_EQ(parse_as<BatchStatement>("BEGIN BATCH APPLY BATCH").kind,
              BatchStatement::Kind::kLogged);
    EXPECT_NE(syntax_error("BEGIN BATCH SELECT * FROM t APPLY BATCH").find("K_INSERT"),
              std::string::npos);
}

}  // namespace
}  // namespace tessel::cql
