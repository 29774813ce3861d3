// Helpers shared by the storage unit tests: a temporary directory per test
// and terse builders for cells, rows and mutations.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "storage/row_codec.h"
#include "storage/store.h"

namespace tessel::storage::testing {

class TempDir {
  public:
    TempDir() {
        std::string tmpl =
            (std::filesystem::temp_directory_path() / "tessel-storage-XXXXXX").string();
        path_ = mkdtemp(tmpl.data());
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    const std::string& path() const { return path_; }

  private:
    std::string path_;
};

inline Cell live(uint32_t col, std::string value, Timestamp ts, std::string path = "",
                 int32_t ttl = 0, int32_t expiry = 0) {
    Cell c;
    c.column_id = col;
    c.path = std::move(path);
    c.kind = Cell::Kind::kLive;
    c.timestamp = ts;
    c.ttl = ttl;
    c.expiry = expiry;
    c.value = std::move(value);
    return c;
}

inline Cell tomb(uint32_t col, Timestamp ts, int32_t local_deletion_time, std::string path = "") {
    Cell c;
    c.column_id = col;
    c.path = std::move(path);
    c.kind = Cell::Kind::kTombstone;
    c.timestamp = ts;
    c.expiry = local_deletion_time;
    return c;
}

inline Cell counter(uint32_t col, int64_t delta, Timestamp ts) {
    Cell c;
    c.column_id = col;
    c.kind = Cell::Kind::kCounterDelta;
    c.timestamp = ts;
    c.value = encode_counter(delta);
    return c;
}

inline RowFragment row(std::vector<Cell> cells, Timestamp marker_ts = kNoTimestamp) {
    RowFragment r;
    r.marker.timestamp = marker_ts;
    r.cells = std::move(cells);
    return r;
}

inline PartitionMutation write_row(std::string pk, std::string ck, RowFragment r) {
    PartitionMutation m;
    m.partition_key = std::move(pk);
    m.rows.emplace_back(std::move(ck), std::move(r));
    return m;
}

inline PartitionMutation delete_row(std::string pk, std::string ck, Timestamp ts, int32_t ldt) {
    RowFragment r;
    r.deletion = {ts, ldt};
    return write_row(std::move(pk), std::move(ck), std::move(r));
}

inline PartitionMutation delete_partition(std::string pk, Timestamp ts, int32_t ldt) {
    PartitionMutation m;
    m.partition_key = std::move(pk);
    m.partition_deletion = {ts, ldt};
    return m;
}

inline PartitionMutation delete_range(std::string pk, ClusteringBound start, ClusteringBound end,
                                      Timestamp ts, int32_t ldt) {
    PartitionMutation m;
    m.partition_key = std::move(pk);
    m.range_tombstones.push_back({std::move(start), std::move(end), {ts, ldt}});
    return m;
}

// The live cell (column, path) of a row, if any.
inline std::optional<Cell> cell_of(const Row& r, uint32_t col, const std::string& path = "") {
    for (const auto& c : r.cells) {
        if (c.column_id == col && c.path == path) return c;
    }
    return std::nullopt;
}

inline std::optional<std::string> value_of(const Row& r, uint32_t col,
                                           const std::string& path = "") {
    auto c = cell_of(r, col, path);
    if (!c) return std::nullopt;
    return c->value;
}

inline std::vector<Row> read_rows(Store& store, const std::string& table, const std::string& pk,
                                  int64_t now, const SliceSpec& slice = {}) {
    auto reader = store.read_partition(table, pk, slice, now);
    EXPECT_TRUE(reader.is_ok()) << (reader.is_ok() ? "" : reader.status().to_string());
    std::vector<Row> rows;
    if (!reader.is_ok()) return rows;
    Row r;
    while ((*reader)->next(&r))
        rows.push_back(r);
    EXPECT_TRUE((*reader)->status().is_ok()) << (*reader)->status().to_string();
    return rows;
}

inline std::vector<std::string> clusterings(const std::vector<Row>& rows) {
    std::vector<std::string> out;
    for (const auto& r : rows)
        out.push_back(r.clustering);
    return out;
}

// A store on a fresh temporary directory with one table "t" and a clock the
// test controls.
class StoreTest : public ::testing::Test {
  protected:
    void SetUp() override { reopen(); }
    void TearDown() override { store_.reset(); }

    StoreOptions options() {
        StoreOptions o;
        o.clock = [this] { return clock_; };
        o.stats_flush_period_ms = 0;
        return o;
    }
    void reopen(StoreOptions o) {
        store_.reset();
        auto s = Store::open(dir_.path(), std::move(o));
        ASSERT_TRUE(s.is_ok()) << s.status().to_string();
        store_ = std::move(*s);
        if (!store_->has_table("t")) {
            ASSERT_TRUE(store_->create_table("t").is_ok());
        }
    }
    void reopen() { reopen(options()); }
    // The store clock as a local deletion time.
    int32_t now32() const { return static_cast<int32_t>(clock_); }
    void apply(const PartitionMutation& m) {
        auto s = store_->apply("t", m);
        ASSERT_TRUE(s.is_ok()) << s.to_string();
    }
    std::vector<Row> rows(const std::string& pk, const SliceSpec& slice = {}) {
        return read_rows(*store_, "t", pk, clock_, slice);
    }

    TempDir dir_;
    int64_t clock_ = 1'700'000'000;
    std::unique_ptr<Store> store_;
};

// A StoreTest with a second, empty replica of table "t" (other_).
class TwoStoreTest : public StoreTest {
  protected:
    void SetUp() override {
        StoreTest::SetUp();
        auto s = Store::open(other_dir_.path(), options());
        ASSERT_TRUE(s.is_ok());
        other_ = std::move(*s);
        ASSERT_TRUE(other_->create_table("t").is_ok());
    }
    void TearDown() override {
        other_.reset();
        StoreTest::TearDown();
    }

    // The half-open key range [start, end).
    static KeyRange keys(std::string start, std::string end) {
        KeyRange r;
        r.start_key = std::move(start);
        r.end_key = std::move(end);
        r.end_inclusive = false;
        return r;
    }

    TempDir other_dir_;
    std::unique_ptr<Store> other_;
};

}  // namespace tessel::storage::testing
