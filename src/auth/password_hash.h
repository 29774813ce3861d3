// Salted, slow password hashes for PasswordAuthenticator.
//
// PBKDF2-HMAC-SHA256 (OpenSSL) over a 16-byte random salt, stored as
// "$pbkdf2-sha256$<iterations>$<salt, base64>$<hash, base64>" (the format
// passlib and others use). The iteration count is kept in the stored string,
// so raising kDefaultIterations later still verifies older hashes.
// Cassandra stores bcrypt; any slow salted KDF serves the same purpose.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace tessel::auth {

inline constexpr int kDefaultIterations = 100000;

// A new salted hash of `password` (Server_error only if the RNG fails).
Result<std::string> hash_password(std::string_view password, int iterations = kDefaultIterations);

// True when `password` matches `stored` (constant-time comparison). A stored
// string that does not parse never matches.
bool verify_password(std::string_view password, std::string_view stored);

}  // namespace tessel::auth
