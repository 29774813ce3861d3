// StreamingService: copies a table's key range from one node to another as
// SST files (Store::export_range / ingest_range, storage/range_files.h),
// the data step of a tablet replica move, and drops a range a node no
// longer owns (Store::delete_range).
//
// stream(source, target, ...) may be called on any node (the coordinator):
//   coordinator -> source  kStreamRange: the source does the rest and answers
//                          when the target has ingested the files (a source
//                          that is the coordinator does it in-process)
//   source                 exports the range into <directory>/out-<session>
//   source -> target       kStreamFiles: the manifest (each file's family
//                          and size); the target opens <directory>/in-<session>
//   source -> target       kStreamChunk per chunk_bytes of each file, in
//                          order, one at a time, each with its own deadline
//                          and XXH3-64 checksum, throttled by the node's
//                          outbound limiter (stream_throughput_outbound_
//                          megabits_per_sec, shared by every stream it sends)
//   source -> target       kStreamEnd: the checksum of each whole file; the
//                          target checks sizes and checksums, fsyncs and
//                          ingests the files (merge operands: cells it holds
//                          already keep the newest version)
// A failure anywhere fails the stream: the source removes its files and
// tells the target (one-way kStreamEnd without commit), the target removes
// its staging directory on any error it sees, and a session that hears
// nothing for session_idle_timeout_ms (its source died) is removed. The
// directory is emptied when the service starts (left-overs of a crash).
// Streaming again after a failure is safe: ingestion merges.
//
// Blocking work (export, file reads and writes, ingestion, delete_range)
// runs on the service's own threads, never on messaging's io threads.
// Every method may be called from any thread; never block an event loop on
// the returned Tasks.
#pragma once

#include <asio.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "cluster/membership.h"
#include "cluster/messaging_service.h"
#include "cluster/rate_limiter.h"
#include "cluster/streaming_messages.h"
#include "common/status.h"
#include "common/task.h"
#include "storage/range_files.h"

namespace tessel::storage {
class Store;
}

namespace tessel::cluster {

struct StreamingOptions {
    std::string self;       // this node's host id
    std::string directory;  // temporary and staging files: <data_dir>/streaming
    // Cassandra's stream_throughput_outbound_megabits_per_sec: what this
    // node sends, all streams together (1 megabit = 125,000 bytes); 0: no limit.
    uint64_t throughput_megabits_per_sec = 200;
    size_t chunk_bytes = 1u << 20;
    uint64_t max_file_bytes = 64ull << 20;  // of each exported file
    int message_timeout_ms = 60000;         // each message's own deadline (within the stream's)
    int session_idle_timeout_ms = 120000;   // a target drops a session silent that long
    int threads = 2;                        // for blocking storage work
};

// What this node did: streams_* count stream() calls it coordinated, bytes_sent
// what it sent as a source, bytes_received / files_ingested what it took as a
// target, ranges_dropped the delete_range it ran.
struct StreamingStats {
    uint64_t streams_started = 0;
    uint64_t streams_done = 0;
    uint64_t streams_failed = 0;
    uint64_t bytes_sent = 0;
    uint64_t bytes_received = 0;
    uint64_t files_ingested = 0;
    uint64_t ranges_dropped = 0;
    uint64_t sessions_received = 0;  // streams this node was the target of
    uint64_t sessions_active = 0;    // of those, still open
};

class StreamingService {
  public:
    // Every pointer must outlive the service. Empties options.directory.
    StreamingService(StreamingOptions options, Membership* membership, MessagingService* messaging,
                     storage::Store* store);
    // Stops the streams this node sends at their next chunk (they fail),
    // waits for them and for the handlers in flight, then removes every
    // staging directory. Call before messaging stops; requests that arrive
    // later are refused.
    ~StreamingService();

    StreamingService(const StreamingService&) = delete;
    StreamingService& operator=(const StreamingService&) = delete;

    // Registers the handlers of verbs 12..16 (before messaging starts).
    Status register_handlers(MessagingService& messaging);

    // Copies the records of table_id in `range` from source_host to
    // target_host (host ids as in membership); see above. An empty range
    // is OK. Invalid when source and target are the same node.
    Task<Status> stream(const std::string& source_host, const std::string& target_host,
                        const std::string& table_id, const storage::RecordRange& range,
                        std::chrono::steady_clock::time_point deadline);
    // Asks `host` (possibly this node) to Store::delete_range the range.
    Task<Status> drop_range(const std::string& host, const std::string& table_id,
                            const storage::RecordRange& range,
                            std::chrono::steady_clock::time_point deadline);
    StreamingStats stats() const;

    const std::string& directory() const { return options_.directory; }

  private:
    using Clock = std::chrono::steady_clock;
    struct Gate;
    struct InSession;
    struct Exported;
    class PoolExecutor;

    // Handlers: each holds the gate while it runs; blocking ones run `fn`
    // on the service's threads.
    static Task<Result<std::string>> guarded(std::shared_ptr<Gate> gate,
                                             std::function<Task<Result<std::string>>()> serve);
    template <class Msg>
    Handler blocking_handler(Result<std::string> (StreamingService::*fn)(const Msg&));
    template <class Msg>
    Task<Result<std::string>> serve_blocking(
        Result<std::string> (StreamingService::*fn)(const Msg&), std::string payload);
    Task<Result<std::string>> serve_stream_range(std::string payload);
    Result<std::string> drop_range_here(const DropRangeRequest& r);

    Task<Status> coordinate(std::string source, StreamRangeRequest request,
                            Clock::time_point deadline);
    // The source's side of a stream: export, send, end.
    Task<Result<StreamSummary>> send_range(StreamRangeRequest request, Clock::time_point deadline);
    Task<Result<StreamSummary>> send_files(const std::string& session, const PeerAddress& to,
                                           const std::string& table_id, const Exported& exported,
                                           Clock::time_point deadline);
    Task<void> sleep_for(std::chrono::nanoseconds d);
    // The target's side.
    Result<std::string> open_session(const StreamManifest& m);
    Result<std::string> write_chunk(const StreamChunk& c);
    Result<std::string> end_session(const StreamEnd& e);
    std::shared_ptr<InSession> find_session(const std::string& id);
    // Removes a session and its staging directory (a failure or an abort).
    void drop_session(const std::string& id);
    // Drops sessions whose source went silent.
    void sweep_loop();
    void drop_all_sessions();

    Result<PeerAddress> address_of(const std::string& host) const;
    Clock::time_point message_deadline(Clock::time_point stream_deadline) const;

    StreamingOptions options_;
    Membership* membership_;
    MessagingService* messaging_;
    storage::Store* store_;
    RateLimiter limiter_;
    std::shared_ptr<Gate> gate_;
    asio::thread_pool pool_;
    std::unique_ptr<PoolExecutor> executor_;

    mutable std::mutex sessions_mu_;
    std::condition_variable sweep_cv_;
    bool stopping_ = false;  // under sessions_mu_
    std::map<std::string, std::shared_ptr<InSession>> sessions_;
    std::thread sweeper_;

    std::atomic<uint64_t> streams_started_{0}, streams_done_{0}, streams_failed_{0};
    std::atomic<uint64_t> bytes_sent_{0}, bytes_received_{0}, files_ingested_{0};
    std::atomic<uint64_t> ranges_dropped_{0}, sessions_received_{0};
};

}  // namespace tessel::cluster
