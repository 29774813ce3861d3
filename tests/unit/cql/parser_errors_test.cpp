// Error messages for malformed statements, and multi-statement scripts.
#include <gtest/gtest.h>

#include "parse_helpers.h"

namespace tessel::cql {
namespace {

using testing::parse_as;
using testing::syntax_error;

TEST(ParserErrors, NoViableAlternativeShowsPositionTokenAndSnippet) {
    EXPECT_EQ(syntax_error("SELECT * FRM t"),
              "line 1:9 mismatched input 'FRM' expecting K_FROM (SELECT * [FRM] t)");
    EXPECT_EQ(syntax_error("SELEC * FROM t"),
              "line 1:0 no viable alternative at input 'SELEC' ([SELEC] * FROM...)");
}

TEST(ParserErrors, MismatchedInputNamesExpectedToken) {
    EXPECT_EQ(syntax_error("SELECT a, b x FROM t"),
              "line 1:12 mismatched input 'x' expecting K_FROM (SELECT a, b [x] FROM t)");
    EXPECT_EQ(
        syntax_error("INSERT INTO t (a VALUES (1)"),
        "line 1:17 mismatched input 'VALUES' expecting ')' (INSERT INTO t (a [VALUES] (1...)");
}

TEST(ParserErrors, EndOfInput) {
    std::string m = syntax_error("SELECT * FROM");
    EXPECT_EQ(m, "line 1:13 mismatched input '<EOF>' expecting IDENT (SELECT * FROM[])");
    EXPECT_NE(syntax_error("UPDATE t SET a = 1").find("'<EOF>' expecting K_WHERE"),
              std::string::npos);
    EXPECT_NE(syntax_error("").find("line 1:0"), std::string::npos);
}

TEST(ParserErrors, SnippetEndsAtLastTokenNotTrailingText) {
    EXPECT_EQ(syntax_error("SELECT * FROM t WHERE;  -- trailing comment\n"),
              "line 1:21 mismatched input ';' expecting IDENT (SELECT * FROM t WHERE[;])");
    EXPECT_EQ(syntax_error("SELECT * FROM  \n"),
              "line 2:0 mismatched input '<EOF>' expecting IDENT (SELECT * FROM[])");
}

TEST(ParserErrors, LineNumbersCountNewlines) {
    std::string m = syntax_error("SELECT *\nFROM t\nWHERE = 3");
    EXPECT_EQ(m.rfind("line 3:6 ", 0), 0u) << m;
}

TEST(ParserErrors, LongInputSnippetIsTruncated) {
    std::string m = syntax_error("SELECT a, b, c, d, e, f, g, h, i, j, k, l FROM t WHERE ! = 1");
    EXPECT_NE(m.find("no viable alternative at character '!'"), std::string::npos) << m;
    m = syntax_error("SELECT a, b, c, d, e, f, g, h, i, j, k, l FORM t WHERE x = 1 AND y = 2");
    EXPECT_NE(m.find("(, h, i, j, k, l [FORM] t WHERE...)"), std::string::npos) << m;
}

TEST(ParserErrors, TrailingGarbage) {
    EXPECT_NE(syntax_error("USE ks extra").find("expecting <EOF>"), std::string::npos);
    auto r = parse_statements("USE ks extra; USE other");
    ASSERT_FALSE(r.is_ok());
    EXPECT_NE(r.status().message().find("expecting ';' or <EOF>"), std::string::npos);
}

TEST(ParserErrors, MalformedTermsAndTypes) {
    EXPECT_NE(syntax_error("INSERT INTO t (a) VALUES (-'x')").find("no viable alternative"),
              std::string::npos);
    EXPECT_NE(syntax_error("INSERT INTO t (a) VALUES ([1, 2)").find("expecting ']'"),
              std::string::npos);
    EXPECT_NE(syntax_error("CREATE TABLE t (a map<int> PRIMARY KEY)").find("takes 2 parameters"),
              std::string::npos);
    EXPECT_NE(syntax_error("CREATE TABLE t (a int PRIMARY KEY) WITH CLUSTERING ORDER BY (a UP)")
                  .find("K_ASC or K_DESC"),
              std::string::npos);
    EXPECT_NE(syntax_error("CREATE KEYSPACE ks WITH replication = ?").find("constant"),
              std::string::npos);
    EXPECT_NE(syntax_error("SELECT * FROM t WHERE (a, b) = 1").find("expecting '('"),
              std::string::npos);
    EXPECT_NE(syntax_error("SELECT * FROM t WHERE a IN 1").find("expecting '('"),
              std::string::npos);
    EXPECT_NE(
        syntax_error("UPDATE t USING TTL 1 AND TTL 2 SET a = 1 WHERE k = 1").find("more than once"),
        std::string::npos);
    EXPECT_NE(syntax_error("ALTER TABLE t FROB x").find("K_ADD"), std::string::npos);
    EXPECT_NE(syntax_error("DROP INDEX i").find("DROP INDEX is not supported"), std::string::npos);
    EXPECT_NE(syntax_error("CREATE MATERIALIZED VIEW v AS SELECT * FROM t")
                  .find("CREATE MATERIALIZED VIEW is not supported"),
              std::string::npos);
    EXPECT_EQ(syntax_error("CREATE TABEL t (a int PRIMARY KEY)"),
              "line 1:7 mismatched input 'TABEL' expecting K_KEYSPACE, K_TABLE or K_TYPE (CREATE "
              "[TABEL] t (...)");
    EXPECT_NE(syntax_error("DESCRIBE FOO").find("K_KEYSPACES"), std::string::npos);
}

TEST(ParserStatements, ScriptOfSeveralStatements) {
    auto r = parse_statements(
        "USE ks;;\n"
        "-- a comment\n"
        "INSERT INTO t (k) VALUES (?);\n"
        "BEGIN BATCH INSERT INTO t (k) VALUES (?); UPDATE t SET v = ? WHERE k = ?; APPLY BATCH;\n"
        "SELECT * FROM t WHERE k = ?");
    ASSERT_TRUE(r.is_ok()) << r.status().message();
    ASSERT_EQ(r->size(), 4u);
    EXPECT_TRUE((*r)[0].is<UseStatement>());
    EXPECT_EQ((*r)[1].text, "INSERT INTO t (k) VALUES (?)");
    EXPECT_EQ((*r)[1].bind_count(), 1u);
    EXPECT_TRUE((*r)[2].is<BatchStatement>());
    EXPECT_EQ((*r)[2].bind_count(), 3u);
    // Each statement numbers its markers from zero.
    EXPECT_EQ((*r)[3].as<SelectStatement>().where[0].value->bind_marker().index, 0);
    EXPECT_EQ(std::string(statement_kind_name((*r)[3])), "SELECT");
}

TEST(ParserStatements, EmptyScriptAndTrailingSemicolon) {
    auto r = parse_statements("  ;\n -- nothing\n ;");
    ASSERT_TRUE(r.is_ok());
    EXPECT_TRUE(r->empty());
    Statement whole;
    parse_as<UseStatement>("USE ks;", &whole);
    EXPECT_EQ(whole.text, "USE ks");
    EXPECT_NE(syntax_error("USE ks;;").find("<EOF>"), std::string::npos);
}

TEST(ParserStatements, ReservedKeywordList) {
    EXPECT_TRUE(is_reserved_keyword("select"));
    EXPECT_TRUE(is_reserved_keyword("with"));
    EXPECT_TRUE(is_reserved_keyword("token"));
    EXPECT_FALSE(is_reserved_keyword("key"));
    EXPECT_FALSE(is_reserved_keyword("ttl"));
    EXPECT_FALSE(is_reserved_keyword("json"));
}

TEST(ParserStatements, MaybeQuote) {
    EXPECT_EQ(maybe_quote("events"), "events");
    EXPECT_EQ(maybe_quote("key"), "key");
    EXPECT_EQ(maybe_quote("select"), "\"select\"");
    EXPECT_EQ(maybe_quote("MyTable"), "\"MyTable\"");
    EXPECT_EQ(maybe_quote("a\"b"), "\"a\"\"b\"");
    EXPECT_EQ(maybe_quote("1abc"), "\"1abc\"");
    EXPECT_EQ(maybe_quote(""), "\"\"");
}

}  // namespace
}  // namespace tessel::cql
