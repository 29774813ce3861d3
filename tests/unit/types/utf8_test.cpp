// UTF-8 checks and the repairs made before text goes out as a [string].
#include "types/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace tessel {
namespace {

using namespace std::string_literals;

TEST(Utf8Test, ValidRejectsBrokenSequences) {
    EXPECT_TRUE(utf8::valid("tab\xD7\xA2\xD7\x91"));
    EXPECT_TRUE(utf8::valid("\xF0\x9F\x98\x80"));
    EXPECT_FALSE(utf8::valid("tab\xD7"));           // cut sequence
    EXPECT_FALSE(utf8::valid("\xC0\xAF"));          // overlong '/'
    EXPECT_FALSE(utf8::valid("\xED\xA0\x80"));      // surrogate
    EXPECT_FALSE(utf8::valid("\xF4\x90\x80\x80"));  // above U+10FFFF
    EXPECT_FALSE(utf8::valid("\x80"));              // lone continuation
}

TEST(Utf8Test, RepairReplacesOnlyBadBytes) {
    EXPECT_EQ(utf8::repair("plain"), "plain");
    EXPECT_EQ(utf8::repair("\xD7\xA2"), "\xD7\xA2");
    EXPECT_EQ(utf8::repair("a\xD7"), "a\xEF\xBF\xBD");
    EXPECT_EQ(utf8::repair("\xFF\xFE"
                           "b"),
              "\xEF\xBF\xBD\xEF\xBF\xBD"
              "b");
    EXPECT_EQ(utf8::repair("\xE2\x82"
                           "x"),
              "\xEF\xBF\xBD\xEF\xBF\xBDx");
    for (const std::string& s : {"\xC3"s, "\x00\x80"s, "\xF0\x9F\x98"s}) {
        EXPECT_TRUE(utf8::valid(utf8::repair(s)));
    }
}

TEST(Utf8Test, BoundaryNeverSplitsASequence) {
    const std::string s = "a\xD7\xA2\xF0\x9F\x98\x80z";  // a, U+05E2, U+1F600, z
    EXPECT_EQ(utf8::boundary_at_most(s, 100), s.size());
    EXPECT_EQ(utf8::boundary_at_most(s, 1), 1u);
    EXPECT_EQ(utf8::boundary_at_most(s, 2), 1u);
    EXPECT_EQ(utf8::boundary_at_most(s, 3), 3u);
    for (size_t max = 4; max <= 6; ++max)
        EXPECT_EQ(utf8::boundary_at_most(s, max), 3u) << max;
    EXPECT_EQ(utf8::boundary_at_most(s, 7), 7u);
    for (size_t max = 0; max <= s.size(); ++max)
        EXPECT_TRUE(utf8::valid(s.substr(0, utf8::boundary_at_most(s, max)))) << max;
}

}  // namespace
}  // namespace tessel
