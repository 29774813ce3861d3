#include "embedded/node_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>

#include "query/paging_state.h"

namespace tessel::embedded {

Result<std::string> load_or_create_random_file(const std::string& path, size_t size) {
    std::ifstream in(path, std::ios::binary);
    if (in) {
        std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (data.size() != size) {
            return Status::server("Corrupt node file " + path + ": expected " +
                                  std::to_string(size) + " bytes, found " +
                                  std::to_string(data.size()));
        }
        return data;
    }
    std::string data = query::random_bytes(size);
    const std::string tmp = path + ".tmp";
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) return Status::server("Cannot create " + tmp);
    const bool ok = ::write(fd, data.data(), data.size()) == static_cast<ssize_t>(data.size()) &&
                    ::fsync(fd) == 0;
    ::close(fd);
    if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
        return Status::server("Cannot write " + path);
    }
    return data;
}

}  // namespace tessel::embedded
