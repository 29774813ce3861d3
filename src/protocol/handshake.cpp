#include "protocol/handshake.h"

#include <algorithm>
#include <cctype>
#include <optional>

namespace tessel::protocol {
namespace {

bool all_digits(std::string_view s) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Major version of "M.m[.p][-suffix]"; -1 when malformed.
int major_version(std::string_view v) {
    const size_t dash = v.find('-');
    if (dash != std::string_view::npos) v = v.substr(0, dash);
    std::vector<std::string_view> parts;
    while (true) {
        const size_t dot = v.find('.');
        parts.push_back(v.substr(0, dot));
        if (dot == std::string_view::npos) break;
        v.remove_prefix(dot + 1);
    }
    if (parts.size() < 2 || parts.size() > 3) return -1;
    for (auto p : parts) {
        if (!all_digits(p) || p.size() > 4) return -1;
    }
    return std::stoi(std::string(parts[0]));
}

}  // namespace

StringMultimap supported_options(const std::vector<Compression>& compressions) {
    std::vector<std::string> names;
    for (Compression c : compressions) {
        if (c != Compression::kNone) names.emplace_back(compression_name(c));
    }
    return {{"CQL_VERSION", {std::string(kCqlVersion)}},
            {"COMPRESSION", std::move(names)},
            {"PROTOCOL_VERSIONS", {"3/v3", "4/v4"}}};
}

Result<Compression> check_startup(const StartupRequest& startup,
                                  const std::vector<Compression>& compressions) {
    const auto version = startup.options.find("CQL_VERSION");
    if (version == startup.options.end()) {
        return Status::protocol("Missing value CQL_VERSION in STARTUP message");
    }
    const int major = major_version(version->second);
    if (major < 0) return Status::protocol("Invalid version value: " + version->second);
    if (major != 3) {
        return Status::protocol("CQL version " + version->second +
                                " is not supported by the binary protocol (supported version are "
                                ">= 3.0.0)");
    }
    const auto name = startup.options.find("COMPRESSION");
    if (name == startup.options.end()) return Compression::kNone;
    std::string lower = name->second;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const auto c = compression_from_name(lower);
    if (!c || std::find(compressions.begin(), compressions.end(), *c) == compressions.end()) {
        return Status::protocol("Unknown compression algorithm: " + lower);
    }
    return *c;
}

Result<PlainCredentials> parse_sasl_plain(std::string_view token) {
    // Scanned from the end as Cassandra does: the leading authzid is optional,
    // and a third NUL means a NUL inside the username or password.
    std::optional<std::string> user;
    std::optional<std::string> pass;
    size_t end = token.size();
    for (size_t i = token.size(); i-- > 0;) {
        if (token[i] != '\0') continue;
        const std::string part(token.substr(i + 1, end - i - 1));
        if (!pass) {
            pass = part;
        } else if (!user) {
            user = part;
        } else {
            return Status(ErrorCode::kBadCredentials,
                          "Credential format error: username or password is empty or contains "
                          "NUL(\\0) character");
        }
        end = i;
    }
    if (!pass || pass->empty())
        return Status(ErrorCode::kBadCredentials, "Password must not be null");
    if (!user || user->empty()) {
        return Status(ErrorCode::kBadCredentials, "Authentication ID must not be null");
    }
    return PlainCredentials{std::move(*user), std::move(*pass)};
}

std::string encode_sasl_plain(std::string_view username, std::string_view password) {
    std::string token;
    token.reserve(2 + username.size() + password.size());
    token.push_back('\0');
    token.append(username);
    token.push_back('\0');
    token.append(password);
    return token;
}

}  // namespace tessel::protocol
