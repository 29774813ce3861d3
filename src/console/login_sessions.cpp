#include "console/login_sessions.h"

#include <openssl/rand.h>

#include <algorithm>
#include <stdexcept>

namespace tessel::console {

std::string LoginSessions::create(const std::string& role, diagnostics::TimeMs now) {
    unsigned char raw[32];
    if (RAND_bytes(raw, sizeof raw) != 1) throw std::runtime_error("RAND_bytes failed");
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string token;
    for (unsigned char c : raw) {
        token += kDigits[c >> 4];
        token += kDigits[c & 0xf];
    }
    std::lock_guard lock(mu_);
    for (auto it = sessions_.begin(); it != sessions_.end();) {
        it = now - it->second.last_used > ttl_ms_ ? sessions_.erase(it) : std::next(it);
    }
    while (sessions_.size() >= max_sessions_) {
        auto oldest = std::min_element(sessions_.begin(), sessions_.end(), [](auto& a, auto& b) {
            return a.second.last_used < b.second.last_used;
        });
        sessions_.erase(oldest);
    }
    sessions_[token] = Entry{role, now};
    return token;
}

std::optional<std::string> LoginSessions::role_of(const std::string& token,
                                                  diagnostics::TimeMs now) {
    std::lock_guard lock(mu_);
    auto it = sessions_.find(token);
    if (it == sessions_.end()) return std::nullopt;
    if (now - it->second.last_used > ttl_ms_) {
        sessions_.erase(it);
        return std::nullopt;
    }
    it->second.last_used = now;
    return it->second.role;
}

void LoginSessions::remove(const std::string& token) {
    std::lock_guard lock(mu_);
    sessions_.erase(token);
}

size_t LoginSessions::size() const {
    std::lock_guard lock(mu_);
    return sessions_.size();
}

std::string cookie_value(const std::string& header, const std::string& name) {
    size_t pos = 0;
    while (pos < header.size()) {
        size_t end = header.find(';', pos);
        if (end == std::string::npos) end = header.size();
        std::string part = header.substr(pos, end - pos);
        const size_t first = part.find_first_not_of(' ');
        part = first == std::string::npos ? "" : part.substr(first);
        const size_t eq = part.find('=');
        if (eq != std::string::npos && part.substr(0, eq) == name) return part.substr(eq + 1);
        pos = end + 1;
    }
    return "";
}

}  // namespace tessel::console
