// Readable gtest output for diagnostics values.
#pragma once

#include <ostream>

#include "diagnostics/space_saving.h"

namespace tessel::diagnostics {

inline void PrintTo(const TopKEntry& e, std::ostream* os) {
    *os << "{" << e.key << " '" << e.display << "' count=" << e.count << " error=" << e.error
        << "}";
}

}  // namespace tessel::diagnostics
