// system.tablets of a cluster map: each tablet's replicas, and the stage and
// endpoints of a replica moving (host ids as uuid text; null when none moves).
#include "system/tablets_table.h"

#include <gtest/gtest.h>

#include <map>

#include "schema/catalog.h"
#include "system/cell_encoding.h"

namespace tessel::system {
namespace {

// A replica holding nothing: system.tablets only asks it for statistics.
class EmptyReplica final : public query::Replica {
  public:
    Task<Status> apply(const std::string&, const storage::PartitionMutation&,
                       const query::RequestOptions&) override {
        co_return Status::ok();
    }
    Task<Result<std::unique_ptr<query::PartitionStream>>> read(
        const std::string&, const std::string&, const query::SliceSpec&, int64_t,
        const query::RequestOptions&) override {
        co_return Status::server("not readable");
    }
    Task<Result<std::unique_ptr<query::PartitionCursor>>> scan(
        const std::string&, const query::KeyRange&, int64_t,
        const query::RequestOptions&) override {
        co_return Status::server("not scannable");
    }
    Task<Result<bool>> cas(const std::string&, const std::string&, const query::RequestOptions&,
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
};

// system.tablets' columns, in order.
const std::vector<std::string> kColumns = {
    "keyspace_name", "table_name", "tablet_id", "range_start",   "range_end",
    "shard",         "size_bytes", "rows",      "reads_per_sec", "writes_per_sec",
    "bytes_per_sec", "replicas",   "stage",     "moving_from",   "moving_to"};

std::string host(char c) {
    return std::string(16, c);
}

class TabletsTableTest : public ::testing::Test {
  protected:
    TabletsTableTest() : router(&replica, &catalog, nullptr, options()) {}
    static query::TabletRouterOptions options() {
        query::TabletRouterOptions o;
        o.shared_maps = true;
        return o;
    }
    void SetUp() override {
        KeyspaceOptions ko;
        ko.replication = StringMap{{"class", "SimpleStrategy"}, {"replication_factor", "2"}};
        ASSERT_TRUE(catalog.create_keyspace("ks", ko).is_ok());
        TableSpec spec;
        spec.keyspace = "ks";
        spec.name = "kv";
        spec.columns = {{"k", TypeSpec::simple("int"), false},
                        {"v", TypeSpec::simple("text"), false}};
        spec.partition_key = {"k"};
        auto r = catalog.create_table(spec);
        ASSERT_TRUE(r.is_ok()) << r.status().message();
        table_id = catalog.snapshot()->keyspaces.at("ks")->tables.at("kv")->storage_name();
    }

    // Rows as maps column -> text value (null cells left out).
    std::vector<std::map<std::string, std::string>> rows() {
        auto table = make_tablets_table(router, catalog, [](const std::string& h) {
            return "10.0.0." + std::to_string(h[0] - 'a' + 1);
        });
        EXPECT_NE(table->schema_cql().find(
                      "replicas frozen<list<text>>, stage text, moving_from text, moving_to text"),
                  std::string::npos);
        auto r = table->rows();
        EXPECT_TRUE(r.is_ok());
        std::vector<std::map<std::string, std::string>> out;
        if (!r.is_ok()) return out;
        for (const auto& row : *r) {
            EXPECT_EQ(row.size(), kColumns.size());
            std::map<std::string, std::string> m;
            for (size_t i = 0; i < row.size() && i < kColumns.size(); ++i) {
                if (row[i]) m[kColumns[i]] = *row[i];
            }
            out.push_back(std::move(m));
        }
        return out;
    }

    EmptyReplica replica;
    Catalog catalog;
    query::TabletRouter router;
    std::string table_id;
};

TEST_F(TabletsTableTest, ShowsTheStageAndEndpointsOfAMovingReplica) {
    auto tablets = TabletMap::initial_hash(2, 1, 0).tablets();
    for (auto& t : tablets)
        t.replicas = {host('a'), host('b')};
    tablets[1].transition =
        TabletTransition{TransitionStage::kWriteBothReadNew, host('b'), host('c'), 5};
    const auto map = TabletMap::of(true, tablets).value();
    ASSERT_TRUE(router.apply_remote(table_id, map.encode()).is_ok());

    const auto got = rows();
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[0].count("stage"), 0u);  // null: nothing moves
    EXPECT_EQ(got[0].count("moving_from"), 0u);
    EXPECT_EQ(got[0].count("moving_to"), 0u);
    EXPECT_EQ(got[1].at("stage"), "write_both_read_new");
    EXPECT_EQ(got[1].at("moving_from"), "62626262-6262-6262-6262-626262626262");
    EXPECT_EQ(got[1].at("moving_to"), "63636363-6363-6363-6363-636363636363");
    EXPECT_EQ(got[1].at("moving_from"), uuid_to_string(host('b')));
    // `replicas` stays the set the tablet has until the move ends.
    EXPECT_EQ(got[1].at("replicas"), text_list_cell({"10.0.0.1", "10.0.0.2"}));
}

}  // namespace
}  // namespace tessel::system
