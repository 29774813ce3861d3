// Full scans of time-bucketed tables: each logical partition comes back once,
// with the rows of all its buckets in clustering order, whether the table is
// hash or ordered, also write-sharded, paged, or larger than one batch of the
// scan (BucketedCursor::kBatch logical partitions).
#include <map>

#include "test_db.h"
#include "types/bytes_util.h"

namespace tessel::testing {
namespace {

class BucketedScanTest : public ::testing::Test {
  protected:
    void SetUp() override {
        t.create_keyspace("ks");
        t.ok("USE ks");
    }

    void create(const std::string& name, const std::string& extra) {
        t.ok("CREATE TABLE " + name +
             " (host int, ts timestamp, v int, PRIMARY KEY (host, ts)) WITH time_bucket = "
             "{'column': 'ts', 'width': '1h'}" +
             extra);
    }

    // hosts 0..n-1, each with `per` rows an hour apart (so `per` buckets).
    void fill(const std::string& name, int hosts, int per) {
        for (int h = 0; h < hosts; ++h) {
            for (int i = 0; i < per; ++i) {
                const int64_t ts = 1700000000000LL + i * 3600000LL + h;
                t.ok("INSERT INTO " + name + " (host, ts, v) VALUES (" + std::to_string(h) + ", " +
                     std::to_string(ts) + ", " + std::to_string(i) + ")");
            }
        }
    }

    // host -> the v values in the order read, over every page.
    std::map<int, std::vector<int>> scan(const std::string& cql, int page_size,
                                         size_t* partitions_seen) {
        std::map<int, std::vector<int>> out;
        QueryOptions o;
        o.page_size = page_size;
        int last = -1;
        *partitions_seen = 0;
        while (true) {
            auto rs = t.ok(cql, o);
            for (const auto& row : rs.rows) {
                const int h = bytes::read_i32(*row[0]);
                if (h != last) ++*partitions_seen;
                last = h;
                out[h].push_back(bytes::read_i32(*row[1]));
            }
            if (rs.paging_state.empty()) break;
            o.paging_state = rs.paging_state;
        }
        return out;
    }

    void expect_each_once(const std::string& table, int hosts, int per, int page_size) {
        size_t seen = 0;
        auto rows = scan("SELECT host, v FROM " + table + " WHERE v >= 0 ALLOW FILTERING",
                         page_size, &seen);
        EXPECT_EQ(rows.size(), static_cast<size_t>(hosts)) << table;
        EXPECT_EQ(seen, static_cast<size_t>(hosts)) << table << ": a partition came back twice";
        std::vector<int> want;
        for (int i = 0; i < per; ++i)
            want.push_back(i);
        for (const auto& [h, vs] : rows)
            EXPECT_EQ(vs, want) << table << " host " << h;
        EXPECT_EQ(t.rows("SELECT DISTINCT host FROM " + table).size(), static_cast<size_t>(hosts));
        EXPECT_EQ(t.rows("SELECT COUNT(*) FROM " + table + " WHERE v >= 0 ALLOW FILTERING"),
                  std::vector<std::string>{std::to_string(hosts * per)});
    }

    TestDb t;
};

TEST_F(BucketedScanTest, HashTable) {
    create("m", "");
    fill("m", 20, 5);
    expect_each_once("m", 20, 5, 3);
    expect_each_once("m", 20, 5, 1000);
}

TEST_F(BucketedScanTest, OrderedTableInKeyOrder) {
    create("m", " AND distribution = 'ordered'");
    fill("m", 12, 4);
    expect_each_once("m", 12, 4, 5);
    auto hosts = t.rows("SELECT DISTINCT host FROM m");
    ASSERT_EQ(hosts.size(), 12u);
    for (int h = 0; h < 12; ++h)
        EXPECT_EQ(hosts[h], std::to_string(h));
}

TEST_F(BucketedScanTest, ShardedAndBucketed) {
    create("m", " AND write_sharding = {'shards': 4}");
    fill("m", 15, 6);
    expect_each_once("m", 15, 6, 4);
}

TEST_F(BucketedScanTest, MoreLogicalPartitionsThanOneBatch) {
    create("m", "");
    fill("m", 1100, 2);
    expect_each_once("m", 1100, 2, 500);
}

}  // namespace
}  // namespace tessel::testing
