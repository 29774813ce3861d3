// UTF-8 well-formedness (RFC 3629: no overlong forms, no surrogates, <= U+10FFFF).
#pragma once

#include <string_view>

namespace tessel::utf8 {

bool valid(std::string_view s);

}  // namespace tessel::utf8
