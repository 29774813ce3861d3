// The coordinator's partition-health seam, on a coordinator assembled by hand.
#include <filesystem>

#include "cluster/replica.h"
#include "embedded/catalog_glue.h"
#include "query/coordinator.h"
#include "storage/store.h"
#include "test_db.h"

namespace tessel::testing {
namespace {

class CountingObserver final : public query::QueryObserver {
  public:
    Status before_write(const cql::TableInfo& table, const std::vector<std::string>& pk,
                        const storage::PartitionMutation&) override {
        ++writes;
        last_table = table.name;
        if (pk.size() == 1 && pk[0] == int_bytes(666)) {
            return Status::invalid("Partition 666 is over the configured limit");
        }
        return Status::ok();
    }
    void on_partition_read(const cql::TableInfo&, const std::vector<std::string>&) override {
        ++partitions_read;
    }
    Status after_read(const cql::TableInfo&, uint64_t tombstones, uint64_t live_rows,
                      std::string_view, std::vector<std::string>* warnings) override {
        last_tombstones = tombstones;
        last_live = live_rows;
        if (tombstones > 0)
            warnings->push_back("read " + std::to_string(tombstones) + " tombstones");
        return Status::ok();
    }
    int writes = 0;
    int partitions_read = 0;
    uint64_t last_tombstones = 0;
    uint64_t last_live = 0;
    std::string last_table;
};

TEST(ObserverTest, SeesWritesReadsAndTombstones) {
    const auto dir =
        std::filesystem::temp_directory_path() / ("tessel_observer_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    {
        auto store = storage::Store::open((dir / "store").string());
        ASSERT_TRUE(store.is_ok());
        auto catalog_store = embedded::make_store_catalog(store->get());
        auto catalog = embedded::load_catalog(catalog_store.get());
        ASSERT_TRUE(catalog.is_ok());
        auto replica = cluster::make_local_replica(store->get());
        query::CoordinatorOptions o;
        o.node_secret = std::string(32, 'k');
        query::Coordinator c(catalog->get(), replica.get(), o);
        auto observer = std::make_shared<CountingObserver>();
        c.set_observer(observer);
        std::string ks;
        auto run = [&](const std::string& q) {
            const QueryOptions none;
            return sync_wait([&] { return c.execute(q, none, &ks); });
        };
        ASSERT_TRUE(run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
                        "'replication_factor': 1}")
                        .is_ok());
        ASSERT_TRUE(run("USE ks").is_ok());
        ASSERT_TRUE(run("CREATE TABLE t (k int, c int, v int, PRIMARY KEY (k, c))").is_ok());
        ASSERT_TRUE(run("INSERT INTO t (k, c, v) VALUES (1, 1, 1)").is_ok());
        ASSERT_TRUE(run("UPDATE t SET v = 2 WHERE k IN (2, 3) AND c = 1").is_ok());
        EXPECT_EQ(observer->writes, 3);
        EXPECT_EQ(observer->last_table, "t");
        auto refused = run("INSERT INTO t (k, c, v) VALUES (666, 1, 1)");
        ASSERT_FALSE(refused.is_ok());
        EXPECT_EQ(refused.status().message(), "Partition 666 is over the configured limit");
        auto r = run("SELECT * FROM t WHERE k = 666");
        ASSERT_TRUE(r.is_ok());
        EXPECT_TRUE(r->rows.empty());  // refused writes leave nothing behind
        ASSERT_TRUE(run("DELETE FROM t WHERE k = 1 AND c = 1").is_ok());
        ASSERT_TRUE(run("INSERT INTO t (k, c, v) VALUES (1, 2, 1)").is_ok());
        observer->partitions_read = 0;
        r = run("SELECT * FROM t WHERE k = 1");
        ASSERT_TRUE(r.is_ok());
        EXPECT_EQ(observer->partitions_read, 1);
        EXPECT_EQ(observer->last_live, 1u);
        EXPECT_GE(observer->last_tombstones, 1u);
        ASSERT_FALSE(r->warnings.empty());
        replica.reset();
        ASSERT_TRUE((*store)->close().is_ok());
    }
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tessel::testing
