#include "cluster/etcd_watch.h"

#include <curl/curl.h>
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

#include "cluster/etcd_json.h"
#include "cluster/etcd_transport.h"

namespace tessel::cluster {

using etcd_json::Json;
using std::chrono::milliseconds;

struct EtcdWatch::State {
    std::shared_ptr<EtcdTransport> transport;
    std::string prefix;
    Callback callback;

    std::atomic<int64_t> next_revision{0};
    std::atomic<bool> established{false};
    std::atomic<bool> stopped{false};

    mutable std::mutex mu;
    std::condition_variable cv;
    bool stop = false;       // guarded by mu
    CURLM* multi = nullptr;  // guarded by mu: valid while set
    Status last_error;       // guarded by mu

    bool stopping() {
        std::lock_guard lock(mu);
        return stop;
    }
    void set_error(Status s) {
        std::lock_guard lock(mu);
        last_error = std::move(s);
    }
};

namespace {

using State = EtcdWatch::State;

// How one stream ended.
enum class StreamEnd { kStopped, kCompacted, kBroken };

size_t feed_splitter(char* data, size_t size, size_t count, void* user) {
    auto* splitter = static_cast<etcd_json::ObjectSplitter*>(user);
    size_t n = size * count;
    // A stream that is not a sequence of JSON objects is abandoned.
    return splitter->feed(std::string_view(data, n)) ? n : 0;
}

// Handles one message of the stream. Returns nullopt to keep reading.
std::optional<StreamEnd> handle_message(State& st, std::string_view endpoint,
                                        const std::string& text) {
    Json json = Json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (json.is_discarded() || !json.is_object()) {
        st.set_error(Status::server(fmt::format(
            "etcd at {} sent a malformed watch message (not a JSON object)", endpoint)));
        return StreamEnd::kBroken;
    }
    if (auto error = etcd_json::read_error(json)) {
        st.set_error(Status::server(
            fmt::format("etcd at {} ended the watch: {}", endpoint, error->message)));
        return StreamEnd::kBroken;
    }
    const Json* result = etcd_json::member(json, "result");
    auto malformed = [&](std::string_view what) {
        st.set_error(Status::server(
            fmt::format("etcd at {} sent a malformed watch message: {}", endpoint, what)));
        return StreamEnd::kBroken;
    };
    if (!result || !result->is_object()) return malformed("no \"result\"");
    int64_t revision = 0, compact_revision = 0;
    bool created = false, canceled = false;
    if (!etcd_json::read_header_revision(*result, &revision) ||
        !etcd_json::read_bool(*result, "created", &created) ||
        !etcd_json::read_bool(*result, "canceled", &canceled) ||
        !etcd_json::read_int64(*result, "compact_revision", &compact_revision)) {
        return malformed("bad header or flags");
    }
    if (compact_revision > 0) {
        WatchBatch batch;
        batch.revision = revision;
        batch.compacted = true;
        batch.compact_revision = compact_revision;
        st.stopped.store(true);
        st.set_error(Status::server(
            fmt::format("etcd compacted revision {} the watch of '{}' needed (compacted up to {})",
                        st.next_revision.load(), st.prefix, compact_revision)));
        st.callback(batch);
        return StreamEnd::kCompacted;
    }
    if (canceled) {
        std::string reason;
        if (const Json* r = etcd_json::member(*result, "cancel_reason"); r && r->is_string()) {
            reason = r->get<std::string>();
        }
        st.set_error(Status::server(fmt::format("etcd at {} canceled the watch: {}", endpoint,
                                                reason.empty() ? "no reason given" : reason)));
        return StreamEnd::kBroken;
    }
    if (created) {
        // A watch from "now" starts right after the revision its creation
        // reports: resuming from there loses nothing.
        if (st.next_revision.load() == 0) st.next_revision.store(revision + 1);
        st.established.store(true);
    }
    const Json* events = etcd_json::member(*result, "events");
    if (!events || events->is_null()) return std::nullopt;
    if (!events->is_array()) return malformed("\"events\" is not a list");
    WatchBatch batch;
    batch.revision = revision;
    const int64_t from = st.next_revision.load();
    int64_t last = 0;
    for (const Json& e : *events) {
        WatchEvent event;
        const Json* type = etcd_json::member(e, "type");
        if (type && type->is_string() && type->get_ref<const std::string&>() == "DELETE") {
            event.type = WatchEvent::Type::kDelete;
        } else if (type && !(type->is_string() && type->get_ref<const std::string&>() == "PUT") &&
                   !type->is_null()) {
            return malformed("unknown event type");
        }
        const Json* kv = etcd_json::member(e, "kv");
        auto read = kv ? etcd_json::read_key_value(*kv) : std::nullopt;
        if (!read || read->mod_revision <= 0) return malformed("bad event");
        if (read->mod_revision < last) return malformed("events out of revision order");
        last = read->mod_revision;
        if (read->mod_revision < from) continue;  // delivered before a reconnection
        event.kv = std::move(*read);
        batch.events.push_back(std::move(event));
    }
    if (batch.events.empty()) return std::nullopt;
    st.next_revision.store(batch.events.back().kv.mod_revision + 1);
    st.callback(batch);
    return std::nullopt;
}

// Opens one watch stream on `endpoint` and reads it until it ends.
StreamEnd stream_once(State& st, CURLM* multi, CURL* easy, const std::string& endpoint) {
    const auto& options = st.transport->options();
    Json create = Json::object();
    create["key"] = etcd_json::base64_encode(st.prefix);
    create["range_end"] = etcd_json::base64_encode(etcd_json::prefix_range_end(st.prefix));
    if (int64_t from = st.next_revision.load(); from > 0) {
        create["start_revision"] = std::to_string(from);
    }
    Json request = Json::object();
    request["create_request"] = std::move(create);
    const std::string body = request.dump();
    const std::string url = endpoint + "/v3/watch";

    etcd_json::ObjectSplitter splitter(EtcdTransport::kMaxReplyBytes);
    char error_buffer[CURL_ERROR_SIZE] = {0};
    curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
    headers = curl_slist_append(headers, "Expect:");
    curl_easy_reset(easy);
    set_common_curl_options(easy, options.connect_timeout_ms);
    curl_easy_setopt(easy, CURLOPT_URL, url.c_str());
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(easy, CURLOPT_POST, 1L);
    curl_easy_setopt(easy, CURLOPT_POSTFIELDS, body.data());
    curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, feed_splitter);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, &splitter);
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, error_buffer);
    curl_multi_add_handle(multi, easy);

    std::optional<StreamEnd> end;
    int running = 1;
    while (!end) {
        if (st.stopping()) {
            end = StreamEnd::kStopped;
            break;
        }
        curl_multi_perform(multi, &running);
        while (!end) {
            auto text = splitter.next();
            if (!text) break;
            end = handle_message(st, endpoint, *text);
            if (!end && st.stopping()) end = StreamEnd::kStopped;
        }
        if (end) break;
        if (!running) {
            CURLcode rc = CURLE_OK;
            int left = 0;
            while (CURLMsg* m = curl_multi_info_read(multi, &left)) {
                if (m->msg == CURLMSG_DONE) rc = m->data.result;
            }
            std::string why;
            if (splitter.failed()) {
                why = "the stream is not a sequence of JSON objects";
            } else if (rc != CURLE_OK) {
                why = describe_curl_failure(easy, rc, error_buffer, options.connect_timeout_ms);
            } else {
                long status = 0;
                curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
                why = status == 200 ? "the stream ended" : fmt::format("HTTP {}", status);
            }
            st.set_error(Status::server(fmt::format("etcd watch at {}: {}", endpoint, why)));
            end = StreamEnd::kBroken;
            break;
        }
        curl_multi_poll(multi, nullptr, 0, 1000, nullptr);
    }
    curl_multi_remove_handle(multi, easy);
    curl_slist_free_all(headers);
    return *end;
}

void run(std::shared_ptr<State> st) {
    CURLM* multi = curl_multi_init();
    CURL* easy = curl_easy_init();
    if (!multi || !easy) {
        st->set_error(Status::server("etcd watch: out of memory for the HTTP client"));
        if (easy) curl_easy_cleanup(easy);
        if (multi) curl_multi_cleanup(multi);
        return;
    }
    {
        std::lock_guard lock(st->mu);
        st->multi = multi;
    }
    const auto& endpoints = st->transport->options().endpoints;
    size_t index = st->transport->preferred() % endpoints.size();
    int failed_in_row = 0;
    for (;;) {
        const bool was_established = st->established.load();
        const int64_t before = st->next_revision.load();
        StreamEnd end = stream_once(*st, multi, easy, endpoints[index]);
        if (end != StreamEnd::kBroken) break;
        // A stream that got anywhere was a working endpoint: reconnect at
        // once (to the next one, in case this one is going away); after a
        // whole round of endpoints failing, back off.
        const bool progressed =
            st->next_revision.load() != before || (!was_established && st->established.load());
        failed_in_row = progressed ? 0 : failed_in_row + 1;
        index = (index + 1) % endpoints.size();
        milliseconds pause(20);
        if (failed_in_row > 0 && failed_in_row % static_cast<int>(endpoints.size()) == 0) {
            int rounds = failed_in_row / static_cast<int>(endpoints.size());
            pause = milliseconds(std::min(1000, 50 << std::min(rounds, 5)));
        }
        std::unique_lock lock(st->mu);
        if (st->cv.wait_for(lock, pause, [&] { return st->stop; })) break;
    }
    {
        std::lock_guard lock(st->mu);
        st->multi = nullptr;
    }
    curl_easy_cleanup(easy);
    curl_multi_cleanup(multi);
}

}  // namespace

EtcdWatch::EtcdWatch(std::shared_ptr<EtcdTransport> transport, std::string prefix,
                     int64_t start_revision, Callback callback)
    : state_(std::make_shared<State>()) {
    ensure_curl_initialized();
    state_->transport = std::move(transport);
    state_->prefix = std::move(prefix);
    state_->callback = std::move(callback);
    state_->next_revision.store(std::max<int64_t>(0, start_revision));
    thread_ = std::thread(run, state_);
}

EtcdWatch::~EtcdWatch() {
    {
        std::lock_guard lock(state_->mu);
        state_->stop = true;
        if (state_->multi) curl_multi_wakeup(state_->multi);
    }
    state_->cv.notify_all();
    if (thread_.get_id() == std::this_thread::get_id()) {
        thread_.detach();  // destroyed from its own callback
    } else if (thread_.joinable()) {
        thread_.join();
    }
}

int64_t EtcdWatch::next_revision() const {
    return state_->next_revision.load();
}

bool EtcdWatch::established() const {
    return state_->established.load();
}

bool EtcdWatch::stopped() const {
    return state_->stopped.load();
}

Status EtcdWatch::last_error() const {
    std::lock_guard lock(state_->mu);
    return state_->last_error;
}

}  // namespace tessel::cluster
