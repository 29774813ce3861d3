// Bad input never crashes: every prefix and single-byte mutation of valid
// statements either parses or fails with a Syntax_error/Invalid status.
#include <gtest/gtest.h>

#include <string>

#include "cql/parser.h"

namespace tessel::cql {
namespace {

const char* const kStatements[] = {
    "SELECT JSON DISTINCT a AS x, count(*), CAST(b AS text), u.f FROM ks.t WHERE (c, d) IN "
    "((1, 2), ?) AND token(k) > ? AND m['k'] = :v GROUP BY a ORDER BY c DESC PER PARTITION "
    "LIMIT 2 LIMIT ? ALLOW FILTERING",
    "INSERT INTO t (a, b, c) VALUES ([?, 1], {'a': {x: 1}}, (int) ?) IF NOT EXISTS USING TTL 5",
    "UPDATE t USING TIMESTAMP 1 SET a = a + 1, l = [1] + l, m['x'] = -1.5e3 WHERE k = 1 IF "
    "b IN (1, 2) AND u.f = 'x'",
    "BEGIN UNLOGGED BATCH DELETE a[1], b.c FROM t WHERE k = $$x$$; INSERT INTO t JSON ? "
    "DEFAULT UNSET; APPLY BATCH",
    "CREATE TABLE IF NOT EXISTS t (k int, c timeuuid, v frozen<map<text, tuple<int, "
    "list<blob>>>>, PRIMARY KEY ((k), c)) WITH CLUSTERING ORDER BY (c DESC) AND x = {'a': 1h}",
    "ALTER TABLE t RENAME a TO b AND c TO d; CREATE TYPE u (a int); DESC TABLE t",
};

bool acceptable(const Status& s) {
    return s.code() == ErrorCode::kSyntaxError || s.code() == ErrorCode::kInvalid;
}

TEST(ParserRobustness, PrefixesAndMutationsNeverCrash) {
    const std::string noise = "();,.?:'\"$-[]{}<>=*x0";
    int parsed = 0;
    int failed = 0;
    for (const char* stmt : kStatements) {
        const std::string text = stmt;
        ASSERT_TRUE(parse_statements(text).is_ok()) << text;
        for (std::size_t cut = 0; cut <= text.size(); ++cut) {
            auto r = parse_statements(text.substr(0, cut));
            if (r.is_ok()) {
                ++parsed;
            } else {
                ++failed;
                EXPECT_TRUE(acceptable(r.status())) << r.status().message();
                EXPECT_EQ(r.status().message().rfind("line ", 0) == 0 ||
                              r.status().code() == ErrorCode::kInvalid,
                          true)
                    << r.status().message();
            }
        }
        for (std::size_t i = 0; i < text.size(); i += 3) {
            for (char c : noise) {
                std::string m = text;
                m[i] = c;
                auto r = parse_statements(m);
                if (!r.is_ok()) {
                    EXPECT_TRUE(acceptable(r.status())) << m;
                }
            }
        }
    }
    EXPECT_GT(parsed, 0);
    EXPECT_GT(failed, 0);
}

TEST(ParserRobustness, DeepNestingIsAnErrorNotACrash) {
    const std::string deep_list =
        "INSERT INTO t (a) VALUES (" + std::string(100000, '[') + std::string(100000, ']') + ")";
    auto r = parse_statement(deep_list);
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.status().code(), ErrorCode::kSyntaxError);
    EXPECT_NE(r.status().message().find("nested more than"), std::string::npos);

    std::string deep_type = "CREATE TABLE t (k int PRIMARY KEY, v ";
    for (int i = 0; i < 5000; ++i)
        deep_type += "list<";
    deep_type += "int" + std::string(5000, '>') + ")";
    EXPECT_FALSE(parse_statement(deep_type).is_ok());

    std::string deep_sel = "SELECT ";
    for (int i = 0; i < 5000; ++i)
        deep_sel += "f(";
    deep_sel += "a" + std::string(5000, ')') + " FROM t";
    EXPECT_FALSE(parse_statement(deep_sel).is_ok());

    // Moderate nesting is fine.
    auto ok = parse_statement("INSERT INTO t (a) VALUES ([[[[[[1]]]]]])");
    EXPECT_TRUE(ok.is_ok());
}

}  // namespace
}  // namespace tessel::cql
