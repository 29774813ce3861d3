// StorageProxy: partition reads at a consistency level, with digests and
// blocking read repair, and the repair of a partition's range.
#include "cluster/proxy_read.h"

#include "cluster/storage_proxy.h"
#include "storage/clustering_range.h"
#include "storage/store.h"

namespace tessel::cluster {

// --- RemoteStream -------------------------------------------------------------

RemoteStream::RemoteStream(StorageProxy* proxy, ReadCommand command,
                           std::vector<std::string> targets, int block_for,
                           const RequestOptions& options)
    : proxy_(proxy),
      command_(std::move(command)),
      targets_(std::move(targets)),
      block_for_(block_for),
      options_(options) {
    if (command_.row_limit == 0) command_.row_limit = proxy_->options().read_chunk_rows;
}

void RemoteStream::seed(std::optional<storage::Row> static_row, std::vector<storage::Row> rows,
                        bool exhausted) {
    static_row_ = std::move(static_row);
    first_ = false;
    const storage::ClusteringInterval iv =
        storage::to_interval(command_.slice.start, command_.slice.end);
    for (auto& r : rows) {
        last_ = r.clustering;
        if (iv.contains(r.clustering)) rows_.push_back(std::move(r));
    }
    exhausted_ =
        exhausted || (!command_.slice.reversed && iv.hi && !last_.empty() && last_ >= *iv.hi);
    // A seed that ends before the slice does: more rows come after its last.
    if (!exhausted_ && !last_.empty()) advance_slice();
}

bool RemoteStream::next(storage::Row* out) {
    if (pos_ < rows_.size()) {
        *out = std::move(rows_[pos_++]);
        return true;
    }
    return false;
}

bool RemoteStream::needs_fetch() const {
    return status_.is_ok() && pos_ >= rows_.size() && !exhausted_;
}

void RemoteStream::advance_slice() {
    // The next chunk starts after the last row read (before it, reversed).
    if (command_.slice.reversed) {
        command_.slice.end = {last_, false};
    } else {
        command_.slice.start = {last_, false};
    }
    command_.slice.include_static = false;
    command_.slice.single_row = false;
    command_.slice.fill_cache = false;
}

Task<Result<ReadResponse>> RemoteStream::ask(const std::string& host, ReadCommand command) {
    if (host == proxy_->options().self) co_return proxy_->local().read(command);
    MessagingResult r =
        co_await proxy_->send(host, ReplicaVerb::kRead, encode(command), options_.deadline);
    if (!r.is_ok()) co_return Status(r.status().code(), r.status().message());
    ReadResponse resp;
    TESSEL_CO_RETURN_IF_ERROR(decode(*r, &resp));
    co_return resp;
}

Task<Status> RemoteStream::fetch() {
    auto got = co_await fetch_chunk(/*check=*/true);
    if (!got.is_ok()) {
        status_ = got.status();
        co_return status_;
    }
    ReadResponse& data = *got;
    if (first_) {
        static_row_ = std::move(data.static_row);
        first_ = false;
    }
    tombstones_ += data.tombstones;
    rows_ = std::move(data.rows);
    pos_ = 0;
    exhausted_ = data.exhausted;
    if (!rows_.empty()) last_ = rows_.back().clustering;
    if (!exhausted_) advance_slice();
    co_return Status::ok();
}

// The next chunk from the data replica, its digest checked against the other
// targets'. On a mismatch the chunk's range is repaired on every target and
// read again from the data replica.
Task<Result<ReadResponse>> RemoteStream::fetch_chunk(bool check) {
    const bool digests = check && targets_.size() > 1;
    std::vector<Task<Result<ReadResponse>>> asked;
    asked.push_back(ask(targets_[0], command_));
    if (digests) {
        ReadCommand d = command_;
        d.digest_only = true;
        for (size_t i = 1; i < targets_.size(); ++i)
            asked.push_back(ask(targets_[i], d));
    }
    std::vector<Result<ReadResponse>> answers;
    for (auto& a : asked)
        answers.push_back(co_await std::move(a));
    int received = 0;
    Status failure;
    for (const auto& a : answers) {
        if (a.is_ok()) {
            ++received;
        } else if (failure.is_ok()) {
            failure = a.status();
        }
    }
    if (!answers[0].is_ok() || received < static_cast<int>(answers.size())) {
        if (failure.code() == ErrorCode::kServerError ||
            failure.code() == ErrorCode::kUnavailable) {
            co_return read_timeout(options_.consistency, received, block_for_, answers[0].is_ok());
        }
        co_return failure;
    }
    if (!digests) co_return std::move(answers[0]).value();
    RowDigest mine;
    const ReadResponse& data = *answers[0];
    if (data.static_row) mine.add_row(*data.static_row, true);
    for (const auto& r : data.rows)
        mine.add_row(r, false);
    mine.add_bytes(data.exhausted ? "end" : "more");
    const std::string expected = mine.finish();
    bool agree = true;
    for (size_t i = 1; i < answers.size(); ++i)
        agree = agree && answers[i]->digest == expected;
    if (agree) co_return std::move(answers[0]).value();
    // Repair what the replicas read: up to the furthest row any of them
    // reached, or the end of the slice when one of them reached it.
    storage::ClusteringBound start = command_.slice.start;
    storage::ClusteringBound end = command_.slice.end;
    bool to_end = false;
    std::string furthest;
    for (const auto& a : answers) {
        if (a->exhausted) to_end = true;
        const std::string& last = a->last_clustering;
        if (last.empty()) continue;
        if (furthest.empty() || (command_.slice.reversed ? last < furthest : last > furthest)) {
            furthest = last;
        }
    }
    if (!to_end && !furthest.empty()) {
        if (command_.slice.reversed) {
            start = {furthest, true};
        } else {
            end = {furthest, true};
        }
    }
    TESSEL_CO_RETURN_IF_ERROR(co_await proxy_->repair_partition(
        command_.table_id, command_.partition_key, start, end, command_.slice.include_static,
        targets_, options_.deadline));
    co_return co_await fetch_chunk(/*check=*/false);
}

// --- StorageProxy: reads ------------------------------------------------------

Task<Result<std::unique_ptr<PartitionStream>>> StorageProxy::read(
    const std::string& table_id, const std::string& partition_key, const SliceSpec& slice,
    int64_t now_seconds, const Placement& placement, const RequestOptions& options) {
    int block_for = 1;
    TESSEL_CO_ASSIGN_OR_RETURN(auto targets,
                               read_targets(placement, options.consistency, &block_for));
    if (targets.size() == 1 && targets[0] == options_.self) {
        // Served here: the local stream, no copy, no chunks.
        auto r = local_->store().read_partition(table_id, partition_key, slice, now_seconds);
        if (!r.is_ok()) co_return r.status();
        co_return make_local_stream(std::move(r).value());
    }
    ReadCommand c;
    c.table_id = table_id;
    c.partition_key = partition_key;
    c.slice = slice;
    c.now_seconds = now_seconds;
    c.row_limit = options.fetch_rows;
    auto stream =
        std::make_unique<RemoteStream>(this, std::move(c), std::move(targets), block_for, options);
    TESSEL_CO_RETURN_IF_ERROR(co_await stream->fetch());
    co_return std::unique_ptr<PartitionStream>(std::move(stream));
}

Task<Status> StorageProxy::repair_partition(
    const std::string& table_id, const std::string& partition_key,
    const storage::ClusteringBound& start, const storage::ClusteringBound& end, bool include_static,
    const std::vector<std::string>& hosts, std::chrono::steady_clock::time_point deadline) {
    RawReadCommand c;
    c.table_id = table_id;
    c.partition_key = partition_key;
    c.start = start;
    c.end = end;
    c.include_static = include_static;
    const std::string payload = encode(c);
    std::vector<std::vector<storage::PartitionMutation>> held(hosts.size());
    std::vector<Task<MessagingResult>> asked;
    for (const auto& h : hosts) {
        if (h == options_.self) continue;
        asked.push_back(send(h, ReplicaVerb::kReadRaw, payload, deadline));
    }
    size_t next = 0;
    for (size_t i = 0; i < hosts.size(); ++i) {
        if (hosts[i] == options_.self) {
            TESSEL_CO_ASSIGN_OR_RETURN(auto m, local_->read_raw(c));
            held[i].push_back(std::move(m));
            continue;
        }
        Task<MessagingResult>& answer = asked[next];
        ++next;
        MessagingResult r = co_await std::move(answer);
        if (!r.is_ok()) co_return Status(r.status().code(), r.status().message());
        storage::PartitionMutation m;
        TESSEL_CO_RETURN_IF_ERROR(decode(*r, &m));
        held[i].push_back(std::move(m));
    }
    co_return co_await exchange(table_id, held, hosts, deadline);
}

Task<Status> StorageProxy::exchange(
    const std::string& table_id, const std::vector<std::vector<storage::PartitionMutation>>& held,
    const std::vector<std::string>& hosts, std::chrono::steady_clock::time_point deadline) {
    // What each replica holds goes to every other one: a write keeps the
    // later of every cell and deletion, so applying what a replica already
    // holds, or older data, changes nothing.
    std::vector<Task<MessagingResult>> sent;
    std::vector<MutationMessage> local;
    for (size_t to = 0; to < hosts.size(); ++to) {
        for (size_t from = 0; from < hosts.size(); ++from) {
            if (from == to) continue;
            for (const auto& m : held[from]) {
                if (m.rows.empty() && !m.static_row && m.range_tombstones.empty() &&
                    m.partition_deletion.is_live()) {
                    continue;
                }
                MutationMessage msg{table_id, m};
                if (hosts[to] == options_.self) {
                    local.push_back(std::move(msg));
                } else {
                    sent.push_back(send(hosts[to], ReplicaVerb::kMutation, encode(msg), deadline));
                }
            }
        }
    }
    Status first;
    for (const auto& m : local) {
        Status st = local_->apply(m);
        if (!st.is_ok() && first.is_ok()) first = st;
    }
    for (auto& t : sent) {
        MessagingResult r = co_await std::move(t);
        if (!r.is_ok() && first.is_ok()) first = Status(r.status().code(), r.status().message());
    }
    co_return first;
}

}  // namespace tessel::cluster
