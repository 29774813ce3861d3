// fuzz_replay: runs every seed (fuzz/corpus/<target>/*) and every saved crash
// input (fuzz/regressions/<target>/*) through its fuzz target, so inputs that
// once crashed stay fixed in every build, with or without sanitizers.
//
//   fuzz_replay FUZZ_DIR              all corpora and regressions
//   fuzz_replay -t TARGET FILE...     the given files through one target
//
// A broken invariant aborts (the signal handler names the file first); an
// unknown target directory, a target without seeds or an unreadable file
// exits with status 1.
#include <unistd.h>
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "targets.h"

namespace {

namespace fs = std::filesystem;
using Target = void (*)(const uint8_t*, size_t);

const std::map<std::string, Target>& targets() {
    static const std::map<std::string, Target> t = {
        {"frame", tessel::fuzz::fuzz_frame},
        {"cql", tessel::fuzz::fuzz_cql},
        {"values", tessel::fuzz::fuzz_values},
        {"compression", tessel::fuzz::fuzz_compression},
        {"type_option", tessel::fuzz::fuzz_type_option},
        {"paging_state", tessel::fuzz::fuzz_paging_state},
        {"messaging_frame", tessel::fuzz::fuzz_messaging_frame},
    };
    return t;
}

// The file being replayed, for the fatal signal handler (a fixed buffer: the
// handler may only call async-signal-safe functions).
char g_current[4096];

void on_fatal_signal(int sig) {
    const char prefix[] = "fuzz_replay: crashed on input ";
    (void)!write(STDERR_FILENO, prefix, sizeof(prefix) - 1);
    (void)!write(STDERR_FILENO, g_current, strnlen(g_current, sizeof(g_current)));
    (void)!write(STDERR_FILENO, "\n", 1);
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

bool run_file(Target target, const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "fuzz_replay: cannot read %s\n", file.c_str());
        return false;
    }
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::snprintf(g_current, sizeof(g_current), "%s", file.c_str());
    target(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    return true;
}

std::vector<fs::path> files_in(const fs::path& dir) {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(dir)) {
        if (e.is_regular_file() && e.path().filename().string().front() != '.') {
            out.push_back(e.path());
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

int replay_tree(const fs::path& fuzz_dir) {
    int failures = 0;
    size_t total = 0;
    for (const char* kind : {"corpus", "regressions"}) {
        const fs::path root = fuzz_dir / kind;
        if (!fs::is_directory(root)) continue;
        for (const auto& e : fs::directory_iterator(root)) {
            if (!e.is_directory()) continue;
            const std::string name = e.path().filename().string();
            auto it = targets().find(name);
            if (it == targets().end()) {
                std::fprintf(stderr, "fuzz_replay: %s names no fuzz target\n", e.path().c_str());
                ++failures;
                continue;
            }
            for (const auto& f : files_in(e.path())) {
                if (!run_file(it->second, f)) ++failures;
                ++total;
            }
        }
    }
    for (const auto& [name, fn] : targets()) {
        const fs::path seeds = fuzz_dir / "corpus" / name;
        if (!fs::is_directory(seeds) || files_in(seeds).empty()) {
            std::fprintf(stderr, "fuzz_replay: no seed corpus for target %s in %s\n", name.c_str(),
                         seeds.c_str());
            ++failures;
        }
    }
    std::printf("fuzz_replay: %zu inputs replayed, %d problems\n", total, failures);
    return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    std::signal(SIGABRT, on_fatal_signal);
    std::signal(SIGSEGV, on_fatal_signal);
    std::signal(SIGFPE, on_fatal_signal);
    if (argc >= 3 && std::strcmp(argv[1], "-t") == 0) {
        auto it = targets().find(argv[2]);
        if (it == targets().end()) {
            std::fprintf(stderr, "fuzz_replay: unknown target %s\n", argv[2]);
            return 1;
        }
        int failures = 0;
        for (int i = 3; i < argc; ++i) {
            if (!run_file(it->second, argv[i])) ++failures;
        }
        return failures == 0 ? 0 : 1;
    }
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s FUZZ_DIR | -t TARGET FILE...\n", argv[0]);
        return 1;
    }
    return replay_tree(argv[1]);
}
