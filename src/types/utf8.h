// UTF-8 well-formedness (RFC 3629: no overlong forms, no surrogates, <= U+10FFFF).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tessel::utf8 {

bool valid(std::string_view s);

// The length of the well-formed sequence starting at s[i], or 0 when the
// bytes there are not one.
size_t sequence_length(std::string_view s, size_t i);

// `s` with every byte that does not start a well-formed sequence replaced by
// U+FFFD, so that any text can be sent where a peer expects UTF-8.
std::string repair(std::string_view s);

// The longest prefix of `s` of at most `max` bytes that does not end in the
// middle of a multi-byte sequence.
size_t boundary_at_most(std::string_view s, size_t max);

}  // namespace tessel::utf8
