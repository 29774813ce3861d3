// TabletRouter over an in-memory replica: scans walk the tablets in order and
// return exactly what one scan of the whole replica would, for every kind of
// range bound at and around tablet boundaries; requests are counted on the
// tablet they route to; maps are stored, reset and removed with the table.
#include "query/tablet_router.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <random>
#include <thread>

#include "partition/token.h"
#include "schema/memory_catalog_store.h"
#include "storage/clustering_range.h"

namespace tessel::query {
namespace {

class EmptyStream final : public PartitionStream {
  public:
    explicit EmptyStream(std::string key) : key_(std::move(key)) {}
    const std::string& partition_key() const override { return key_; }
    const std::optional<storage::Row>& static_row() const override { return none_; }
    bool next(storage::Row*) override { return false; }
    Status status() const override { return Status::ok(); }

  private:
    std::string key_;
    std::optional<storage::Row> none_;
};

// Partition keys only; a scan honours KeyRange's prefix semantics.
class MemReplica final : public Replica {
  public:
    std::map<std::string, uint64_t> keys;  // key -> bytes written

    class Cursor final : public PartitionCursor {
      public:
        explicit Cursor(std::vector<std::string> k) : keys_(std::move(k)) {}
        bool next() override { return ++pos_ < keys_.size(); }
        const std::string& partition_key() const override { return keys_[pos_]; }
        Task<Result<std::unique_ptr<PartitionStream>>> read(const SliceSpec&) override {
            co_return std::unique_ptr<PartitionStream>(new EmptyStream(keys_[pos_]));
        }
        Status status() const override { return Status::ok(); }

      private:
        std::vector<std::string> keys_;
        size_t pos_ = static_cast<size_t>(-1);
    };

    Task<Status> apply(const std::string&, const storage::PartitionMutation& m,
                       const RequestOptions&) override {
        keys[m.partition_key] += 100;
        co_return Status::ok();
    }
    Task<Result<std::unique_ptr<PartitionStream>>> read(const std::string&, const std::string& key,
                                                        const SliceSpec&, int64_t,
                                                        const RequestOptions&) override {
        co_return std::unique_ptr<PartitionStream>(new EmptyStream(key));
    }
    Task<Result<std::unique_ptr<PartitionCursor>>> scan(const std::string&, const KeyRange& range,
                                                        int64_t, const RequestOptions&) override {
        auto iv = storage::to_interval({range.start_key, range.start_inclusive},
                                       {range.end_key, range.end_inclusive});
        std::vector<std::string> out;
        for (const auto& [k, _] : keys) {
            if (!iv.empty && k >= iv.lo && (!iv.hi || k < *iv.hi)) out.push_back(k);
        }
        co_return std::unique_ptr<PartitionCursor>(new Cursor(std::move(out)));
    }
    Task<Result<bool>> cas(const std::string&, const std::string&, const RequestOptions&,
                           cluster::CasDecider) override {
        co_return false;
    }
    Status create_table(const std::string&, int32_t) override { return Status::ok(); }
    Status drop_table(const std::string&) override { return Status::ok(); }
    Status truncate_table(const std::string&) override { return Status::ok(); }
    Status set_gc_grace(const std::string&, int32_t) override { return Status::ok(); }
    bool has_table(const std::string&) const override { return true; }
    Status flush() override { return Status::ok(); }
    int64_t now_seconds() const override { return 0; }
    Status for_each_partition_stats(const std::string&, const PartitionStatsFn& fn) override {
        for (const auto& [k, bytes] : keys) {
            storage::PartitionStats s;
            s.bytes_written = bytes;
            s.row_writes = 1;
            fn(k, s);
        }
        return Status::ok();
    }
};

// The partition keys a scan of `replica` yields (fetching as the cursor asks).
std::vector<std::string> drain(Replica& replica, const KeyRange& range) {
    return sync_wait([&]() -> Task<std::vector<std::string>> {
        std::vector<std::string> out;
        const std::string table = "t";
        const RequestOptions ro;
        auto c = co_await replica.scan(table, range, 0, ro);
        EXPECT_TRUE(c.is_ok());
        while (true) {
            if (!(*c)->next()) {
                if (!(*c)->needs_fetch()) break;
                const Status fetched = co_await (*c)->fetch();
                EXPECT_TRUE(fetched.is_ok());
                continue;
            }
            out.push_back((*c)->partition_key());
        }
        EXPECT_TRUE((*c)->status().is_ok());
        co_return out;
    });
}

class TabletRouterTest : public ::testing::Test {
  protected:
    TabletRouterTest() : router(&mem, nullptr, &store, options()) {}
    static TabletRouterOptions options() {
        TabletRouterOptions o;
        o.initial_hash_tablets = 4;
        o.thresholds.split_size_bytes = 1000;
        o.thresholds.min_age_ms = 0;
        return o;
    }
    void write(const std::string& key) {
        storage::PartitionMutation m;
        m.partition_key = key;
        ASSERT_TRUE(sync_wait([&] { return router.apply("t", m, {}); }).is_ok());
    }

    MemReplica mem;
    testing::MemoryCatalogStore store;
    TabletRouter router;
};

TEST_F(TabletRouterTest, ScansMatchTheReplicaForEveryBound) {
    ASSERT_TRUE(router.create_table("t", 0).is_ok());
    std::mt19937_64 rng(11);
    std::vector<std::string> probes;
    for (int i = 0; i < 300; ++i) {
        const std::string key = encode_token_prefix(static_cast<int64_t>(rng())) + "k";
        write(key);
    }
    while (*router.evaluate() > 0) {
    }
    auto t = router.tablets("t");
    ASSERT_GT(t->map.size(), 4u);
    // Bounds: tablet boundaries, stored keys, and prefixes of both.
    for (size_t i = 1; i < t->map.size(); ++i) {
        probes.push_back(t->map.at(i).start);
        probes.push_back(t->map.at(i).start.substr(0, 4));
    }
    for (const auto& [k, _] : mem.keys) {
        if (rng() % 10 == 0) probes.push_back(k);
    }
    probes.push_back("");
    for (int n = 0; n < 400; ++n) {
        KeyRange r;
        r.start_key = probes[rng() % probes.size()];
        r.end_key = probes[rng() % probes.size()];
        r.start_inclusive = rng() % 2;
        r.end_inclusive = rng() % 2;
        EXPECT_EQ(drain(router, r), drain(mem, r))
            << "start " << r.start_inclusive << " end " << r.end_inclusive;
    }
    EXPECT_EQ(drain(router, KeyRange{}).size(), 300u);
}

TEST_F(TabletRouterTest, RequestsAreCountedOnTheirTablet) {
    ASSERT_TRUE(router.create_table("t", 0).is_ok());
    const std::string key = encode_token_prefix(-5) + "k";  // tablet 1: [-2^62, 0)
    write(key);
    write(key);
    ASSERT_TRUE(sync_wait([&] { return router.read("t", key, SliceSpec{}, 0, {}); }).is_ok());
    auto t = router.tablets("t");
    for (size_t i = 0; i < 4; ++i) {
        const auto c = t->loads[i]->totals();
        EXPECT_EQ(c.writes, i == 1 ? 2u : 0u) << i;
        EXPECT_EQ(c.reads, i == 1 ? 1u : 0u) << i;
    }
    const size_t opened = sync_wait([&]() -> Task<size_t> {
        size_t n = 0;
        const std::string table = "t";
        const KeyRange everything;
        const RequestOptions ro;
        const SliceSpec whole;
        auto cursor = co_await router.scan(table, everything, 0, ro);
        EXPECT_TRUE(cursor.is_ok());
        while (true) {
            if (!(*cursor)->next()) {
                if (!(*cursor)->needs_fetch()) break;
                const Status fetched = co_await (*cursor)->fetch();
                EXPECT_TRUE(fetched.is_ok());
                continue;
            }
            auto stream = co_await (*cursor)->read(whole);
            EXPECT_TRUE(stream.is_ok());
            ++n;
        }
        co_return n;
    });
    EXPECT_EQ(opened, 1u);
    EXPECT_EQ(t->loads[1]->totals().reads, 2u);
}

TEST_F(TabletRouterTest, MapIsStoredResetAndRemoved) {
    ASSERT_TRUE(router.create_table("t", 0).is_ok());
    ASSERT_EQ(store.data.count("t"), 1u);
    for (int i = 0; i < 100; ++i)
        write(encode_token_prefix(i * 1000003) + "k");
    while (*router.evaluate() > 0) {
    }
    const auto map = router.tablets("t")->map;
    ASSERT_GT(map.size(), 4u);
    EXPECT_EQ(*TabletMap::decode(store.data["t"]), map);
    ASSERT_TRUE(router.truncate_table("t").is_ok());
    EXPECT_EQ(router.tablets("t")->map.size(), 4u);
    EXPECT_EQ(TabletMap::decode(store.data["t"])->size(), 4u);
    ASSERT_TRUE(router.drop_table("t").is_ok());
    EXPECT_EQ(router.tablets("t"), nullptr);
    EXPECT_EQ(store.data.count("t"), 0u);
}

// A replica set that says how many requests it has in flight.
class BusyReplica final : public Replica {
  public:
    explicit BusyReplica(Replica* inner) : inner_(inner) {}
    std::atomic<uint64_t> busy{0};
    uint64_t requests_in_flight() const override { return busy.load(); }
    Task<Status> apply(const std::string& t, const storage::PartitionMutation& m,
                       const RequestOptions& o) override {
        return inner_->apply(t, m, o);
    }
    Task<Result<std::unique_ptr<PartitionStream>>> read(const std::string& t, const std::string& k,
                                                        const SliceSpec& s, int64_t n,
                                                        const RequestOptions& o) override {
        return inner_->read(t, k, s, n, o);
    }
    Task<Result<std::unique_ptr<PartitionCursor>>> scan(const std::string& t, const KeyRange& r,
                                                        int64_t n,
                                                        const RequestOptions& o) override {
        return inner_->scan(t, r, n, o);
    }
    Task<Result<bool>> cas(const std::string& t, const std::string& k, const RequestOptions& o,
                           cluster::CasDecider d) override {
        return inner_->cas(t, k, o, std::move(d));
    }
    Status create_table(const std::string&, int32_t) override { return Status::ok(); }
    Status drop_table(const std::string&) override { return Status::ok(); }
    Status truncate_table(const std::string&) override { return Status::ok(); }
    Status set_gc_grace(const std::string&, int32_t) override { return Status::ok(); }
    bool has_table(const std::string&) const override { return true; }
    Status flush() override { return Status::ok(); }
    int64_t now_seconds() const override { return 0; }

  private:
    Replica* inner_;
};

// A migration's barrier: once a new map is installed, drain() waits for the
// requests still running on the replica sets of the maps it replaced.
TEST(TabletRouterDrainTest, WaitsForRequestsRoutedByReplacedMaps) {
    MemReplica mem;
    std::vector<std::shared_ptr<BusyReplica>> sets;
    TabletRouterOptions o;
    o.shared_maps = true;
    o.first_map = [](const std::string&, bool) { return TabletMap::initial_hash(2, 1, 0); };
    o.replica_set = [&](const std::string&, const Tablet&) {
        sets.push_back(std::make_shared<BusyReplica>(&mem));
        return sets.back();
    };
    TabletRouter router(&mem, nullptr, nullptr, o);
    ASSERT_TRUE(router.create_table("t", 0).is_ok());
    ASSERT_EQ(sets.size(), 2u);
    sets[0]->busy = 1;  // a request routed by the first map is running
    ASSERT_TRUE(router.apply_remote("t", TabletMap::initial_hash(2, 1, 1).encode()).is_ok());
    ASSERT_EQ(sets.size(), 4u);
    sets[2]->busy = 5;  // the new map's own requests do not count
    using std::chrono::milliseconds;
    const auto soon = [] { return std::chrono::steady_clock::now() + milliseconds(100); };
    EXPECT_FALSE(router.drain("t", soon()));
    EXPECT_TRUE(router.drain("other", soon()));  // another table has nothing to wait for
    std::thread done([&] {
        std::this_thread::sleep_for(milliseconds(50));
        sets[0]->busy = 0;
    });
    EXPECT_TRUE(router.drain("t", std::chrono::steady_clock::now() + milliseconds(5000)));
    done.join();
}

}  // namespace
}  // namespace tessel::query
