// HTTP requests to etcd's v3 JSON gateway over libcurl: endpoint failover,
// deadlines, cancellation, and turning transport failures and error replies
// into Status. Used by EtcdClient, EtcdWatch and LeaseKeeper; not meant for
// other callers.
//
// Thread-safe: requests run on the calling thread and block; any number may
// run at once. Finished curl handles are pooled, which keeps their
// connections open for the next request.
#pragma once

#include <curl/curl.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/etcd_json.h"
#include "cluster/etcd_types.h"
#include "common/status.h"

namespace tessel::cluster {

struct EtcdCall {
    std::string_view path;  // "/v3/kv/range"
    std::string body;       // JSON
    // An idempotent request (a read, a keep-alive) is tried on the next
    // endpoint after any transport failure. Another one only when it
    // certainly did not reach etcd (no connection, or not fully sent):
    // retrying a transaction that was applied but not answered could report
    // the failure branch for a change it made itself.
    bool idempotent = false;
    // 0: the client's request_timeout_ms.
    std::chrono::milliseconds timeout{0};
    // When set and it becomes true, the request stops within about a
    // second and returns an error.
    const std::atomic<bool>* cancel = nullptr;
};

struct EtcdReply {
    etcd_json::Json body;  // a JSON object, the gateway's error replies already turned into Status
    std::string endpoint;  // who answered
};

class EtcdTransport {
  public:
    // Requires options already checked (EtcdClient::create).
    explicit EtcdTransport(EtcdOptions options);
    ~EtcdTransport();
    EtcdTransport(const EtcdTransport&) = delete;
    EtcdTransport& operator=(const EtcdTransport&) = delete;

    // Posts the call to the endpoints in turn, from the one that answered
    // last, until one answers or the deadline passes. Errors name every
    // endpoint tried: "etcd is unreachable at http://h:p: Connection
    // refused"; an error reply from etcd carries etcd's message.
    Result<EtcdReply> call(const EtcdCall& c) { return call(c, nullptr); }
    // The same; when the failure is an error reply from etcd, also sets
    // *etcd_code to its gRPC status code (5 NOT_FOUND, 14 UNAVAILABLE ...).
    Result<EtcdReply> call(const EtcdCall& c, int64_t* etcd_code);

    const EtcdOptions& options() const { return options_; }
    // The endpoint index to try first, and the one that answered last.
    size_t preferred() const { return preferred_.load(std::memory_order_relaxed); }
    void set_preferred(size_t index) { preferred_.store(index, std::memory_order_relaxed); }

    // The longest reply accepted (a larger one is an error, not a crash).
    static constexpr size_t kMaxReplyBytes = 256u << 20;

    // Turns a reply's raw text into its JSON object (a streaming reply's
    // "result" unwrapped), or the Status for an error reply (its gRPC code in
    // *etcd_code when not null) or unreadable text.
    static Result<etcd_json::Json> parse_reply(std::string_view endpoint, std::string_view path,
                                               long http_status, std::string_view text,
                                               int64_t* etcd_code);

  private:
    CURL* acquire();
    void release(CURL* curl);  // back to the pool

    EtcdOptions options_;
    std::atomic<size_t> preferred_{0};
    std::mutex mu_;
    std::vector<CURL*> idle_;
};

// Runs curl_global_init once per process (thread-safe).
void ensure_curl_initialized();

// Options every etcd request sets on its handle: no signals (threads), no
// proxy from the environment (etcd is reached directly), HTTP(S) only, TCP
// keep-alive (a silent peer is found out), the connect timeout.
void set_common_curl_options(CURL* curl, long connect_timeout_ms);

// Why a transfer failed, for messages: the OS error ("Connection
// refused"), a timeout, or libcurl's own text.
std::string describe_curl_failure(CURL* curl, CURLcode code, const char* error_buffer,
                                  long timeout_ms);

}  // namespace tessel::cluster
