// LoginSessions: the console's logins when PasswordAuthenticator is on. A
// successful login (the role's password checked by Database::login, as for
// CQL) gets a random 256-bit token, sent as an HttpOnly, SameSite=Strict
// cookie; a token is valid for `ttl_ms` after its last use. At most
// `max_sessions` are kept (the least recently used goes first).
#pragma once

#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "diagnostics/clock.h"

namespace tessel::console {

inline constexpr const char* kSessionCookie = "tessel_console";

class LoginSessions {
  public:
    explicit LoginSessions(int64_t ttl_ms = 8 * 3600 * 1000, size_t max_sessions = 10000)
        : ttl_ms_(ttl_ms), max_sessions_(max_sessions) {}

    // A new token for `role`.
    std::string create(const std::string& role, diagnostics::TimeMs now);
    // The role logged in with `token`, refreshing its expiry; nullopt when
    // unknown or expired.
    std::optional<std::string> role_of(const std::string& token, diagnostics::TimeMs now);
    void remove(const std::string& token);
    size_t size() const;

  private:
    struct Entry {
        std::string role;
        diagnostics::TimeMs last_used = 0;
    };
    int64_t ttl_ms_;
    size_t max_sessions_;
    mutable std::mutex mu_;
    std::map<std::string, Entry> sessions_;
};

// The value of cookie `name` in a Cookie header; empty when absent.
std::string cookie_value(const std::string& header, const std::string& name);

}  // namespace tessel::console
