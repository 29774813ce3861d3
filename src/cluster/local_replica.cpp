#include <functional>
#include <mutex>

#include "cluster/replica.h"
#include "storage/store.h"

namespace tessel::cluster {
namespace {

class LocalStream final : public PartitionStream {
  public:
    explicit LocalStream(std::unique_ptr<storage::PartitionReader> r) : r_(std::move(r)) {}
    const std::string& partition_key() const override { return r_->partition_key(); }
    const std::optional<storage::Row>& static_row() const override { return r_->static_row(); }
    bool next(storage::Row* out) override { return r_->next(out); }
    Status status() const override { return r_->status(); }
    uint64_t tombstones_scanned() const override { return r_->tombstones_scanned(); }

  private:
    std::unique_ptr<storage::PartitionReader> r_;
};

class LocalCursor final : public PartitionCursor {
  public:
    explicit LocalCursor(std::unique_ptr<storage::PartitionScanner> s) : s_(std::move(s)) {}
    bool next() override { return s_->next(); }
    const std::string& partition_key() const override { return s_->partition_key(); }
    Task<Result<std::unique_ptr<PartitionStream>>> read(const SliceSpec& slice) override {
        auto r = s_->read(slice);
        if (!r.is_ok()) co_return std::move(r).status();
        co_return std::unique_ptr<PartitionStream>(new LocalStream(std::move(r).value()));
    }
    Status status() const override { return s_->status(); }

  private:
    std::unique_ptr<storage::PartitionScanner> s_;
};

class LocalReplica final : public Replica {
  public:
    explicit LocalReplica(storage::Store* store) : store_(store) {}

    Task<Status> apply(const std::string& table_id, const storage::PartitionMutation& m,
                       const RequestOptions&) override {
        co_return store_->apply(table_id, m);
    }
    Task<Result<std::unique_ptr<PartitionStream>>> read(const std::string& table_id,
                                                        const std::string& partition_key,
                                                        const SliceSpec& slice, int64_t now_seconds,
                                                        const RequestOptions&) override {
        auto r = store_->read_partition(table_id, partition_key, slice, now_seconds);
        if (!r.is_ok()) co_return std::move(r).status();
        co_return std::unique_ptr<PartitionStream>(new LocalStream(std::move(r).value()));
    }
    Task<Result<std::unique_ptr<PartitionCursor>>> scan(const std::string& table_id,
                                                        const KeyRange& range, int64_t now_seconds,
                                                        const RequestOptions&) override {
        auto s = store_->scan_partitions(table_id, range, now_seconds);
        if (!s.is_ok()) co_return std::move(s).status();
        co_return std::unique_ptr<PartitionCursor>(new LocalCursor(std::move(s).value()));
    }
    // One node: a partition's transactions take turns under a striped lock.
    // The reads `decide` makes are local and never suspend, so the lock is
    // never held across a suspension.
    Task<Result<bool>> cas(const std::string& table_id, const std::string& partition_key,
                           const RequestOptions&, CasDecider decide) override {
        std::lock_guard lock(
            locks_[std::hash<std::string>{}(table_id + partition_key) % kLockStripes]);
        auto decided = decide(0);
        if (!decided.ready()) std::abort();
        auto update = decided.take();
        if (!update.is_ok()) co_return update.status();
        if (!*update) co_return false;
        TESSEL_CO_RETURN_IF_ERROR(store_->apply(table_id, **update));
        co_return true;
    }
    Status create_table(const std::string& table_id, int32_t gc_grace_seconds) override {
        storage::TableStorageOptions o;
        o.gc_grace_seconds = gc_grace_seconds;
        return store_->create_table(table_id, o);
    }
    Status drop_table(const std::string& table_id) override { return store_->drop_table(table_id); }
    Status truncate_table(const std::string& table_id) override {
        return store_->truncate_table(table_id);
    }
    Status set_gc_grace(const std::string& table_id, int32_t gc_grace_seconds) override {
        storage::TableStorageOptions o;
        o.gc_grace_seconds = gc_grace_seconds;
        return store_->set_table_options(table_id, o);
    }
    bool has_table(const std::string& table_id) const override {
        return store_->has_table(table_id);
    }
    Status flush() override { return store_->flush(); }
    int64_t now_seconds() const override { return store_->now_seconds(); }
    Status for_each_partition_stats(const std::string& table_id,
                                    const PartitionStatsFn& fn) override {
        return store_->for_each_partition_stats(table_id, fn);
    }

  private:
    static constexpr size_t kLockStripes = 256;
    storage::Store* store_;
    std::mutex locks_[kLockStripes];
};

}  // namespace

std::unique_ptr<PartitionStream> make_local_stream(std::unique_ptr<storage::PartitionReader> r) {
    return std::make_unique<LocalStream>(std::move(r));
}

std::unique_ptr<PartitionCursor> make_local_cursor(std::unique_ptr<storage::PartitionScanner> s) {
    return std::make_unique<LocalCursor>(std::move(s));
}

std::unique_ptr<Replica> make_local_replica(storage::Store* store) {
    return std::make_unique<LocalReplica>(store);
}

}  // namespace tessel::cluster
