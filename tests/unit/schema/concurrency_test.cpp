#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "schema/catalog.h"
#include "schema_test_util.h"

namespace tessel {
namespace {

// Readers take snapshots while DDL runs; each snapshot must be internally
// consistent (a table present in it is fully built) and versions must only move on.
TEST(CatalogConcurrency, ReadersSeeConsistentSnapshotsDuringDdl) {
    Catalog catalog;
    ASSERT_TRUE(catalog.create_keyspace("ks", testing::simple_rf()).is_ok());
    std::atomic<bool> done{false};
    std::atomic<int> inconsistent{0};
    std::vector<std::thread> readers;
    for (int r = 0; r < 4; ++r) {
        readers.emplace_back([&] {
            while (!done.load()) {
                auto snap = catalog.snapshot();
                auto ks = snap->keyspace("ks");
                if (!ks) continue;
                for (const auto& [name, t] : ks->tables) {
                    if (t->name != name || t->partition_key().size() != 1 ||
                        t->column("k") == nullptr) {
                        inconsistent.fetch_add(1);
                    }
                }
            }
        });
    }
    std::vector<Uuid> versions;
    for (int i = 0; i < 200; ++i) {
        auto spec = testing::table_spec("ks", "t" + std::to_string(i),
                                        {{"k", "int"}, {"v", "text"}}, {"k"});
        ASSERT_TRUE(catalog.create_table(spec).is_ok());
        if (i % 3 == 0) {
            ASSERT_TRUE(catalog.drop_table("ks", spec.name).is_ok());
        }
        versions.push_back(catalog.version());
    }
    done = true;
    for (auto& t : readers)
        t.join();
    EXPECT_EQ(inconsistent.load(), 0);
    for (size_t i = 1; i < versions.size(); ++i)
        EXPECT_NE(versions[i], versions[i - 1]);
    EXPECT_EQ(catalog.snapshot()->keyspace("ks")->tables.size(), 133u);
}

}  // namespace
}  // namespace tessel
