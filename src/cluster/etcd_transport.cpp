#include "cluster/etcd_transport.h"

#include <fmt/format.h>

#include <algorithm>
#include <system_error>

namespace tessel::cluster {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr size_t kMaxIdleHandles = 8;

struct Sink {
    std::string text;
    bool overflow = false;
};

size_t write_to_sink(char* data, size_t size, size_t count, void* user) {
    auto* sink = static_cast<Sink*>(user);
    size_t n = size * count;
    if (sink->text.size() + n > EtcdTransport::kMaxReplyBytes) {
        sink->overflow = true;
        return 0;  // makes curl stop with CURLE_WRITE_ERROR
    }
    sink->text.append(data, n);
    return n;
}

int check_cancel(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    const auto* cancel = static_cast<const std::atomic<bool>*>(user);
    return cancel->load(std::memory_order_relaxed) ? 1 : 0;
}

// At most `limit` characters of `text`, unprintable bytes shown as '?'.
std::string printable(std::string_view text, size_t limit = 200) {
    std::string out;
    for (char c : text.substr(0, limit))
        out += (c >= 0x20 && c < 0x7f) ? c : '?';
    if (text.size() > limit) out += "...";
    return out;
}

enum class Outcome { kAnswered, kNotSent, kMaybeSent, kCancelled, kTooLarge };

struct Attempt {
    Outcome outcome = Outcome::kNotSent;
    long http_status = 0;
    std::string text;    // the reply
    std::string reason;  // why it failed
};

}  // namespace

void ensure_curl_initialized() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string os_error_text(long os_errno) {
    return std::error_code(static_cast<int>(os_errno), std::generic_category()).message();
}

void set_common_curl_options(CURL* curl, long connect_timeout_ms) {
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_NOPROXY, "*");
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
#endif
    curl_easy_setopt(curl, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(curl, CURLOPT_TCP_KEEPIDLE, 10L);
    curl_easy_setopt(curl, CURLOPT_TCP_KEEPINTVL, 5L);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, std::max(1L, connect_timeout_ms));
}

std::string describe_curl_failure(CURL* curl, CURLcode code, const char* error_buffer,
                                  long timeout_ms) {
    if (code == CURLE_OPERATION_TIMEDOUT) {
        // Request bytes sent: the connection was made (or reused).
        long request_bytes = 0;
        curl_easy_getinfo(curl, CURLINFO_REQUEST_SIZE, &request_bytes);
        if (request_bytes == 0) {
            return fmt::format("could not connect within {} ms", timeout_ms);
        }
        return fmt::format("no answer within {} ms", timeout_ms);
    }
    long os_errno = 0;
    curl_easy_getinfo(curl, CURLINFO_OS_ERRNO, &os_errno);
    if (os_errno != 0) return os_error_text(os_errno);
    if (error_buffer && error_buffer[0]) return error_buffer;
    return curl_easy_strerror(code);
}

EtcdTransport::EtcdTransport(EtcdOptions options) : options_(std::move(options)) {
    ensure_curl_initialized();
}

EtcdTransport::~EtcdTransport() {
    for (CURL* h : idle_)
        curl_easy_cleanup(h);
}

CURL* EtcdTransport::acquire() {
    {
        std::lock_guard lock(mu_);
        if (!idle_.empty()) {
            CURL* h = idle_.back();
            idle_.pop_back();
            return h;
        }
    }
    return curl_easy_init();
}

void EtcdTransport::release(CURL* curl) {
    {
        std::lock_guard lock(mu_);
        if (idle_.size() < kMaxIdleHandles) {
            idle_.push_back(curl);
            return;
        }
    }
    curl_easy_cleanup(curl);
}

Result<etcd_json::Json> EtcdTransport::parse_reply(std::string_view endpoint, std::string_view path,
                                                   long http_status, std::string_view text,
                                                   int64_t* etcd_code) {
    using etcd_json::Json;
    Json json = Json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (json.is_discarded() || !json.is_object()) {
        if (http_status != 200) {
            return Status::server(fmt::format("etcd at {} answered {} with HTTP {}: {}", endpoint,
                                              path, http_status, printable(text)));
        }
        return Status::server(
            fmt::format("etcd at {} sent a malformed reply to {} (not a JSON object): {}", endpoint,
                        path, printable(text)));
    }
    if (auto error = etcd_json::read_error(json)) {
        if (etcd_code) *etcd_code = error->code;
        return Status::server(
            fmt::format("etcd at {} refused {}: {}", endpoint, path, error->message));
    }
    if (http_status != 200) {
        return Status::server(fmt::format("etcd at {} answered {} with HTTP {}: {}", endpoint, path,
                                          http_status, printable(text)));
    }
    if (const Json* result = etcd_json::member(json, "result"); result && result->is_object()) {
        Json inner = std::move(json["result"]);
        return inner;
    }
    return json;
}

Result<EtcdReply> EtcdTransport::call(const EtcdCall& c, int64_t* etcd_code) {
    if (etcd_code) *etcd_code = 0;
    const auto timeout =
        c.timeout.count() > 0 ? c.timeout : milliseconds(options_.request_timeout_ms);
    const auto deadline = Clock::now() + timeout;
    const size_t n = options_.endpoints.size();
    const size_t first = preferred() % n;
    std::vector<std::string> failures;

    curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
    headers = curl_slist_append(headers, "Expect:");  // no 100-continue round trip
    CURL* h = acquire();
    if (!h || !headers) {
        if (h) release(h);
        curl_slist_free_all(headers);
        return Status::server("etcd request failed: out of memory for the HTTP client");
    }

    std::optional<Result<EtcdReply>> final;
    for (size_t k = 0; k < n && !final; ++k) {
        const size_t index = (first + k) % n;
        const std::string& endpoint = options_.endpoints[index];
        const auto remaining = std::chrono::ceil<milliseconds>(deadline - Clock::now()).count();
        if (remaining <= 0) break;

        const std::string url = endpoint + std::string(c.path);
        Sink sink;
        char error_buffer[CURL_ERROR_SIZE] = {0};
        curl_easy_reset(h);
        set_common_curl_options(h, std::min<long>(options_.connect_timeout_ms, remaining));
        curl_easy_setopt(h, CURLOPT_URL, url.c_str());
        curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
        curl_easy_setopt(h, CURLOPT_POST, 1L);
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, c.body.data());
        curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(c.body.size()));
        curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(remaining));
        curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, write_to_sink);
        curl_easy_setopt(h, CURLOPT_WRITEDATA, &sink);
        curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error_buffer);
        if (c.cancel) {
            curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
            curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, check_cancel);
            curl_easy_setopt(h, CURLOPT_XFERINFODATA, c.cancel);
        }
        const CURLcode rc = curl_easy_perform(h);

        Attempt attempt;
        if (rc == CURLE_OK) {
            attempt.outcome = Outcome::kAnswered;
            curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &attempt.http_status);
            attempt.text = std::move(sink.text);
        } else if (rc == CURLE_ABORTED_BY_CALLBACK && c.cancel && c.cancel->load()) {
            attempt.outcome = Outcome::kCancelled;
        } else if (rc == CURLE_WRITE_ERROR && sink.overflow) {
            attempt.outcome = Outcome::kTooLarge;
        } else {
            curl_off_t uploaded = 0;
            curl_easy_getinfo(h, CURLINFO_SIZE_UPLOAD_T, &uploaded);
            const bool not_sent = rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST ||
                                  rc == CURLE_COULDNT_RESOLVE_PROXY ||
                                  uploaded < static_cast<curl_off_t>(c.body.size());
            attempt.outcome = not_sent ? Outcome::kNotSent : Outcome::kMaybeSent;
            attempt.reason =
                describe_curl_failure(h, rc, error_buffer, static_cast<long>(remaining));
        }

        switch (attempt.outcome) {
            case Outcome::kAnswered: {
                set_preferred(index);
                int64_t code = 0;
                auto json = parse_reply(endpoint, c.path, attempt.http_status, attempt.text, &code);
                // UNAVAILABLE: this member has no leader or is stopping;
                // another member may serve an idempotent request.
                if (!json.is_ok() && code == 14 && c.idempotent && k + 1 < n) {
                    failures.push_back(fmt::format("{}: {}", endpoint, json.status().message()));
                    continue;
                }
                if (etcd_code) *etcd_code = code;
                if (!json.is_ok()) {
                    final.emplace(json.status());
                } else {
                    final.emplace(EtcdReply{std::move(json).value(), endpoint});
                }
                break;
            }
            case Outcome::kCancelled:
                final.emplace(Status::server(
                    fmt::format("etcd request {} to {} was cancelled", c.path, endpoint)));
                break;
            case Outcome::kTooLarge:
                final.emplace(
                    Status::server(fmt::format("etcd at {} sent a reply to {} larger than {} MiB",
                                               endpoint, c.path, kMaxReplyBytes >> 20)));
                break;
            case Outcome::kNotSent:
                failures.push_back(fmt::format("{}: {}", endpoint, attempt.reason));
                break;
            case Outcome::kMaybeSent:
                if (c.idempotent) {
                    failures.push_back(fmt::format("{}: {}", endpoint, attempt.reason));
                } else {
                    final.emplace(Status::server(fmt::format(
                        "etcd at {} did not answer {} ({}); it may or may not have been applied",
                        endpoint, c.path, attempt.reason)));
                }
                break;
        }
    }
    release(h);
    curl_slist_free_all(headers);
    if (final) return std::move(*final);
    if (failures.empty()) {
        return Status::server(
            fmt::format("etcd request {} timed out after {} ms", c.path, timeout.count()));
    }
    std::string message = "etcd is unreachable at " + failures[0];
    for (size_t i = 1; i < failures.size(); ++i)
        message += "; at " + failures[i];
    return Status::server(std::move(message));
}

}  // namespace tessel::cluster
