// EtcdProcess: a real single-member etcd (/usr/bin/etcd) for tests, in a
// fresh temporary directory on free loopback ports, killed and removed at
// the end. It can be stopped and restarted on the same directory and ports
// (clients reconnect to the same URL) and paused with SIGSTOP / SIGCONT.
//
//     tessel::test::EtcdProcess etcd;
//     std::string error;
//     ASSERT_TRUE(etcd.start(&error)) << error;
//     ... EtcdOptions{{etcd.endpoint()}} ...
//
// Raft timing is shortened (10 ms heartbeat, 100 ms election), which makes
// start-up quick and etcd's minimum lease TTL 1 s (2 s with the defaults).
// The child gets SIGKILL if the thread that started it exits (so a crashed
// test leaves no etcd behind): start and restart from a thread that lives as
// long as the process, such as the test's main thread.
#pragma once

#include <curl/curl.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace tessel::test {

class EtcdProcess {
  public:
    static constexpr const char* kBinary = "/usr/bin/etcd";

    EtcdProcess() = default;
    ~EtcdProcess() {
        kill();
        if (!dir_.empty()) {
            std::error_code ignored;
            std::filesystem::remove_all(dir_, ignored);
        }
    }
    EtcdProcess(const EtcdProcess&) = delete;
    EtcdProcess& operator=(const EtcdProcess&) = delete;

    // Creates the directory, picks the ports and starts etcd; returns once
    // it answers. On failure returns false with the reason (and etcd's log).
    bool start(std::string* error = nullptr) {
        std::string why;
        for (int attempt = 0; attempt < 3; ++attempt) {
            if (dir_.empty() && !make_dir(&why)) break;
            if (attempt > 0) {
                std::error_code ignored;
                std::filesystem::remove_all(dir_ + "/data", ignored);
            }
            client_port_ = 0;
            peer_port_ = 0;
            if (!pick_ports(&client_port_, &peer_port_)) {
                why = "no free loopback port";
                continue;
            }
            if (launch(&why)) return true;  // else: a port taken meanwhile, most likely
        }
        if (error) *error = why;
        return false;
    }

    // SIGTERM, waiting for the exit (SIGKILL after 10 s, or at once when
    // paused).
    void stop() {
        if (pid_ <= 0) return;
        ::kill(pid_, paused_ ? SIGKILL : SIGTERM);
        auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (!reap(false)) {
            if (std::chrono::steady_clock::now() > deadline) {
                ::kill(pid_, SIGKILL);
                reap(true);
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }

    // SIGKILL: no clean shutdown.
    void kill() {
        if (pid_ <= 0) return;
        ::kill(pid_, SIGKILL);
        reap(true);
    }

    // Starts the stopped etcd again: same directory, data and ports.
    bool restart(std::string* error = nullptr) {
        stop();
        std::string why;
        if (client_port_ == 0 || !launch(&why)) {
            if (error) *error = client_port_ == 0 ? "etcd was never started" : why;
            return false;
        }
        return true;
    }

    // SIGSTOP / SIGCONT: connections stay open, nothing is answered.
    void pause() {
        if (pid_ > 0 && !paused_) {
            ::kill(pid_, SIGSTOP);
            paused_ = true;
        }
    }
    void resume() {
        if (pid_ > 0 && paused_) {
            ::kill(pid_, SIGCONT);
            paused_ = false;
        }
    }

    bool running() const { return pid_ > 0; }
    int client_port() const { return client_port_; }
    int peer_port() const { return peer_port_; }
    const std::string& dir() const { return dir_; }
    std::string endpoint() const { return "http://127.0.0.1:" + std::to_string(client_port_); }

    std::string log() const {
        std::ifstream in(dir_ + "/etcd.log");
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
    }

    // A raw request to etcd's JSON gateway (for what the client under test
    // does not do, such as compaction): the reply body, or nullopt when
    // etcd did not answer within `timeout_ms`.
    std::optional<std::string> post(const std::string& path, const std::string& body,
                                    long timeout_ms = 2000) const {
        return http(endpoint() + path, &body, timeout_ms);
    }

    // Compacts etcd's history up to `revision` (physically, so a watch
    // from an older revision is refused at once).
    bool compact(int64_t revision) const {
        auto reply = post("/v3/kv/compaction",
                          "{\"revision\":\"" + std::to_string(revision) + "\",\"physical\":true}");
        return reply && reply->find("\"header\"") != std::string::npos;
    }

    // A free loopback port (nothing listens on it when this returns).
    static int free_port() {
        int a = 0, b = 0;
        return pick_ports(&a, &b) ? a : 0;
    }

  private:
    static std::optional<std::string> http(const std::string& url, const std::string* body,
                                           long timeout_ms) {
        static const bool initialized = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
        (void)initialized;
        CURL* curl = curl_easy_init();
        if (!curl) return std::nullopt;
        std::string out;
        curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
        curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(curl, CURLOPT_NOPROXY, "*");
        curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms);
        if (body) curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body->c_str());
        curl_easy_setopt(
            curl, CURLOPT_WRITEFUNCTION, +[](char* p, size_t s, size_t n, void* u) -> size_t {
                static_cast<std::string*>(u)->append(p, s * n);
                return s * n;
            });
        curl_easy_setopt(curl, CURLOPT_WRITEDATA, &out);
        CURLcode rc = curl_easy_perform(curl);
        curl_easy_cleanup(curl);
        if (rc != CURLE_OK) return std::nullopt;
        return out;
    }

    bool make_dir(std::string* why) {
        const char* tmp = std::getenv("TMPDIR");
        std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/tessel-etcd-XXXXXX";
        std::vector<char> buf(pattern.begin(), pattern.end());
        buf.push_back('\0');
        if (!mkdtemp(buf.data())) {
            *why = "mkdtemp failed: " + std::string(std::strerror(errno));
            return false;
        }
        dir_ = buf.data();
        return true;
    }

    // Two distinct free ports, both held while the second is chosen.
    static bool pick_ports(int* a, int* b) {
        int fds[2] = {-1, -1};
        int ports[2] = {0, 0};
        bool ok = true;
        for (int i = 0; i < 2 && ok; ++i) {
            fds[i] = ::socket(AF_INET, SOCK_STREAM, 0);
            sockaddr_in addr{};
            addr.sin_family = AF_INET;
            addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            socklen_t len = sizeof addr;
            ok = fds[i] >= 0 && ::bind(fds[i], reinterpret_cast<sockaddr*>(&addr), len) == 0 &&
                 ::getsockname(fds[i], reinterpret_cast<sockaddr*>(&addr), &len) == 0;
            if (ok) ports[i] = ntohs(addr.sin_port);
        }
        for (int fd : fds) {
            if (fd >= 0) ::close(fd);
        }
        *a = ports[0];
        *b = ports[1];
        return ok;
    }

    bool launch(std::string* why) {
        const std::string client = "http://127.0.0.1:" + std::to_string(client_port_);
        const std::string peer = "http://127.0.0.1:" + std::to_string(peer_port_);
        std::vector<std::string> args = {kBinary,
                                         "--name=tessel-test",
                                         "--data-dir=" + dir_ + "/data",
                                         "--listen-client-urls=" + client,
                                         "--advertise-client-urls=" + client,
                                         "--listen-peer-urls=" + peer,
                                         "--initial-advertise-peer-urls=" + peer,
                                         "--initial-cluster=tessel-test=" + peer,
                                         "--heartbeat-interval=10",
                                         "--election-timeout=100",
                                         "--logger=zap",
                                         "--log-outputs=stderr"};
        std::vector<char*> argv;
        for (auto& a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        // etcd reads ETCD_* variables as flags: keep the environment's out.
        std::vector<std::string> env_strings;
        for (char** e = environ; *e; ++e) {
            if (std::strncmp(*e, "ETCD_", 5) != 0) env_strings.emplace_back(*e);
        }
        std::vector<char*> envp;
        for (auto& e : env_strings)
            envp.push_back(e.data());
        envp.push_back(nullptr);
        const std::string log_path = dir_ + "/etcd.log";
        const pid_t parent = ::getpid();

        pid_t pid = ::fork();
        if (pid < 0) {
            *why = "fork failed: " + std::string(std::strerror(errno));
            return false;
        }
        if (pid == 0) {  // only async-signal-safe calls from here
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (::getppid() != parent) ::_exit(127);
            int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
            int null = ::open("/dev/null", O_RDONLY);
            if (log < 0 || null < 0) ::_exit(127);
            ::dup2(null, 0);
            ::dup2(log, 1);
            ::dup2(log, 2);
            ::execve(kBinary, argv.data(), envp.data());
            ::_exit(127);
        }
        pid_ = pid;
        paused_ = false;
        auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (std::chrono::steady_clock::now() < deadline) {
            if (reap(false)) {
                *why = "etcd exited during start-up; its log:\n" + log();
                return false;
            }
            auto health = http(client + "/health", nullptr, 500);
            if (health && health->find("\"true\"") != std::string::npos) return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        kill();
        *why = "etcd did not answer within 30 s; its log:\n" + log();
        return false;
    }

    // Collects the child's exit; true when it has exited.
    bool reap(bool block) {
        if (pid_ <= 0) return true;
        int status = 0;
        pid_t r = ::waitpid(pid_, &status, block ? 0 : WNOHANG);
        if (r == pid_ || (r < 0 && errno == ECHILD)) {
            pid_ = -1;
            paused_ = false;
            return true;
        }
        return false;
    }

    std::string dir_;
    int client_port_ = 0;
    int peer_port_ = 0;
    pid_t pid_ = -1;
    bool paused_ = false;
};

// Polls `done` every 10 ms until it returns true or `timeout` passes;
// returns its last answer.
template <class Predicate>
bool eventually(Predicate done, std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!done()) {
        if (std::chrono::steady_clock::now() > deadline) return done();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return true;
}

}  // namespace tessel::test
