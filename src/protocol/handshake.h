// Connection-setup rules shared by the server and the client: what a STARTUP
// must hold, the SUPPORTED options, and SASL PLAIN credentials (reference
// §1.5 and §1.6).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "protocol/compression.h"
#include "protocol/requests.h"
#include "protocol/wire.h"

namespace tessel::protocol {

// The CQL version the server advertises and accepts.
inline constexpr std::string_view kCqlVersion = "3.4.4";
inline constexpr std::string_view kPasswordAuthenticator =
    "org.apache.cassandra.auth.PasswordAuthenticator";

// SUPPORTED options: CQL_VERSION, COMPRESSION (the names of `compressions`,
// possibly none: drivers require the key) and PROTOCOL_VERSIONS.
StringMultimap supported_options(const std::vector<Compression>& compressions);

// Checks a STARTUP as Cassandra does and returns the compression it asks for
// (kNone without a COMPRESSION key). Protocol_error for:
// - no CQL_VERSION: "Missing value CQL_VERSION in STARTUP message";
// - a CQL_VERSION that is not 3.x[.y]: "CQL version X is not supported by the binary
//   protocol (supported version are >= 3.0.0)" or "Invalid version value: X";
// - a COMPRESSION not in `compressions`: "Unknown compression algorithm: x".
// Other keys (DRIVER_NAME, CLIENT_ID, NO_COMPACT, ...) are ignored.
Result<Compression> check_startup(const StartupRequest& startup,
                                  const std::vector<Compression>& compressions);

struct PlainCredentials {
    std::string username;
    std::string password;
};

// The SASL PLAIN token of AUTH_RESPONSE: [authzid] NUL username NUL password.
// Bad_credentials with Cassandra's PlainTextSaslAuthenticator messages when a
// part is missing or empty ("Password must not be null", "Authentication ID
// must not be null") or there are too many NULs ("Credential format error: ...").
Result<PlainCredentials> parse_sasl_plain(std::string_view token);
// The token a client sends: NUL username NUL password.
std::string encode_sasl_plain(std::string_view username, std::string_view password);

}  // namespace tessel::protocol
