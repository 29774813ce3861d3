// Failures surface as statuses, never crashes: unopenable directories and
// corrupt records.
#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include <fstream>

#include "storage_test_util.h"

namespace tessel::storage {
namespace {

using namespace testing;

TEST(StoreErrors, OpeningAFileAsDirectoryFails) {
    TempDir dir;
    const std::string file = dir.path() + "/plain-file";
    std::ofstream(file) << "not a database";
    auto s = Store::open(file + "/db");
    ASSERT_FALSE(s.is_ok());
    EXPECT_EQ(s.status().code(), ErrorCode::kServerError);
    EXPECT_NE(s.status().message().find("Cannot open storage"), std::string::npos);
}

// Writes raw bytes under a key of table "t", bypassing the store.
void put_raw(const std::string& path, const std::string& key, const std::string& value) {
    std::vector<std::string> names;
    ASSERT_TRUE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), path, &names).ok());
    std::vector<rocksdb::ColumnFamilyDescriptor> cfs;
    for (const auto& n : names)
        cfs.emplace_back(n, rocksdb::ColumnFamilyOptions());
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    rocksdb::DB* db = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(rocksdb::DBOptions(), path, cfs, &handles, &db).ok());
    for (size_t i = 0; i < names.size(); ++i) {
        if (names[i] == "t") {
            EXPECT_TRUE(db->Put(rocksdb::WriteOptions(), handles[i], key, value).ok());
        }
    }
    for (auto* h : handles)
        db->DestroyColumnFamilyHandle(h);
    delete db;
}

TEST_F(StoreTest, CorruptRowIsReportedAsServerError) {
    store_.reset();
    std::string good;
    encode_row(4, row({}, 5), &good);
    put_raw(dir_.path(), row_key("pk01", "c1"), good);
    put_raw(dir_.path(), row_key("pk01", "c2"), "\x01R\x04garbage");
    reopen();
    auto r = store_->read_partition("t", "pk01", {}, clock_);
    ASSERT_TRUE(r.is_ok());
    Row row1;
    EXPECT_TRUE((*r)->next(&row1)) << (*r)->status().to_string();
    EXPECT_FALSE((*r)->next(&row1));
    ASSERT_FALSE((*r)->status().is_ok());
    EXPECT_EQ((*r)->status().code(), ErrorCode::kServerError);

    // A scan finds the partition live (c1), and the reader it hands out
    // then fails on c2.
    auto sc = store_->scan_partitions("t", {}, clock_);
    ASSERT_TRUE(sc.is_ok());
    ASSERT_TRUE((*sc)->next());
    auto pr = (*sc)->read({});
    ASSERT_TRUE(pr.is_ok());
    EXPECT_TRUE((*pr)->next(&row1));
    EXPECT_FALSE((*pr)->next(&row1));
    EXPECT_EQ((*pr)->status().code(), ErrorCode::kServerError);
}

TEST_F(StoreTest, CorruptHeaderFailsTheRead) {
    store_.reset();
    put_raw(dir_.path(), header_key("pk01"), std::string("\x01H\x04\x01", 4));
    reopen();
    auto r = store_->read_partition("t", "pk01", {}, clock_);
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.status().code(), ErrorCode::kServerError);
}

}  // namespace
}  // namespace tessel::storage
