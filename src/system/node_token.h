// The ring token a single node owns when none is configured.
#pragma once

#include <string>
#include <string_view>

namespace tessel::system {

// A fixed token derived from the host id (its Murmur3 token, as a decimal
// signed 64-bit string), so it is stable across restarts and differs between
// nodes. A single node owns the whole ring whatever its one token is.
std::string default_token_for_host(std::string_view host_id);

}  // namespace tessel::system
