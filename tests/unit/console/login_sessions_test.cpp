#include "console/login_sessions.h"

#include <gtest/gtest.h>

#include "console/api.h"

namespace tessel::console {
namespace {

TEST(LoginSessions, ATokenNamesItsRoleUntilItExpires) {
    LoginSessions s(/*ttl_ms=*/1000);
    const std::string token = s.create("alice", 0);
    EXPECT_EQ(token.size(), 64u);
    EXPECT_NE(s.create("alice", 0), token);
    EXPECT_EQ(s.role_of(token, 900).value_or(""), "alice");
    EXPECT_EQ(s.role_of(token, 1800).value_or(""), "alice");  // use refreshed it
    EXPECT_FALSE(s.role_of(token, 3000).has_value());
    EXPECT_FALSE(s.role_of("nope", 0).has_value());
}

TEST(LoginSessions, RemovedAndOldestSessionsGo) {
    LoginSessions s(1000000, 2);
    const std::string a = s.create("a", 1);
    const std::string b = s.create("b", 2);
    const std::string c = s.create("c", 3);  // a, the least recently used, goes
    EXPECT_EQ(s.size(), 2u);
    EXPECT_FALSE(s.role_of(a, 4).has_value());
    s.remove(b);
    EXPECT_FALSE(s.role_of(b, 4).has_value());
    EXPECT_EQ(s.role_of(c, 4).value_or(""), "c");
}

TEST(LoginSessions, ReadsTheCookieHeader) {
    EXPECT_EQ(cookie_value("a=1; tessel_console=abc; b=2", "tessel_console"), "abc");
    EXPECT_EQ(cookie_value("tessel_console=x", "tessel_console"), "x");
    EXPECT_EQ(cookie_value("xtessel_console=x", "tessel_console"), "");
    EXPECT_EQ(cookie_value("", "tessel_console"), "");
}

TEST(ConsoleApiParams, ParsesTheHeatMapRange) {
    EXPECT_EQ(parse_since_ms("3600", 0).value_or(0), 3600000);
    EXPECT_EQ(parse_since_ms("90s", 0).value_or(0), 90000);
    EXPECT_EQ(parse_since_ms("15m", 0).value_or(0), 900000);
    EXPECT_EQ(parse_since_ms("1h", 0).value_or(0), 3600000);
    EXPECT_EQ(parse_since_ms("1d", 0).value_or(0), 86400000);
    for (const char* bad : {"", "0", "-5", "2d", "1x", "h", "1.5h", "86401"})
        EXPECT_FALSE(parse_since_ms(bad, 0).has_value()) << bad;
    // A point in time within the last day.
    const int64_t now = 1717228800000;
    EXPECT_EQ(parse_since_ms("1717228740000", now).value_or(0), 60000);
    EXPECT_EQ(parse_since_ms("1717228800000", now).value_or(0), 1);
    EXPECT_FALSE(parse_since_ms("1717228800001", now).has_value());  // the future
    EXPECT_FALSE(parse_since_ms("1717142399999", now).has_value());  // over a day ago
}

}  // namespace
}  // namespace tessel::console
