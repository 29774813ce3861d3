#include "query/table_source.h"

#include <algorithm>
#include <map>

#include "storage/clustering_range.h"
#include "types/value.h"

namespace tessel::query {
namespace {

class ReplicaSource final : public TableSource {
  public:
    ReplicaSource(Replica* r, std::string id, int64_t now, RequestOptions options)
        : r_(r), id_(std::move(id)), now_(now), options_(options) {}
    Task<Result<std::unique_ptr<PartitionStream>>> read(const std::string& key,
                                                        const SliceSpec& slice) override {
        return r_->read(id_, key, slice, now_, options_);
    }
    Task<Result<std::unique_ptr<PartitionCursor>>> scan(const KeyRange& range) override {
        return r_->scan(id_, range, now_, options_);
    }

  private:
    Replica* r_;
    std::string id_;
    int64_t now_;
    RequestOptions options_;
};

struct MemPartition {
    std::optional<storage::Row> static_row;
    std::vector<storage::Row> rows;  // sorted by clustering
};
using MemTable = std::map<std::string, MemPartition>;

class MemStream final : public PartitionStream {
  public:
    MemStream(std::string key, const MemPartition* p, const SliceSpec& slice)
        : key_(std::move(key)),
          p_(p),
          reversed_(slice.reversed),
          interval_(storage::to_interval(slice.start, slice.end)) {
        if (p_ && slice.include_static) static_ = p_->static_row;
        pos_ = reversed_ && p_ ? p_->rows.size() : 0;
    }
    const std::string& partition_key() const override { return key_; }
    const std::optional<storage::Row>& static_row() const override { return static_; }
    bool next(storage::Row* out) override {
        if (!p_ || interval_.empty) return false;
        const auto& rows = p_->rows;
        while (reversed_ ? pos_ > 0 : pos_ < rows.size()) {
            const storage::Row& r = reversed_ ? rows[--pos_] : rows[pos_++];
            if (interval_.contains(r.clustering)) {
                *out = r;
                return true;
            }
        }
        return false;
    }
    Status status() const override { return Status::ok(); }

  private:
    std::string key_;
    const MemPartition* p_;
    bool reversed_;
    storage::ClusteringInterval interval_;
    std::optional<storage::Row> static_;
    size_t pos_ = 0;
};

class MemCursor final : public PartitionCursor {
  public:
    MemCursor(const MemTable* t, const KeyRange& range)
        : t_(t),
          interval_(storage::to_interval({range.start_key, range.start_inclusive},
                                         {range.end_key, range.end_inclusive})) {
        it_ = t_->lower_bound(interval_.lo);
    }
    bool next() override {
        if (started_ && it_ != t_->end()) ++it_;
        started_ = true;
        if (interval_.empty || it_ == t_->end()) return false;
        return !interval_.hi || it_->first < *interval_.hi;
    }
    const std::string& partition_key() const override { return it_->first; }
    Task<Result<std::unique_ptr<PartitionStream>>> read(const SliceSpec& slice) override {
        co_return std::unique_ptr<PartitionStream>(new MemStream(it_->first, &it_->second, slice));
    }
    Status status() const override { return Status::ok(); }

  private:
    const MemTable* t_;
    storage::ClusteringInterval interval_;
    MemTable::const_iterator it_;
    bool started_ = false;
};

class VirtualSource final : public TableSource {
  public:
    explicit VirtualSource(MemTable t) : t_(std::move(t)) {}
    Task<Result<std::unique_ptr<PartitionStream>>> read(const std::string& key,
                                                        const SliceSpec& slice) override {
        auto it = t_.find(key);
        co_return std::unique_ptr<PartitionStream>(
            new MemStream(key, it == t_.end() ? nullptr : &it->second, slice));
    }
    Task<Result<std::unique_ptr<PartitionCursor>>> scan(const KeyRange& range) override {
        co_return std::unique_ptr<PartitionCursor>(new MemCursor(&t_, range));
    }

  private:
    MemTable t_;
};

}  // namespace

std::unique_ptr<TableSource> make_replica_source(Replica* replica, std::string table_id,
                                                 int64_t now_seconds, RequestOptions options) {
    return std::make_unique<ReplicaSource>(replica, std::move(table_id), now_seconds, options);
}

Task<bool> next_row(PartitionStream& stream, storage::Row* out) {
    while (true) {
        if (stream.next(out)) co_return true;
        if (!stream.needs_fetch()) co_return false;
        const Status fetched = co_await stream.fetch();
        if (!fetched.is_ok()) co_return false;
    }
}

KeyLayout layout_of(const cql::TableInfo& t) {
    KeyLayout l;
    l.hashed = t.hashed;
    for (size_t i = 0; i < t.partition_key.size(); ++i)
        l.partition_types.push_back(t.pk(i).type);
    for (size_t i = 0; i < t.clustering.size(); ++i) {
        l.clustering_types.push_back(t.ck(i).type);
        l.clustering_descending.push_back(t.ck(i).descending);
    }
    l.shards = t.shards;
    if (t.bucketed()) {
        l.bucket_width_ms = t.bucket_width_ms;
        l.bucket_clustering = t.columns[t.bucket_column].position;
    }
    return l;
}

Result<std::unique_ptr<TableSource>> make_virtual_source(const VirtualTable& table,
                                                         const cql::TableInfo& info,
                                                         const KeyLayout& layout) {
    TESSEL_ASSIGN_OR_RETURN(auto rows, table.rows());
    MemTable mem;
    for (const auto& vr : rows) {
        std::vector<std::string> pk, ck;
        bool complete = true;
        for (int idx : info.partition_key) {
            const uint32_t id = info.columns[idx].id;
            if (id >= vr.size() || !vr[id]) {
                complete = false;
                break;
            }
            pk.push_back(*vr[id]);
        }
        for (int idx : info.clustering) {
            const uint32_t id = info.columns[idx].id;
            if (id >= vr.size() || !vr[id]) {
                complete = false;
                break;
            }
            ck.push_back(*vr[id]);
        }
        if (!complete) continue;
        std::string key;
        for (size_t i = 0; i < pk.size(); ++i) {
            encode_key(*layout.partition_types[i], pk[i], false, &key);
        }
        storage::Row row;
        row.clustering = encode_clustering(layout, ck);
        row.marker.timestamp = 0;
        for (const auto& col : info.columns) {
            if (col.is_primary_key() || col.id >= vr.size() || !vr[col.id]) continue;
            storage::Cell c;
            c.column_id = col.id;
            c.timestamp = 0;
            c.value = *vr[col.id];
            row.cells.push_back(std::move(c));
        }
        std::sort(row.cells.begin(), row.cells.end(),
                  [](const storage::Cell& a, const storage::Cell& b) {
                      return a.column_id < b.column_id;
                  });
        mem[key].rows.push_back(std::move(row));
    }
    for (auto& [_, p] : mem) {
        std::sort(p.rows.begin(), p.rows.end(), [](const storage::Row& a, const storage::Row& b) {
            return a.clustering < b.clustering;
        });
    }
    return std::unique_ptr<TableSource>(new VirtualSource(std::move(mem)));
}

}  // namespace tessel::query
