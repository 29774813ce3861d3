// Text forms of CQL inet values (4 or 16 address bytes, no port).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tessel::inet {

// "127.0.0.1" or an IPv6 address ("::1", "fe80::1%eth0" is rejected) -> 4 or 16 bytes.
std::optional<std::string> parse(std::string_view text);
// The address as Python's ipaddress/cqlsh prints it ("127.0.0.1", "::1").
// Precondition: 4 or 16 bytes.
std::string format(std::string_view bytes);
// The address as Java's InetAddress.getHostAddress prints it (toJson):
// IPv6 without "::" compression, e.g. "0:0:0:0:0:0:0:1".
std::string format_java(std::string_view bytes);

}  // namespace tessel::inet
