#include <gtest/gtest.h>

#include "parse_helpers.h"

namespace tessel::cql {
namespace {

using testing::parse_as;
using testing::str;
using testing::syntax_error;

TEST(ParserSelect, StarAndClauses) {
    auto s = parse_as<SelectStatement>(
        "SELECT * FROM ks.t WHERE k = 1 AND c >= 2 GROUP BY k, c ORDER BY c DESC, d "
        "PER PARTITION LIMIT 2 LIMIT 10 ALLOW FILTERING");
    EXPECT_TRUE(s.select_all);
    EXPECT_TRUE(s.selectors.empty());
    EXPECT_EQ(s.table.keyspace, "ks");
    ASSERT_EQ(s.where.size(), 2u);
    EXPECT_EQ(s.where[1].op, Operator::kGte);
    EXPECT_EQ(s.group_by, (std::vector<std::string>{"k", "c"}));
    ASSERT_EQ(s.order_by.size(), 2u);
    EXPECT_TRUE(s.order_by[0].descending);
    EXPECT_FALSE(s.order_by[1].descending);
    EXPECT_EQ(str(s.per_partition_limit), "2");
    EXPECT_EQ(str(s.limit), "10");
    EXPECT_TRUE(s.allow_filtering);
}

TEST(ParserSelect, NoWhereAndBindMarkerLimits) {
    Statement whole;
    auto s = parse_as<SelectStatement>("SELECT a FROM t PER PARTITION LIMIT ? LIMIT :n", &whole);
    EXPECT_TRUE(s.where.empty());
    EXPECT_EQ(s.per_partition_limit->bind_marker().index, 0);
    EXPECT_EQ(s.limit->bind_marker().name, "n");
    EXPECT_EQ(whole.bind_count(), 2u);
    // A negative limit parses; prepare rejects it.
    EXPECT_EQ(str(parse_as<SelectStatement>("SELECT a FROM t LIMIT -1").limit), "-1");
    EXPECT_NE(syntax_error("SELECT a FROM t LIMIT 'x'").find("expecting INTEGER"),
              std::string::npos);
}

TEST(ParserSelect, SelectorsAndAliases) {
    using K = Selector::Kind;
    auto s = parse_as<SelectStatement>(
        "SELECT a, b AS bee, writetime(c), ttl(c) AS t, token(k1, k2), count(*), count(1), "
        "toJson(m), CAST(x AS text), u.street, system.now(), min(v) FROM t");
    ASSERT_EQ(s.selectors.size(), 12u);
    EXPECT_EQ(s.selectors[0].kind, K::kColumn);
    EXPECT_EQ(s.selectors[1].alias, "bee");
    EXPECT_EQ(s.selectors[2].kind, K::kFunction);
    EXPECT_EQ(s.selectors[2].function, "writetime");
    EXPECT_EQ(s.selectors[2].args[0].column, "c");
    EXPECT_EQ(s.selectors[3].alias, "t");
    EXPECT_EQ(s.selectors[4].function, "token");
    EXPECT_EQ(s.selectors[4].args.size(), 2u);
    EXPECT_EQ(s.selectors[5].args[0].kind, K::kStar);
    EXPECT_EQ(s.selectors[6].args[0].kind, K::kTerm);
    EXPECT_EQ(str(s.selectors[6].args[0].term[0]), "1");
    EXPECT_EQ(s.selectors[7].function, "tojson");
    EXPECT_EQ(s.selectors[8].kind, K::kCast);
    EXPECT_EQ(s.selectors[8].cast_type.name, "text");
    EXPECT_EQ(s.selectors[8].args[0].column, "x");
    EXPECT_EQ(s.selectors[9].kind, K::kField);
    EXPECT_EQ(s.selectors[9].field, "street");
    EXPECT_EQ(s.selectors[9].args[0].column, "u");
    EXPECT_EQ(s.selectors[10].keyspace, "system");
    EXPECT_EQ(s.selectors[10].function, "now");
    EXPECT_EQ(s.selectors[11].function, "min");
}

TEST(ParserSelect, NestedFunctionSelectors) {
    auto s = parse_as<SelectStatement>(
        "SELECT toDate(toTimestamp(ts)), blobAsText(textAsBlob('x')), maxTimeuuid('2024-01-01') "
        "FROM t");
    ASSERT_EQ(s.selectors.size(), 3u);
    EXPECT_EQ(s.selectors[0].args[0].function, "totimestamp");
    EXPECT_EQ(s.selectors[1].args[0].args[0].kind, Selector::Kind::kTerm);
    EXPECT_EQ(s.selectors[2].args[0].term[0].literal().text, "2024-01-01");
}

TEST(ParserSelect, JsonAndDistinctModifiersVersusColumns) {
    auto j = parse_as<SelectStatement>("SELECT JSON DISTINCT k FROM t");
    EXPECT_TRUE(j.json);
    EXPECT_TRUE(j.distinct);
    EXPECT_EQ(j.selectors[0].column, "k");
    auto js = parse_as<SelectStatement>("SELECT JSON * FROM t");
    EXPECT_TRUE(js.json);
    EXPECT_TRUE(js.select_all);
    auto col = parse_as<SelectStatement>("SELECT json, distinct FROM t");
    EXPECT_FALSE(col.json);
    EXPECT_FALSE(col.distinct);
    EXPECT_EQ(col.selectors[1].column, "distinct");
    auto single = parse_as<SelectStatement>("SELECT json FROM t");
    EXPECT_FALSE(single.json);
    EXPECT_EQ(single.selectors[0].column, "json");
}

TEST(ParserSelect, Relations) {
    using K = Relation::Kind;
    auto s = parse_as<SelectStatement>(
        "SELECT * FROM t WHERE a IN (1, 2, 3) AND b IN ? AND token(k1, k2) > ? AND "
        "(c1, c2) > (1, 'x') AND (c1, c2) IN ((1, 2), (3, 4)) AND (c1, c2) < ? AND "
        "m['key'] = 'v' AND s CONTAINS 5 AND m CONTAINS KEY 'k' AND n LIKE 'ab%' AND x != 3 "
        "AND e IN ()");
    ASSERT_EQ(s.where.size(), 12u);
    EXPECT_EQ(s.where[0].op, Operator::kIn);
    EXPECT_TRUE(s.where[0].in_values.is_list);
    EXPECT_EQ(s.where[0].in_values.list.size(), 3u);
    EXPECT_FALSE(s.where[1].in_values.is_list);
    EXPECT_TRUE(s.where[1].in_values.single->is_bind_marker());
    EXPECT_EQ(s.where[2].kind, K::kToken);
    EXPECT_EQ(s.where[2].columns, (std::vector<std::string>{"k1", "k2"}));
    EXPECT_EQ(s.where[2].op, Operator::kGt);
    EXPECT_EQ(s.where[3].kind, K::kMultiColumn);
    EXPECT_EQ(s.where[3].value->literal().kind, Literal::Kind::kTuple);
    EXPECT_EQ(s.where[4].kind, K::kMultiColumn);
    EXPECT_EQ(s.where[4].in_values.list.size(), 2u);
    EXPECT_EQ(str(s.where[4].in_values.list[1]), "(3, 4)");
    EXPECT_TRUE(s.where[5].value->is_bind_marker());
    EXPECT_EQ(s.where[6].kind, K::kMapEntry);
    EXPECT_EQ(str(s.where[6].map_key), "'key'");
    EXPECT_EQ(s.where[7].op, Operator::kContains);
    EXPECT_EQ(s.where[8].op, Operator::kContainsKey);
    EXPECT_EQ(s.where[9].op, Operator::kLike);
    EXPECT_EQ(s.where[10].op, Operator::kNeq);
    EXPECT_TRUE(s.where[11].in_values.is_list);
    EXPECT_TRUE(s.where[11].in_values.list.empty());
}

TEST(ParserSelect, BindMarkersNumberedInOrderOfAppearance) {
    Statement whole;
    auto s = parse_as<SelectStatement>(
        "SELECT * FROM t WHERE a = ? AND b = :bee AND (c, d) IN ((?, ?), ?) LIMIT ?", &whole);
    EXPECT_EQ(s.where[0].value->bind_marker().index, 0);
    EXPECT_EQ(s.where[1].value->bind_marker().index, 1);
    EXPECT_EQ(s.where[1].value->bind_marker().name, "bee");
    EXPECT_EQ(str(s.where[2].in_values.list[0]), "(?#2, ?#3)");
    EXPECT_EQ(s.where[2].in_values.list[1].bind_marker().index, 4);
    EXPECT_EQ(s.limit->bind_marker().index, 5);
    EXPECT_EQ(whole.bind_names, (std::vector<std::string>{"", "bee", "", "", "", ""}));
}

TEST(ParserSelect, SelectorDisplayNames) {
    auto s = parse_as<SelectStatement>(
        "SELECT a, writetime(b), count(*), CAST(c AS text), u.street, toTimestamp(now()), "
        "count(1) FROM t");
    ASSERT_EQ(s.selectors.size(), 7u);
    EXPECT_EQ(to_string(s.selectors[0]), "a");
    EXPECT_EQ(to_string(s.selectors[1]), "writetime(b)");
    EXPECT_EQ(to_string(s.selectors[2]), "count(*)");
    EXPECT_EQ(to_string(s.selectors[3]), "cast(c as text)");
    EXPECT_EQ(to_string(s.selectors[4]), "u.street");
    EXPECT_EQ(to_string(s.selectors[5]), "totimestamp(now())");
    EXPECT_EQ(to_string(s.selectors[6]), "count(1)");
}

TEST(ParserSelect, TokenFunctionOnBothSides) {
    auto s =
        parse_as<SelectStatement>("SELECT * FROM t WHERE token(k) > token(?) AND token(k) <= 5");
    ASSERT_EQ(s.where.size(), 2u);
    EXPECT_EQ(s.where[0].kind, Relation::Kind::kToken);
    ASSERT_TRUE(s.where[0].value->is_function_call());
    EXPECT_EQ(s.where[0].value->function_call().name, "token");
    EXPECT_TRUE(s.where[0].value->function_call().args[0].is_bind_marker());
    EXPECT_EQ(s.where[1].op, Operator::kLte);
}

TEST(ParserSelect, QuotedNamedMarkerAndTypeHints) {
    Statement whole;
    auto s = parse_as<SelectStatement>(
        "SELECT * FROM t WHERE a = :\"MixedCase\" AND b = (text) 'x' AND c = (frozen<list<int>>) ?",
        &whole);
    EXPECT_EQ(s.where[0].value->bind_marker().name, "MixedCase");
    EXPECT_EQ(to_string(*s.where[1].value), "(text) 'x'");
    EXPECT_EQ(to_string(*s.where[2].value), "(frozen<list<int>>) ?#1");
    EXPECT_EQ(whole.bind_names, (std::vector<std::string>{"MixedCase", ""}));
}

TEST(ParserSelect, QuotedNamesKeepCase) {
    auto s = parse_as<SelectStatement>("SELECT \"Name\", \"select\" FROM \"Ks\".\"Tab\"");
    EXPECT_EQ(s.selectors[0].column, "Name");
    EXPECT_EQ(s.selectors[1].column, "select");
    EXPECT_EQ(s.table.keyspace, "Ks");
    EXPECT_EQ(s.table.name, "Tab");
}

TEST(ParserSelect, ReservedWordsNeedQuotes) {
    EXPECT_NE(syntax_error("SELECT from FROM t").find("'from'"), std::string::npos);
    EXPECT_NE(syntax_error("SELECT a FROM table").find("'table'"), std::string::npos);
}

}  // namespace
}  // namespace tessel::cql
