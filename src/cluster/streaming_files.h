// The file work of streaming (streaming.h): reading a source's exported
// files chunk by chunk, writing a target's staging files, and removing
// either. Blocking calls: run them off messaging's io threads.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace tessel::cluster {

// `n` bytes of `path` from `offset` (Server_error when there are fewer).
Result<std::string> read_file_chunk(const std::string& path, uint64_t offset, size_t n);
// Creates (or empties) `path`.
Status create_empty_file(const std::string& path);
Status append_to_file(const std::string& path, std::string_view data);
Status sync_file(const std::string& path);
// Removes `dir` and everything under it; a failure is logged.
void remove_tree(const std::string& dir);

}  // namespace tessel::cluster
