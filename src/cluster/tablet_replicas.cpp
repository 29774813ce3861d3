// A tablet's replica set as a Replica (make_tablet_replicas): data requests
// go through the StorageProxy with the tablet's placement; the table's
// lifecycle on this node goes to the local replica.
#include "cluster/storage_proxy.h"

namespace tessel::cluster {
namespace {

class TabletReplicas final : public Replica {
  public:
    TabletReplicas(StorageProxy* proxy, Placement placement, Replica* local)
        : proxy_(proxy), placement_(std::move(placement)), local_(local) {}

    Task<Status> apply(const std::string& table_id, const storage::PartitionMutation& m,
                       const RequestOptions& options) override {
        return proxy_->mutate(table_id, m, placement_, options);
    }
    Task<Result<std::unique_ptr<PartitionStream>>> read(const std::string& table_id,
                                                        const std::string& partition_key,
                                                        const SliceSpec& slice, int64_t now_seconds,
                                                        const RequestOptions& options) override {
        return proxy_->read(table_id, partition_key, slice, now_seconds, placement_, options);
    }
    Task<Result<std::unique_ptr<PartitionCursor>>> scan(const std::string& table_id,
                                                        const KeyRange& range, int64_t now_seconds,
                                                        const RequestOptions& options) override {
        return proxy_->scan(table_id, range, now_seconds, placement_, options);
    }
    Task<Result<bool>> cas(const std::string& table_id, const std::string& partition_key,
                           const RequestOptions& options, CasDecider decide) override {
        return proxy_->cas(table_id, partition_key, placement_, options, std::move(decide));
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

  private:
    StorageProxy* proxy_;
    Placement placement_;
    Replica* local_;
};

}  // namespace

std::shared_ptr<Replica> make_tablet_replicas(StorageProxy* proxy, Placement placement,
                                              Replica* local) {
    return std::make_shared<TabletReplicas>(proxy, std::move(placement), local);
}

}  // namespace tessel::cluster
