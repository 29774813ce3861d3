// StreamingService (see streaming.h): construction, handlers, the
// coordinator's side and the source's; the target's is streaming_target.cpp.
#include "cluster/streaming.h"

#include <spdlog/spdlog.h>
#include <xxhash.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <random>

#include "cluster/node_record.h"
#include "cluster/streaming_files.h"
#include "storage/store.h"

namespace tessel::cluster {

namespace fs = std::filesystem;

// Counts the streams and handlers running here; the destructor closes it
// and waits until none is left. Handlers hold it, not the service, so one
// that arrives after the service is gone is refused without touching it.
struct StreamingService::Gate {
    std::mutex mu;
    std::condition_variable cv;
    int active = 0;
    bool closed = false;

    bool enter() {
        std::lock_guard lock(mu);
        if (closed) return false;
        ++active;
        return true;
    }
    void leave() {
        std::lock_guard lock(mu);
        if (--active == 0) cv.notify_all();
    }
    bool is_closed() {
        std::lock_guard lock(mu);
        return closed;
    }
    void close_and_wait() {
        std::unique_lock lock(mu);
        closed = true;
        cv.wait(lock, [&] { return active == 0; });
    }
};

class StreamingService::PoolExecutor final : public Executor {
  public:
    explicit PoolExecutor(asio::thread_pool& pool) : pool_(pool) {}
    void post(std::function<void()> fn) override { asio::post(pool_, std::move(fn)); }

  private:
    asio::thread_pool& pool_;
};

namespace {

// Holds a gate entered for as long as it lives (when it could enter).
template <class G>
class GateEntry {
  public:
    explicit GateEntry(std::shared_ptr<G> gate) : gate_(std::move(gate)) {
        entered_ = gate_->enter();
    }
    ~GateEntry() {
        if (entered_) gate_->leave();
    }
    GateEntry(const GateEntry&) = delete;
    GateEntry& operator=(const GateEntry&) = delete;
    bool entered() const { return entered_; }

  private:
    std::shared_ptr<G> gate_;
    bool entered_ = false;
};

Status stopping() {
    return Status(ErrorCode::kUnavailable, "streaming is stopping on this node");
}

std::string short_host(const std::string& host) {
    return host_id_hex(host).substr(0, 8);
}

std::string new_session_id() {
    std::random_device rd;
    char out[33];
    std::snprintf(out, sizeof out, "%08x%08x%08x%08x", rd(), rd(), rd(), rd());
    return out;
}

// A failed request as a Status that says what was being done.
Status failed(const std::string& what, const MessagingResult& r) {
    return Status(r.status().code(), what + ": " + r.status().message());
}

Status check_range(const storage::RecordRange& range) {
    if (!range.end.empty() && range.end < range.start) {
        return Status::invalid("A range to stream or drop ends before it starts");
    }
    return Status::ok();
}

}  // namespace

// What export_range made, with each file's size.
struct StreamingService::Exported {
    storage::RangeFiles files;
    std::vector<std::string> paths;  // table files, then statistics files
    std::vector<StreamFile> manifest;
};

StreamingService::StreamingService(StreamingOptions options, Membership* membership,
                                   MessagingService* messaging, storage::Store* store)
    : options_(std::move(options)),
      membership_(membership),
      messaging_(messaging),
      store_(store),
      limiter_(RateLimiter::megabits_to_bytes(options_.throughput_megabits_per_sec),
               std::max<uint64_t>(options_.chunk_bytes, 1)),
      gate_(std::make_shared<Gate>()),
      pool_(static_cast<size_t>(std::max(1, options_.threads))),
      executor_(std::make_unique<PoolExecutor>(pool_)) {
    options_.chunk_bytes = std::max<size_t>(options_.chunk_bytes, 1);
    // Left-overs of streams cut short by a crash.
    std::error_code ec;
    size_t left = 0;
    for (const auto& e : fs::directory_iterator(options_.directory, ec)) {
        remove_tree(e.path().string());
        ++left;
    }
    if (left > 0) spdlog::info("removed {} left-over streaming directories", left);
    fs::create_directories(options_.directory, ec);
    if (ec) spdlog::error("cannot create {}: {}", options_.directory, ec.message());
    sweeper_ = std::thread([this] { sweep_loop(); });
}

StreamingService::~StreamingService() {
    gate_->close_and_wait();
    {
        std::lock_guard lock(sessions_mu_);
        stopping_ = true;
    }
    sweep_cv_.notify_all();
    sweeper_.join();
    pool_.join();
    drop_all_sessions();
}

StreamingStats StreamingService::stats() const {
    StreamingStats s;
    s.streams_started = streams_started_;
    s.streams_done = streams_done_;
    s.streams_failed = streams_failed_;
    s.bytes_sent = bytes_sent_;
    s.bytes_received = bytes_received_;
    s.files_ingested = files_ingested_;
    s.ranges_dropped = ranges_dropped_;
    s.sessions_received = sessions_received_;
    {
        std::lock_guard lock(sessions_mu_);
        s.sessions_active = sessions_.size();
    }
    return s;
}

// ---- Handlers ----

Task<Result<std::string>> StreamingService::guarded(
    std::shared_ptr<Gate> gate, std::function<Task<Result<std::string>>()> serve) {
    GateEntry entry(std::move(gate));
    if (!entry.entered()) co_return stopping();
    co_return co_await serve();
}

template <class Msg>
Task<Result<std::string>> StreamingService::serve_blocking(
    Result<std::string> (StreamingService::*fn)(const Msg&), std::string payload) {
    Msg m;
    TESSEL_CO_RETURN_IF_ERROR(decode(payload, &m));
    co_return co_await run_on(executor_.get(), [&] { return (this->*fn)(m); });
}

template <class Msg>
Handler StreamingService::blocking_handler(
    Result<std::string> (StreamingService::*fn)(const Msg&)) {
    return [gate = gate_, this, fn](const InboundContext&, std::string payload) {
        return guarded(gate, [this, fn, p = std::move(payload)]() mutable {
            return serve_blocking<Msg>(fn, std::move(p));
        });
    };
}

Status StreamingService::register_handlers(MessagingService& m) {
    auto v = [](StreamingVerb verb) { return static_cast<Verb>(verb); };
    TESSEL_RETURN_IF_ERROR(
        m.register_handler(v(StreamingVerb::kStreamRange),
                           [gate = gate_, this](const InboundContext&, std::string payload) {
                               return guarded(gate, [this, p = std::move(payload)]() mutable {
                                   return serve_stream_range(std::move(p));
                               });
                           }));
    TESSEL_RETURN_IF_ERROR(m.register_handler(v(StreamingVerb::kStreamFiles),
                                              blocking_handler(&StreamingService::open_session)));
    TESSEL_RETURN_IF_ERROR(m.register_handler(v(StreamingVerb::kStreamChunk),
                                              blocking_handler(&StreamingService::write_chunk)));
    TESSEL_RETURN_IF_ERROR(m.register_handler(v(StreamingVerb::kStreamEnd),
                                              blocking_handler(&StreamingService::end_session)));
    return m.register_handler(v(StreamingVerb::kDropRange),
                              blocking_handler(&StreamingService::drop_range_here));
}

Task<Result<std::string>> StreamingService::serve_stream_range(std::string payload) {
    StreamRangeRequest request;
    TESSEL_CO_RETURN_IF_ERROR(decode(payload, &request));
    const auto deadline = Clock::now() + std::chrono::milliseconds(request.timeout_ms);
    auto sent = co_await send_range(std::move(request), deadline);
    if (!sent.is_ok()) co_return std::move(sent).status();
    co_return encode(*sent);
}

Result<std::string> StreamingService::drop_range_here(const DropRangeRequest& r) {
    TESSEL_RETURN_IF_ERROR(check_range(r.range));
    TESSEL_RETURN_IF_ERROR(store_->delete_range(r.table_id, r.range));
    ++ranges_dropped_;
    return std::string();
}

// ---- Coordinator ----

Task<Status> StreamingService::stream(const std::string& source_host,
                                      const std::string& target_host, const std::string& table_id,
                                      const storage::RecordRange& range,
                                      std::chrono::steady_clock::time_point deadline) {
    StreamRangeRequest request;
    request.table_id = table_id;
    request.range = range;
    request.target = target_host;
    // Copies: the arguments need not outlive the first suspension.
    const std::string source = source_host, target = target_host, table = table_id;
    GateEntry entry(gate_);
    if (!entry.entered()) co_return stopping();
    ++streams_started_;
    Status st = co_await coordinate(source, std::move(request), deadline);
    if (st.is_ok()) {
        ++streams_done_;
    } else {
        ++streams_failed_;
        st = Status(st.code(), "Cannot stream a range of " + table + " from " + short_host(source) +
                                   " to " + short_host(target) + ": " + st.message());
    }
    co_return st;
}

Task<Status> StreamingService::coordinate(std::string source, StreamRangeRequest request,
                                          Clock::time_point deadline) {
    if (source == request.target) co_return Status::invalid("source and target are the same node");
    TESSEL_CO_RETURN_IF_ERROR(check_range(request.range));
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) co_return Status::server("the deadline passed before the stream began");
    request.timeout_ms = static_cast<uint32_t>(std::min<int64_t>(left.count(), UINT32_MAX));
    if (source == options_.self) {
        auto sent = co_await send_range(std::move(request), deadline);
        co_return sent.is_ok() ? Status::ok() : std::move(sent).status();
    }
    auto to = address_of(source);
    if (!to.is_ok()) co_return to.status();
    auto reply = co_await messaging_->request(*to, static_cast<Verb>(StreamingVerb::kStreamRange),
                                              encode(request), deadline);
    if (!reply.is_ok()) co_return failed("the source", reply);
    StreamSummary summary;
    co_return decode(*reply, &summary);
}

Task<Status> StreamingService::drop_range(const std::string& host, const std::string& table_id,
                                          const storage::RecordRange& range,
                                          std::chrono::steady_clock::time_point deadline) {
    DropRangeRequest request;
    request.table_id = table_id;
    request.range = range;
    const std::string target = host;
    GateEntry entry(gate_);
    if (!entry.entered()) co_return stopping();
    TESSEL_CO_RETURN_IF_ERROR(check_range(request.range));
    if (target == options_.self) {
        auto done = co_await run_on(executor_.get(), [&] { return drop_range_here(request); });
        co_return done.is_ok() ? Status::ok() : std::move(done).status();
    }
    auto to = address_of(target);
    if (!to.is_ok()) co_return to.status();
    auto reply = co_await messaging_->request(*to, static_cast<Verb>(StreamingVerb::kDropRange),
                                              encode(request), deadline);
    if (!reply.is_ok()) {
        co_return failed("Cannot drop a range of " + request.table_id + " on " + short_host(target),
                         reply);
    }
    co_return Status::ok();
}

// ---- Source ----

Task<Result<StreamSummary>> StreamingService::send_range(StreamRangeRequest request,
                                                         Clock::time_point deadline) {
    if (request.target == options_.self) {
        co_return Status::invalid("source and target are the same node");
    }
    auto to = address_of(request.target);
    if (!to.is_ok()) co_return to.status();
    const std::string session = new_session_id();
    const std::string dir = (fs::path(options_.directory) / ("out-" + session)).string();
    auto exported = co_await run_on(executor_.get(), [&]() -> Result<Exported> {
        TESSEL_ASSIGN_OR_RETURN(auto files, store_->export_range(request.table_id, request.range,
                                                                 dir, options_.max_file_bytes));
        Exported e;
        for (int stats = 0; stats < 2; ++stats) {
            for (const auto& path : stats ? files.stats_files : files.table_files) {
                std::error_code ec;
                const uint64_t size = fs::file_size(path, ec);
                if (ec) return Status::server("Cannot read the size of " + path);
                e.paths.push_back(path);
                StreamFile f;
                f.stats = stats == 1;
                f.size = size;
                e.manifest.push_back(f);
            }
        }
        e.files = std::move(files);
        return e;
    });
    Result<StreamSummary> out = StreamSummary{};
    if (!exported.is_ok()) {
        out = exported.status();
    } else if (!exported->paths.empty()) {
        out = co_await send_files(session, *to, request.table_id, *exported, deadline);
        if (!out.is_ok()) {
            StreamEnd abort;
            abort.session_id = session;
            messaging_->send(*to, static_cast<Verb>(StreamingVerb::kStreamEnd), encode(abort));
        }
    }
    co_await run_on(executor_.get(), [&] {
        remove_tree(dir);
        return 0;
    });
    co_return out;
}

Task<Result<StreamSummary>> StreamingService::send_files(const std::string& session,
                                                         const PeerAddress& to,
                                                         const std::string& table_id,
                                                         const Exported& exported,
                                                         Clock::time_point deadline) {
    StreamManifest manifest;
    manifest.session_id = session;
    manifest.table_id = table_id;
    manifest.files = exported.manifest;
    auto opened = co_await messaging_->request(to, static_cast<Verb>(StreamingVerb::kStreamFiles),
                                               encode(manifest), message_deadline(deadline));
    if (!opened.is_ok()) co_return failed("the target refused the stream", opened);

    StreamEnd end;
    end.session_id = session;
    end.commit = true;
    std::unique_ptr<XXH3_state_t, XXH_errorcode (*)(XXH3_state_t*)> hash(XXH3_createState(),
                                                                         XXH3_freeState);
    for (size_t i = 0; i < exported.paths.size(); ++i) {
        const std::string& path = exported.paths[i];
        const uint64_t size = exported.manifest[i].size;
        XXH3_64bits_reset(hash.get());
        for (uint64_t offset = 0; offset < size;) {
            const size_t n =
                static_cast<size_t>(std::min<uint64_t>(options_.chunk_bytes, size - offset));
            auto data =
                co_await run_on(executor_.get(), [&] { return read_file_chunk(path, offset, n); });
            if (!data.is_ok()) co_return data.status();
            XXH3_64bits_update(hash.get(), data->data(), data->size());
            StreamChunk chunk;
            chunk.session_id = session;
            chunk.file = static_cast<uint32_t>(i);
            chunk.offset = offset;
            chunk.checksum = XXH3_64bits(data->data(), data->size());
            chunk.data = std::move(*data);
            // A node shutting down stops its streams at the next chunk.
            if (gate_->is_closed()) co_return stopping();
            const auto wait = limiter_.acquire(n);
            if (wait.count() > 0) co_await sleep_for(wait);
            if (Clock::now() >= deadline) co_return Status::server("the stream's deadline passed");
            auto sent =
                co_await messaging_->request(to, static_cast<Verb>(StreamingVerb::kStreamChunk),
                                             encode(chunk), message_deadline(deadline));
            if (!sent.is_ok()) co_return failed("sending a chunk to the target", sent);
            bytes_sent_ += n;
            offset += n;
        }
        end.checksums.push_back(XXH3_64bits_digest(hash.get()));
    }
    auto ended = co_await messaging_->request(to, static_cast<Verb>(StreamingVerb::kStreamEnd),
                                              encode(end), message_deadline(deadline));
    if (!ended.is_ok()) co_return failed("the target could not ingest the files", ended);
    StreamSummary summary;
    TESSEL_CO_RETURN_IF_ERROR(decode(*ended, &summary));
    summary.records = exported.files.records;
    co_return summary;
}

Task<void> StreamingService::sleep_for(std::chrono::nanoseconds d) {
    auto timer = std::make_shared<asio::steady_timer>(pool_.get_executor(), d);
    Completion<int> done;
    timer->async_wait([done, timer](const asio::error_code&) mutable { done.set(0); });
    co_await done.wait();
}

// ---- Helpers ----

Result<PeerAddress> StreamingService::address_of(const std::string& host) const {
    auto view = membership_->view();
    const NodeInfo* node = view->node(host);
    if (!node) return Status(ErrorCode::kUnavailable, "unknown node " + short_host(host));
    return PeerAddress{node->listen_address, node->storage_port};
}

StreamingService::Clock::time_point StreamingService::message_deadline(
    Clock::time_point stream_deadline) const {
    return std::min(stream_deadline,
                    Clock::now() + std::chrono::milliseconds(options_.message_timeout_ms));
}

}  // namespace tessel::cluster
