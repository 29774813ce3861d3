// A tablet's replica set as a Replica (make_tablet_replicas): data requests
// go through the StorageProxy with the tablet's placement; the table's
// lifecycle on this node goes to the local replica. Every data request is
// counted while in flight (a read and a scan until their stream or cursor
// is released), so a migration's barrier knows when no request routed by
// an older map is left.
#include <atomic>

#include "cluster/storage_proxy.h"

namespace tessel::cluster {
namespace {

using Counter = std::shared_ptr<std::atomic<uint64_t>>;

// Holds one count of a request in flight.
class InFlight {
  public:
    explicit InFlight(Counter c) : c_(std::move(c)) { c_->fetch_add(1); }
    InFlight(const InFlight&) = delete;
    InFlight& operator=(const InFlight&) = delete;
    ~InFlight() { c_->fetch_sub(1); }

  private:
    Counter c_;
};

// A stream that keeps its read counted until it is released.
class CountedStream final : public PartitionStream {
  public:
    CountedStream(std::unique_ptr<PartitionStream> s, Counter c)
        : s_(std::move(s)), in_flight_(std::move(c)) {}
    const std::string& partition_key() const override { return s_->partition_key(); }
    const std::optional<storage::Row>& static_row() const override { return s_->static_row(); }
    bool next(storage::Row* out) override { return s_->next(out); }
    Status status() const override { return s_->status(); }
    uint64_t tombstones_scanned() const override { return s_->tombstones_scanned(); }
    bool needs_fetch() const override { return s_->needs_fetch(); }
    Task<Status> fetch() override { return s_->fetch(); }

  private:
    std::unique_ptr<PartitionStream> s_;
    InFlight in_flight_;
};

class CountedCursor final : public PartitionCursor {
  public:
    CountedCursor(std::unique_ptr<PartitionCursor> c, Counter counter)
        : c_(std::move(c)), in_flight_(std::move(counter)) {}
    bool next() override { return c_->next(); }
    const std::string& partition_key() const override { return c_->partition_key(); }
    Task<Result<std::unique_ptr<PartitionStream>>> read(const SliceSpec& slice) override {
        return c_->read(slice);
    }
    Status status() const override { return c_->status(); }
    bool needs_fetch() const override { return c_->needs_fetch(); }
    Task<Status> fetch() override { return c_->fetch(); }

  private:
    std::unique_ptr<PartitionCursor> c_;
    InFlight in_flight_;
};

class TabletReplicas final : public Replica {
  public:
    TabletReplicas(StorageProxy* proxy, Placement placement, Replica* local)
        : proxy_(proxy), placement_(std::move(placement)), local_(local) {}

    Task<Status> apply(const std::string& table_id, const storage::PartitionMutation& m,
                       const RequestOptions& options) override {
        InFlight counted(in_flight_);
        co_return co_await proxy_->mutate(table_id, m, placement_, options);
    }
    Task<Result<std::unique_ptr<PartitionStream>>> read(const std::string& table_id,
                                                        const std::string& partition_key,
                                                        const SliceSpec& slice, int64_t now_seconds,
                                                        const RequestOptions& options) override {
        InFlight counted(in_flight_);
        auto s =
            co_await proxy_->read(table_id, partition_key, slice, now_seconds, placement_, options);
        if (!s.is_ok()) co_return s.status();
        co_return std::unique_ptr<PartitionStream>(
            std::make_unique<CountedStream>(std::move(s).value(), in_flight_));
    }
    Task<Result<std::unique_ptr<PartitionCursor>>> scan(const std::string& table_id,
                                                        const KeyRange& range, int64_t now_seconds,
                                                        const RequestOptions& options) override {
        InFlight counted(in_flight_);
        auto c = co_await proxy_->scan(table_id, range, now_seconds, placement_, options);
        if (!c.is_ok()) co_return c.status();
        co_return std::unique_ptr<PartitionCursor>(
            std::make_unique<CountedCursor>(std::move(c).value(), in_flight_));
    }
    Task<Result<bool>> cas(const std::string& table_id, const std::string& partition_key,
                           const RequestOptions& options, CasDecider decide) override {
        InFlight counted(in_flight_);
        co_return co_await proxy_->cas(table_id, partition_key, placement_, options,
                                       std::move(decide));
    }
    Status create_table(const std::string& table_id, int32_t gc_grace_seconds) override {
        return local_->create_table(table_id, gc_grace_seconds);
    }
    Status drop_table(const std::string& table_id) override { return local_->drop_table(table_id); }
    Status truncate_table(const std::string& table_id) override {
        return local_->truncate_table(table_id);
    }
    Status set_gc_grace(const std::string& table_id, int32_t gc_grace_seconds) override {
        return local_->set_gc_grace(table_id, gc_grace_seconds);
    }
    bool has_table(const std::string& table_id) const override {
        return local_->has_table(table_id);
    }
    Status flush() override { return local_->flush(); }
    int64_t now_seconds() const override { return local_->now_seconds(); }
    uint64_t requests_in_flight() const override { return in_flight_->load(); }

  private:
    StorageProxy* proxy_;
    Placement placement_;
    Replica* local_;
    Counter in_flight_ = std::make_shared<std::atomic<uint64_t>>(0);
};

}  // namespace

std::shared_ptr<Replica> make_tablet_replicas(StorageProxy* proxy, Placement placement,
                                              Replica* local) {
    return std::make_shared<TabletReplicas>(proxy, std::move(placement), local);
}

}  // namespace tessel::cluster
