// Small files a node keeps in its data directory: the paging-state secret
// and the host id, created once and read back on every open.
#pragma once

#include <string>

#include "common/status.h"

namespace tessel::embedded {

// Reads `path` when it exists (it must hold exactly `size` bytes), otherwise
// creates it with `size` random bytes, written to a temporary file, fsynced
// and renamed so a crash never leaves a partial file.
Result<std::string> load_or_create_random_file(const std::string& path, size_t size);

}  // namespace tessel::embedded
