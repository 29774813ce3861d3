// StreamingService's target side (see streaming.h): sessions that receive
// a stream's files into a staging directory and ingest them.
#include <spdlog/spdlog.h>
#include <xxhash.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "cluster/streaming.h"
#include "cluster/streaming_files.h"
#include "storage/store.h"

namespace tessel::cluster {

namespace fs = std::filesystem;

// A stream this node receives: its staging directory and each file's state.
struct StreamingService::InSession {
    struct File {
        bool stats = false;
        uint64_t size = 0;     // announced
        uint64_t written = 0;  // arrived
        std::string path;
        std::unique_ptr<XXH3_state_t, XXH_errorcode (*)(XXH3_state_t*)> hash{XXH3_createState(),
                                                                             XXH3_freeState};
    };
    std::mutex mu;
    std::string table_id;
    std::string dir;
    std::vector<File> files;
    Clock::time_point last_heard;
    bool closed = false;  // dropped: no more writes
};

namespace {

bool valid_session_id(const std::string& id) {
    return !id.empty() && id.size() <= 64 && std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    });
}

}  // namespace

Result<std::string> StreamingService::open_session(const StreamManifest& m) {
    if (!valid_session_id(m.session_id)) return Status::protocol("Bad streaming session id");
    if (!store_->has_table(m.table_id)) {
        return Status::invalid("Cannot receive a stream of unknown table " + m.table_id);
    }
    auto s = std::make_shared<InSession>();
    s->table_id = m.table_id;
    s->dir = (fs::path(options_.directory) / ("in-" + m.session_id)).string();
    s->last_heard = Clock::now();
    {
        std::lock_guard lock(sessions_mu_);
        if (stopping_) return Status(ErrorCode::kUnavailable, "streaming is stopping on this node");
        if (!sessions_.emplace(m.session_id, s).second) {
            return Status::invalid("Streaming session " + m.session_id + " exists already");
        }
    }
    ++sessions_received_;
    std::lock_guard lock(s->mu);
    Status st;
    std::error_code ec;
    fs::create_directories(s->dir, ec);
    if (ec) st = Status::server("Cannot create " + s->dir + ": " + ec.message());
    for (size_t i = 0; st.is_ok() && i < m.files.size(); ++i) {
        InSession::File f;
        f.stats = m.files[i].stats;
        f.size = m.files[i].size;
        char name[32];
        std::snprintf(name, sizeof name, "%s-%06zu.sst", f.stats ? "stats" : "table", i);
        f.path = (fs::path(s->dir) / name).string();
        XXH3_64bits_reset(f.hash.get());
        st = create_empty_file(f.path);
        s->files.push_back(std::move(f));
    }
    if (!st.is_ok()) {
        s->closed = true;
        remove_tree(s->dir);
        std::lock_guard l(sessions_mu_);
        sessions_.erase(m.session_id);
        return st;
    }
    return std::string();
}

std::shared_ptr<StreamingService::InSession> StreamingService::find_session(const std::string& id) {
    std::lock_guard lock(sessions_mu_);
    auto it = sessions_.find(id);
    return it == sessions_.end() ? nullptr : it->second;
}

void StreamingService::drop_session(const std::string& id) {
    std::shared_ptr<InSession> s;
    {
        std::lock_guard lock(sessions_mu_);
        auto it = sessions_.find(id);
        if (it == sessions_.end()) return;
        s = std::move(it->second);
        sessions_.erase(it);
    }
    std::lock_guard lock(s->mu);
    s->closed = true;
    remove_tree(s->dir);
}

Result<std::string> StreamingService::write_chunk(const StreamChunk& c) {
    auto s = find_session(c.session_id);
    if (!s) return Status::invalid("Unknown streaming session (expired or aborted)");
    Status st;
    {
        std::lock_guard lock(s->mu);
        if (s->closed) return Status::invalid("Unknown streaming session (expired or aborted)");
        s->last_heard = Clock::now();
        if (c.file >= s->files.size()) {
            st = Status::protocol("A streamed chunk names no file of its session");
        } else {
            InSession::File& f = s->files[c.file];
            if (c.offset != f.written || c.data.size() > f.size - f.written) {
                st = Status::protocol("A streamed chunk is out of order or past its file's size");
            } else if (XXH3_64bits(c.data.data(), c.data.size()) != c.checksum) {
                st = Status::protocol("A streamed chunk arrived corrupted (checksum mismatch)");
            } else {
                st = append_to_file(f.path, c.data);
                if (st.is_ok()) {
                    XXH3_64bits_update(f.hash.get(), c.data.data(), c.data.size());
                    f.written += c.data.size();
                    bytes_received_ += c.data.size();
                }
            }
        }
    }
    if (!st.is_ok()) {
        drop_session(c.session_id);
        return st;
    }
    return std::string();
}

Result<std::string> StreamingService::end_session(const StreamEnd& e) {
    std::shared_ptr<InSession> s;
    {
        std::lock_guard lock(sessions_mu_);
        auto it = sessions_.find(e.session_id);
        if (it != sessions_.end()) {
            s = std::move(it->second);
            sessions_.erase(it);
        }
    }
    if (!s) {
        if (!e.commit) return std::string();
        return Status::invalid("Unknown streaming session (expired or aborted)");
    }
    std::lock_guard lock(s->mu);
    s->closed = true;
    if (!e.commit) {
        remove_tree(s->dir);
        return std::string();
    }
    Status st;
    storage::RangeFiles files;
    StreamSummary summary;
    if (e.checksums.size() != s->files.size()) {
        st = Status::protocol("A stream ended with checksums for another number of files");
    }
    for (size_t i = 0; st.is_ok() && i < s->files.size(); ++i) {
        const InSession::File& f = s->files[i];
        if (f.written != f.size) {
            st = Status::server("A streamed file is incomplete: " + std::to_string(f.written) +
                                " of " + std::to_string(f.size) + " bytes arrived");
        } else if (XXH3_64bits_digest(f.hash.get()) != e.checksums[i]) {
            st = Status::server("A streamed file arrived corrupted (checksum mismatch)");
        } else {
            st = sync_file(f.path);
            (f.stats ? files.stats_files : files.table_files).push_back(f.path);
            files.bytes += f.size;
            ++summary.files;
        }
    }
    if (st.is_ok()) st = store_->ingest_range(s->table_id, files);
    remove_tree(s->dir);
    if (!st.is_ok()) return st;
    files_ingested_ += summary.files;
    summary.bytes = files.bytes;
    return encode(summary);
}

void StreamingService::sweep_loop() {
    const auto idle = std::chrono::milliseconds(std::max(1, options_.session_idle_timeout_ms));
    const auto period = std::clamp<std::chrono::milliseconds>(
        idle / 4, std::chrono::milliseconds(10), std::chrono::milliseconds(1000));
    std::unique_lock lock(sessions_mu_);
    while (!stopping_) {
        sweep_cv_.wait_for(lock, period, [&] { return stopping_; });
        if (stopping_) break;
        std::vector<std::string> expired;
        const auto now = Clock::now();
        for (const auto& [id, s] : sessions_) {
            std::unique_lock session_lock(s->mu, std::try_to_lock);
            if (session_lock.owns_lock() && now - s->last_heard > idle) expired.push_back(id);
        }
        lock.unlock();
        for (const auto& id : expired) {
            spdlog::warn("dropping streaming session {}: its source went silent", id);
            drop_session(id);
        }
        lock.lock();
    }
}

void StreamingService::drop_all_sessions() {
    std::map<std::string, std::shared_ptr<InSession>> sessions;
    {
        std::lock_guard lock(sessions_mu_);
        sessions.swap(sessions_);
    }
    for (const auto& [_, s] : sessions) {
        std::lock_guard lock(s->mu);
        s->closed = true;
        remove_tree(s->dir);
    }
}

}  // namespace tessel::cluster
