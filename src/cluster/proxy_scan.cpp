// StorageProxy: scans of a tablet's key range at a consistency level, and the
// repair of a key range.
#include "cluster/proxy_read.h"
#include "cluster/storage_proxy.h"
#include "storage/clustering_range.h"
#include "storage/store.h"

namespace tessel::cluster {
namespace {

// The partitions of a key range, fetched from the replicas in chunks of
// partitions, each with its first rows (a read of the partition that starts
// where those rows do continues from them).
class RemoteCursor final : public PartitionCursor {
  public:
    RemoteCursor(StorageProxy* proxy, ScanCommand command, std::vector<std::string> targets,
                 int block_for, const RequestOptions& options)
        : proxy_(proxy),
          command_(std::move(command)),
          targets_(std::move(targets)),
          block_for_(block_for),
          options_(options) {}

    bool next() override {
        if (!status_.is_ok()) return false;
        if (pos_ + 1 < partitions_.size()) {
            ++pos_;
            return true;
        }
        pos_ = partitions_.size();
        return false;
    }
    bool needs_fetch() const override {
        return status_.is_ok() && pos_ >= partitions_.size() && !exhausted_;
    }
    const std::string& partition_key() const override { return partitions_[pos_].key; }
    Status status() const override { return status_; }

    Task<Status> fetch() override {
        auto got = co_await fetch_chunk(/*check=*/true);
        if (!got.is_ok()) {
            status_ = got.status();
            co_return status_;
        }
        partitions_ = std::move(got->partitions);
        // next() moves to the first of them.
        pos_ = static_cast<size_t>(-1);
        exhausted_ = got->exhausted;
        if (!exhausted_ && !got->last_key.empty()) {
            command_.range.start_key = got->last_key;
            command_.range.start_inclusive = false;
        }
        co_return Status::ok();
    }

    Task<Result<std::unique_ptr<PartitionStream>>> read(const SliceSpec& slice) override {
        ScannedPartition& p = partitions_[pos_];
        ReadCommand c;
        c.table_id = command_.table_id;
        c.partition_key = p.key;
        c.slice = slice;
        c.now_seconds = command_.now_seconds;
        c.row_limit = options_.fetch_rows;
        auto stream =
            std::make_unique<RemoteStream>(proxy_, std::move(c), targets_, block_for_, options_);
        // The rows fetched with the partition serve a forward slice from the
        // partition's start; any other slice is read afresh.
        if (!slice.reversed && slice.start.prefix.empty()) {
            std::optional<storage::Row> static_row;
            if (slice.include_static) static_row = p.static_row;
            stream->seed(std::move(static_row), p.rows, p.exhausted);
            co_return std::unique_ptr<PartitionStream>(std::move(stream));
        }
        TESSEL_CO_RETURN_IF_ERROR(co_await stream->fetch());
        co_return std::unique_ptr<PartitionStream>(std::move(stream));
    }

  private:
    Task<Result<ScanResponse>> ask(const std::string& host, ScanCommand command) {
        if (host == proxy_->options().self) co_return proxy_->local().scan(command);
        MessagingResult r =
            co_await proxy_->send(host, ReplicaVerb::kScan, encode(command), options_.deadline);
        if (!r.is_ok()) co_return Status(r.status().code(), r.status().message());
        ScanResponse resp;
        TESSEL_CO_RETURN_IF_ERROR(decode(*r, &resp));
        co_return resp;
    }

    Task<Result<ScanResponse>> fetch_chunk(bool check) {
        const bool digests = check && targets_.size() > 1;
        std::vector<Task<Result<ScanResponse>>> asked;
        asked.push_back(ask(targets_[0], command_));
        if (digests) {
            ScanCommand d = command_;
            d.digest_only = true;
            for (size_t i = 1; i < targets_.size(); ++i)
                asked.push_back(ask(targets_[i], d));
        }
        std::vector<Result<ScanResponse>> answers;
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
        if (received < static_cast<int>(answers.size())) {
            if (failure.code() == ErrorCode::kServerError ||
                failure.code() == ErrorCode::kUnavailable) {
                co_return read_timeout(options_.consistency, received, block_for_,
                                       answers[0].is_ok());
            }
            co_return failure;
        }
        if (!digests) co_return std::move(answers[0]).value();
        const ScanResponse& data = *answers[0];
        RowDigest mine;
        for (const auto& p : data.partitions) {
            mine.add_partition(p.key);
            if (p.static_row) mine.add_row(*p.static_row, true);
            for (const auto& r : p.rows)
                mine.add_row(r, false);
            mine.add_bytes(p.exhausted ? "end" : "more");
        }
        mine.add_bytes(data.exhausted ? "end" : "more");
        const std::string expected = mine.finish();
        bool agree = true;
        for (size_t i = 1; i < answers.size(); ++i)
            agree = agree && answers[i]->digest == expected;
        if (agree) co_return std::move(answers[0]).value();
        // Repair the partitions the replicas read: up to the furthest key any
        // reached, or the end of the range when one of them reached it.
        storage::KeyRange repair = command_.range;
        bool to_end = false;
        std::string furthest;
        for (const auto& a : answers) {
            if (a->exhausted) to_end = true;
            if (!a->last_key.empty() && a->last_key > furthest) furthest = a->last_key;
        }
        if (!to_end && !furthest.empty()) {
            repair.end_key = furthest;
            repair.end_inclusive = true;
        }
        TESSEL_CO_RETURN_IF_ERROR(
            co_await proxy_->repair_range(command_.table_id, repair, targets_, options_.deadline));
        co_return co_await fetch_chunk(/*check=*/false);
    }

    StorageProxy* proxy_;
    ScanCommand command_;
    std::vector<std::string> targets_;
    int block_for_;
    RequestOptions options_;
    std::vector<ScannedPartition> partitions_;
    size_t pos_ = 0;
    bool exhausted_ = false;
    Status status_;
};

}  // namespace

Task<Result<std::unique_ptr<PartitionCursor>>> StorageProxy::scan(const std::string& table_id,
                                                                  const KeyRange& range,
                                                                  int64_t now_seconds,
                                                                  const Placement& placement,
                                                                  const RequestOptions& options) {
    int block_for = 1;
    TESSEL_CO_ASSIGN_OR_RETURN(auto targets,
                               read_targets(placement, options.consistency, &block_for));
    if (targets.size() == 1 && targets[0] == options_.self) {
        auto s = local_->store().scan_partitions(table_id, range, now_seconds);
        if (!s.is_ok()) co_return s.status();
        co_return make_local_cursor(std::move(s).value());
    }
    ScanCommand c;
    c.table_id = table_id;
    c.range = range;
    c.now_seconds = now_seconds;
    c.partition_limit = options_.scan_chunk_partitions;
    c.row_limit = options_.scan_chunk_rows;
    auto cursor =
        std::make_unique<RemoteCursor>(this, std::move(c), std::move(targets), block_for, options);
    TESSEL_CO_RETURN_IF_ERROR(co_await cursor->fetch());
    co_return std::unique_ptr<PartitionCursor>(std::move(cursor));
}

Task<Status> StorageProxy::repair_range(const std::string& table_id, const storage::KeyRange& range,
                                        const std::vector<std::string>& hosts,
                                        std::chrono::steady_clock::time_point deadline) {
    // Each host's partitions of the range, read in chunks; a chunk of every
    // host is exchanged before the next is read, so memory stays bounded.
    std::vector<storage::KeyRange> next(hosts.size(), range);
    std::vector<bool> done(hosts.size(), false);
    while (true) {
        std::vector<std::vector<storage::PartitionMutation>> held(hosts.size());
        bool any = false;
        for (size_t i = 0; i < hosts.size(); ++i) {
            if (done[i]) continue;
            any = true;
            RawScanCommand c;
            c.table_id = table_id;
            c.range = next[i];
            RawScanResponse r;
            if (hosts[i] == options_.self) {
                TESSEL_CO_ASSIGN_OR_RETURN(r, local_->scan_raw(c));
            } else {
                MessagingResult got =
                    co_await send(hosts[i], ReplicaVerb::kScanRaw, encode(c), deadline);
                if (!got.is_ok()) co_return Status(got.status().code(), got.status().message());
                TESSEL_CO_RETURN_IF_ERROR(decode(*got, &r));
            }
            done[i] = r.exhausted || r.partitions.empty();
            if (!r.last_key.empty()) {
                next[i].start_key = r.last_key;
                next[i].start_inclusive = false;
            }
            held[i] = std::move(r.partitions);
        }
        if (!any) co_return Status::ok();
        TESSEL_CO_RETURN_IF_ERROR(co_await exchange(table_id, held, hosts, deadline));
    }
}

}  // namespace tessel::cluster
