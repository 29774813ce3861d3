#include "cql/lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessel::cql {
namespace {

std::vector<Token> lex(std::string_view text) {
    auto r = tokenize(text);
    EXPECT_TRUE(r.is_ok()) << (r.is_ok() ? "" : r.status().message());
    return r.is_ok() ? std::move(r).value() : std::vector<Token>{};
}

// "KIND:text" for each token except the final EOF.
std::vector<std::string> kinds(std::string_view text) {
    std::vector<std::string> out;
    for (const Token& t : lex(text)) {
        if (t.kind == TokenKind::kEof) break;
        out.push_back(std::string(token_kind_name(t.kind)) + ":" + t.text);
    }
    return out;
}

using V = std::vector<std::string>;

TEST(Lexer, KeywordsAndIdentifiersAreLowerCased) {
    EXPECT_EQ(kinds("SELECT Foo FROM Bar"),
              (V{"IDENT:select", "IDENT:foo", "IDENT:from", "IDENT:bar"}));
}

TEST(Lexer, QuotedIdentifiersKeepCaseAndUnescape) {
    EXPECT_EQ(kinds("\"MyCol\" \"a\"\"b\""), (V{"QUOTED_NAME:MyCol", "QUOTED_NAME:a\"b"}));
}

TEST(Lexer, StringsUnescapeDoubledQuotes) {
    EXPECT_EQ(kinds("'it''s' ''"), (V{"STRING_LITERAL:it's", "STRING_LITERAL:"}));
}

TEST(Lexer, DollarStringsKeepContentVerbatim) {
    EXPECT_EQ(kinds("$$it's a 'body'$$"), (V{"STRING_LITERAL:it's a 'body'"}));
}

TEST(Lexer, IntegersFloatsAndExponents) {
    EXPECT_EQ(kinds("42 1.5 1e10 2.5E-3 .5 7."),
              (V{"INTEGER:42", "FLOAT:1.5", "FLOAT:1e10", "FLOAT:2.5E-3", "FLOAT:.5", "FLOAT:7."}));
}

TEST(Lexer, FloatWithDotThenExponent) {
    EXPECT_EQ(kinds("1.e5 1.E-2"), (V{"FLOAT:1.e5", "FLOAT:1.E-2"}));
    EXPECT_EQ(kinds("1.x"), (V{"INTEGER:1", "PUNCTUATION:.", "IDENT:x"}));
}

TEST(Lexer, MicrosecondDurationWithMicroSign) {
    EXPECT_EQ(kinds("3\u00b5s 1H2M"), (V{"DURATION:3\u00b5s", "DURATION:1H2M"}));
}

TEST(Lexer, UuidsLexBeforeIntegersAndIdentifiers) {
    EXPECT_EQ(kinds("12345678-1234-1234-1234-123456789abc"),
              (V{"UUID:12345678-1234-1234-1234-123456789abc"}));
    EXPECT_EQ(kinds("deadbeef-dead-beef-dead-beefdeadbeef"),
              (V{"UUID:deadbeef-dead-beef-dead-beefdeadbeef"}));
    // Not a uuid: wrong group length, so an integer, a minus and more.
    EXPECT_EQ(kinds("1234567-1234"), (V{"INTEGER:1234567", "PUNCTUATION:-", "INTEGER:1234"}));
    EXPECT_EQ(kinds("deadbeef"), (V{"IDENT:deadbeef"}));
}

TEST(Lexer, HexBlobs) {
    EXPECT_EQ(kinds("0xCAFE 0x"), (V{"HEXNUMBER:0xCAFE", "HEXNUMBER:0x"}));
    EXPECT_FALSE(tokenize("0xCAFG").is_ok());
}

TEST(Lexer, Durations) {
    EXPECT_EQ(kinds("1h30m 12mo 5ms 3us 2ns 1y2d P1DT2H P2W PT10S"),
              (V{"DURATION:1h30m", "DURATION:12mo", "DURATION:5ms", "DURATION:3us", "DURATION:2ns",
                 "DURATION:1y2d", "DURATION:P1DT2H", "DURATION:P2W", "DURATION:PT10S"}));
    EXPECT_EQ(kinds("P0001-02-03T04:05:06"), (V{"DURATION:P0001-02-03T04:05:06"}));
}

TEST(Lexer, WordsStartingWithPAreIdentifiersUnlessIsoDurations) {
    EXPECT_EQ(kinds("p pk p1 pt"), (V{"IDENT:p", "IDENT:pk", "IDENT:p1", "IDENT:pt"}));
}

TEST(Lexer, BooleansAnyCase) {
    EXPECT_EQ(kinds("TRUE False"), (V{"BOOLEAN:true", "BOOLEAN:false"}));
}

TEST(Lexer, CommentsAreSkipped) {
    EXPECT_EQ(kinds("a -- comment\nb // another\nc /* multi\nline */ d"),
              (V{"IDENT:a", "IDENT:b", "IDENT:c", "IDENT:d"}));
}

TEST(Lexer, Operators) {
    EXPECT_EQ(
        kinds("= != < <= > >= + - += -= ( ) [ ] { } , ; . : ? *"),
        (V{"PUNCTUATION:=",  "PUNCTUATION:!=", "PUNCTUATION:<", "PUNCTUATION:<=", "PUNCTUATION:>",
           "PUNCTUATION:>=", "PUNCTUATION:+",  "PUNCTUATION:-", "PUNCTUATION:+=", "PUNCTUATION:-=",
           "PUNCTUATION:(",  "PUNCTUATION:)",  "PUNCTUATION:[", "PUNCTUATION:]",  "PUNCTUATION:{",
           "PUNCTUATION:}",  "PUNCTUATION:,",  "PUNCTUATION:;", "PUNCTUATION:.",  "PUNCTUATION::",
           "PUNCTUATION:?",  "PUNCTUATION:*"}));
}

TEST(Lexer, TracksLineAndColumn) {
    auto toks = lex("SELECT a\n  FROM t");
    ASSERT_EQ(toks.size(), 5u);
    EXPECT_EQ(toks[0].line, 1);
    EXPECT_EQ(toks[0].column, 0);
    EXPECT_EQ(toks[1].column, 7);
    EXPECT_EQ(toks[2].line, 2);
    EXPECT_EQ(toks[2].column, 2);
    EXPECT_EQ(toks[3].offset, 16u);
    EXPECT_EQ(toks[4].kind, TokenKind::kEof);
}

TEST(Lexer, ErrorsCarryPositionAndSyntaxCode) {
    auto r = tokenize("SELECT #");
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.status().code(), ErrorCode::kSyntaxError);
    EXPECT_EQ(r.status().message(), "line 1:7 no viable alternative at character '#'");

    auto s = tokenize("x = 'abc");
    ASSERT_FALSE(s.is_ok());
    EXPECT_EQ(s.status().code(), ErrorCode::kSyntaxError);
    EXPECT_NE(s.status().message().find("line 1:4"), std::string::npos);

    auto c = tokenize("a\n/* never closed");
    ASSERT_FALSE(c.is_ok());
    EXPECT_NE(c.status().message().find("line 2:0"), std::string::npos);

    EXPECT_FALSE(tokenize("\"unterminated").is_ok());
    EXPECT_FALSE(tokenize("$$ open").is_ok());
    EXPECT_FALSE(tokenize("\"\"").is_ok());
}

TEST(Lexer, NumberFollowedByWordSplits) {
    EXPECT_EQ(kinds("10abc"), (V{"INTEGER:10", "IDENT:abc"}));
}

}  // namespace
}  // namespace tessel::cql
