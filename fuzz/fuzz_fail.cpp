#include <cstdio>
#include <cstdlib>

#include "targets.h"

namespace tessel::fuzz {

void fuzz_fail(std::string_view target, std::string_view what) {
    std::fprintf(stderr, "fuzz invariant broken in %.*s: %.*s\n", static_cast<int>(target.size()),
                 target.data(), static_cast<int>(what.size()), what.data());
    std::abort();
}

}  // namespace tessel::fuzz
