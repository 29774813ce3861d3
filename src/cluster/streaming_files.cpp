#include "cluster/streaming_files.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace tessel::cluster {

namespace fs = std::filesystem;

namespace {

Status io_error(const std::string& what, const std::string& path) {
    return Status::server(what + " " + path + ": " + std::strerror(errno));
}

}  // namespace

Result<std::string> read_file_chunk(const std::string& path, uint64_t offset, size_t n) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return io_error("Cannot open", path);
    std::string data(n, '\0');
    size_t got = 0;
    while (got < n) {
        const ssize_t r = ::pread(fd, data.data() + got, n - got, static_cast<off_t>(offset + got));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            Status st =
                r < 0 ? io_error("Cannot read", path) : Status::server("Unexpected end of " + path);
            ::close(fd);
            return st;
        }
        got += static_cast<size_t>(r);
    }
    ::close(fd);
    return data;
}

Status append_to_file(const std::string& path, std::string_view data) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0) return io_error("Cannot open", path);
    while (!data.empty()) {
        const ssize_t w = ::write(fd, data.data(), data.size());
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            Status st = io_error("Cannot write", path);
            ::close(fd);
            return st;
        }
        data.remove_prefix(static_cast<size_t>(w));
    }
    if (::close(fd) != 0) return io_error("Cannot write", path);
    return Status::ok();
}

Status create_empty_file(const std::string& path) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return io_error("Cannot create", path);
    ::close(fd);
    return Status::ok();
}

Status sync_file(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return io_error("Cannot open", path);
    const int r = ::fsync(fd);
    Status st = r == 0 ? Status::ok() : io_error("Cannot sync", path);
    ::close(fd);
    return st;
}

void remove_tree(const std::string& dir) {
    std::error_code ec;
    fs::remove_all(dir, ec);
    if (ec) spdlog::warn("cannot remove {}: {}", dir, ec.message());
}

}  // namespace tessel::cluster
