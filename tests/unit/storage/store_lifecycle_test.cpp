// Store lifecycle: durability across restarts and process kills, commitlog
// sync modes, table DDL, the catalog and concurrent use.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <thread>

#include "storage_test_util.h"

namespace tessel::storage {
namespace {

using namespace testing;
using Strings = std::vector<std::string>;

TEST_F(StoreTest, DataCatalogAndOptionsSurviveRestart) {
    apply(write_row("pk01", "c1", row({live(1, "v1", 5)}, 5)));
    apply(delete_range("pk01", {"c2", true}, {"c3", true}, 6, now32()));
    ASSERT_TRUE(store_->put_meta("schema/ks1", "def1").is_ok());
    ASSERT_TRUE(store_->create_table("other", {3600}).is_ok());
    ASSERT_TRUE(store_->set_table_options("t", {120}).is_ok());
    reopen();
    auto rs = rows("pk01");
    ASSERT_EQ(rs.size(), 1u);
    EXPECT_EQ(value_of(rs[0], 1), "v1");
    auto meta = store_->get_meta("schema/ks1");
    ASSERT_TRUE(meta.is_ok());
    EXPECT_EQ(*meta, std::optional<std::string>("def1"));
    EXPECT_EQ(store_->list_tables(), (Strings{"other", "t"}));
    EXPECT_EQ(store_->table_options("other")->gc_grace_seconds, 3600);
    EXPECT_EQ(store_->table_options("t")->gc_grace_seconds, 120);
    // The range tombstone survived too: a write under it stays hidden.
    apply(write_row("pk01", "c2", row({live(1, "old", 5)}, 5)));
    EXPECT_EQ(clusterings(rows("pk01")), Strings{"c1"});
}

TEST_F(StoreTest, BatchCommitlogSyncWritesAreDurable) {
    StoreOptions o = options();
    o.commitlog_sync = CommitlogSync::kBatch;
    reopen(o);
    std::vector<std::thread> writers;
    for (int t = 0; t < 4; ++t) {
        writers.emplace_back([&, t] {
            for (int i = 0; i < 25; ++i) {
                std::string ck = "t" + std::to_string(t) + "-" + std::to_string(100 + i);
                EXPECT_TRUE(store_->apply("t", write_row("pk01", ck, row({}, 5))).is_ok());
            }
        });
    }
    for (auto& w : writers)
        w.join();
    reopen();
    EXPECT_EQ(rows("pk01").size(), 100u);
}

// Periodic mode does not fsync per write, but the WAL write happens before
// apply() returns, so a killed process loses nothing acknowledged.
TEST(StoreDurability, AcknowledgedWriteSurvivesProcessKill) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    // The death test child re-runs this test body: share the directory.
    const char* env = std::getenv("TESSEL_STORAGE_KILL_DIR");
    std::unique_ptr<TempDir> owned;
    std::string path;
    if (env) {
        path = env;
    } else {
        owned = std::make_unique<TempDir>();
        path = owned->path();
        setenv("TESSEL_STORAGE_KILL_DIR", path.c_str(), 1);
    }
    EXPECT_EXIT(
        {
            auto s = Store::open(path);
            if (!s.is_ok() || !(*s)->create_table("t").is_ok()) std::_Exit(1);
            if (!(*s)->apply("t", write_row("pk01", "c1", row({live(1, "kept", 5)}, 5))).is_ok()) {
                std::_Exit(1);
            }
            std::raise(SIGKILL);
        },
        ::testing::KilledBySignal(SIGKILL), "");
    unsetenv("TESSEL_STORAGE_KILL_DIR");
    auto s = Store::open(path);
    ASSERT_TRUE(s.is_ok()) << s.status().to_string();
    auto rs = read_rows(**s, "t", "pk01", 0);
    ASSERT_EQ(rs.size(), 1u);
    EXPECT_EQ(value_of(rs[0], 1), "kept");
}

TEST_F(StoreTest, DropTableRemovesDataStatsAndFamily) {
    ASSERT_TRUE(store_->create_table("u").is_ok());
    ASSERT_TRUE(store_->apply("u", write_row("pk01", "c1", row({}, 5))).is_ok());
    ASSERT_TRUE(store_->flush().is_ok());
    ASSERT_TRUE(store_->drop_table("u").is_ok());
    EXPECT_FALSE(store_->has_table("u"));
    EXPECT_EQ(store_->read_partition("u", "pk01", {}, clock_).status().code(), ErrorCode::kInvalid);
    EXPECT_EQ(store_->drop_table("u").code(), ErrorCode::kInvalid);
    reopen();
    EXPECT_FALSE(store_->has_table("u"));
    ASSERT_TRUE(store_->create_table("u").is_ok());
    EXPECT_TRUE(read_rows(*store_, "u", "pk01", clock_).empty());
    EXPECT_EQ(store_->get_partition_stats("u", "pk01")->row_writes, 0u);
}

TEST_F(StoreTest, TruncateKeepsTheTableButNotItsData) {
    ASSERT_TRUE(store_->set_table_options("t", {77}).is_ok());
    apply(write_row("pk01", "c1", row({live(1, "v", 5)}, 5)));
    // A reader opened before the truncation keeps its view.
    auto before = store_->read_partition("t", "pk01", {}, clock_);
    ASSERT_TRUE(before.is_ok());
    ASSERT_TRUE(store_->truncate_table("t").is_ok());
    EXPECT_TRUE(rows("pk01").empty());
    Row r;
    EXPECT_TRUE((*before)->next(&r));
    before->reset();
    EXPECT_EQ(store_->get_partition_stats("t", "pk01")->row_writes, 0u);
    EXPECT_EQ(store_->table_options("t")->gc_grace_seconds, 77);
    apply(write_row("pk01", "c2", row({}, 6)));
    reopen();
    EXPECT_EQ(clusterings(rows("pk01")), Strings{"c2"});
}

TEST_F(StoreTest, TableNamesAreValidated) {
    EXPECT_EQ(store_->create_table("t").code(), ErrorCode::kAlreadyExists);
    EXPECT_EQ(store_->create_table("catalog").code(), ErrorCode::kInvalid);
    EXPECT_EQ(store_->create_table("default").code(), ErrorCode::kInvalid);
    EXPECT_EQ(store_->create_table("").code(), ErrorCode::kInvalid);
    EXPECT_EQ(store_->create_table("neg", {-1}).code(), ErrorCode::kConfigError);
    EXPECT_EQ(store_->set_table_options("missing", {1}).code(), ErrorCode::kInvalid);
}

TEST_F(StoreTest, CatalogMetaRoundTrip) {
    ASSERT_TRUE(store_->put_meta("ks/a", "1").is_ok());
    ASSERT_TRUE(store_->put_meta("ks/b", "2").is_ok());
    ASSERT_TRUE(store_->put_meta("kt/c", "3").is_ok());
    ASSERT_TRUE(store_->put_meta("ks/a", "1b").is_ok());
    auto list = store_->list_meta("ks/");
    ASSERT_TRUE(list.is_ok());
    using KV = std::vector<std::pair<std::string, std::string>>;
    EXPECT_EQ(*list, (KV{{"ks/a", "1b"}, {"ks/b", "2"}}));
    ASSERT_TRUE(store_->delete_meta("ks/a").is_ok());
    EXPECT_FALSE(store_->get_meta("ks/a")->has_value());
    EXPECT_EQ(store_->list_meta("")->size(), 2u);
    // Table data never leaks into the catalog.
    apply(write_row("ks/z", "c", row({}, 1)));
    EXPECT_EQ(store_->list_meta("ks/")->size(), 1u);
}

TEST_F(StoreTest, ConcurrentCounterIncrementsAndReads) {
    constexpr int kThreads = 4, kIncrements = 200;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < kIncrements; ++i) {
                EXPECT_TRUE(
                    store_->apply("t", write_row("pk01", "c", row({counter(1, 1, i)}))).is_ok());
                if (i % 50 == 0) (void)read_rows(*store_, "t", "pk01", clock_);
            }
        });
    }
    threads.emplace_back([&] { EXPECT_TRUE(store_->flush().is_ok()); });
    for (auto& t : threads)
        t.join();
    auto rs = rows("pk01");
    ASSERT_EQ(rs.size(), 1u);
    EXPECT_EQ(decode_counter(*value_of(rs[0], 1)), kThreads * kIncrements);
}

TEST_F(StoreTest, ExposesRocksDbProperties) {
    apply(write_row("pk01", "c1", row({}, 1)));
    ASSERT_TRUE(store_->flush().is_ok());
    EXPECT_TRUE(store_->property("rocksdb.stats").has_value());
    EXPECT_FALSE(store_->property("rocksdb.no-such-property").has_value());
    auto files = store_->table_property("t", "rocksdb.num-files-at-level0");
    ASSERT_TRUE(files.has_value());
    EXPECT_EQ(*files, "1");
    EXPECT_TRUE(store_->table_int_property("t", "rocksdb.estimate-num-keys").has_value());
    EXPECT_FALSE(store_->table_property("missing", "rocksdb.stats").has_value());
}

}  // namespace
}  // namespace tessel::storage
