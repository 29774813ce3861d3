#include "workloads.h"

#include <gtest/gtest.h>

#include <set>

namespace tessel::bench {
namespace {

const Phase& phase(const Workload& w, const std::string& name) {
    for (const auto& p : w.phases)
        if (p.name == name) return p;
    ADD_FAILURE() << "no phase " << name;
    return w.phases.front();
}

TEST(Workloads, UnknownNameIsInvalidAndListsTheKnownOnes) {
    auto w = make_workload("tpcc", {});
    ASSERT_FALSE(w.is_ok());
    EXPECT_EQ(w.status().code(), ErrorCode::kInvalid);
    EXPECT_NE(w.status().message().find("logistics"), std::string::npos);
}

TEST(Workloads, EveryWorkloadHasSchemaAndPhases) {
    for (const auto& name : workload_names()) {
        auto w = make_workload(name, {});
        ASSERT_TRUE(w.is_ok()) << name;
        EXPECT_FALSE(w->cql_schema.empty()) << name;
        EXPECT_FALSE(w->phases.empty()) << name;
        Rng rng(1);
        for (const auto& p : w->phases) {
            std::vector<Value> values;
            p.make(0, rng, &values);
            size_t markers = 0;
            for (char c : p.cql)
                markers += c == '?';
            EXPECT_EQ(values.size(), markers) << name << "." << p.name;
            if (p.on_postgres) {
                // The last PostgreSQL parameter matches the last CQL marker.
                std::string last = std::to_string(markers);
                EXPECT_NE(p.pg_sql.find('$' + last), std::string::npos);
            }
        }
    }
}

TEST(Workloads, KvReadsOnlyKeysThatWereWritten) {
    WorkloadOptions o;
    o.keys = 1000;
    auto w = make_workload("kv", o);
    ASSERT_TRUE(w.is_ok());
    Rng rng(3);
    std::set<int64_t> written;
    std::vector<Value> v;
    for (uint64_t seq = 0; seq < 50; ++seq) {
        v.clear();
        phase(*w, "write").make(seq, rng, &v);
        written.insert(v[0].i);
        EXPECT_EQ(v[1].s.size(), 100u);
    }
    EXPECT_EQ(written.size(), 50u);  // distinct keys
    for (int i = 0; i < 500; ++i) {
        v.clear();
        phase(*w, "read").make(0, rng, &v);
        EXPECT_TRUE(written.count(v[0].i)) << v[0].i;
    }
}

TEST(Workloads, TimeseriesFallsBackWithoutTimeBucket) {
    auto w = make_workload("timeseries", {});
    ASSERT_TRUE(w.is_ok());
    const SchemaStep& s = w->cql_schema.front();
    EXPECT_NE(s.cql.find("time_bucket"), std::string::npos);
    EXPECT_EQ(s.fallback_cql.find("time_bucket"), std::string::npos);
    EXPECT_EQ(s.feature, "time_bucket");
}

TEST(Workloads, TimeseriesRangeCoversWrittenPoints) {
    WorkloadOptions o;
    o.series = 1;
    o.range_points = 10;
    auto w = make_workload("timeseries", o);
    ASSERT_TRUE(w.is_ok());
    Rng rng(5);
    std::vector<Value> v;
    int64_t first = 0, last = 0;
    for (uint64_t seq = 0; seq < 100; ++seq) {
        v.clear();
        phase(*w, "write").make(seq, rng, &v);
        if (seq == 0) first = v[3].i;
        last = v[3].i;
    }
    EXPECT_EQ(last - first, 99 * o.point_interval_ms);
    for (int i = 0; i < 100; ++i) {
        v.clear();
        phase(*w, "range").make(0, rng, &v);
        EXPECT_GE(v[3].i, first);
        EXPECT_LE(v[4].i, last + o.point_interval_ms);
        EXPECT_EQ(v[4].i - v[3].i, 10 * o.point_interval_ms);
    }
}

TEST(Workloads, HotdayWritesTodayWithDistinctIds) {
    auto w = make_workload("hotday", {});
    ASSERT_TRUE(w.is_ok());
    ASSERT_EQ(w->cql_schema.size(), 2u);
    EXPECT_NE(w->cql_schema[1].cql.find("write_sharding"), std::string::npos);
    EXPECT_EQ(w->cql_schema[1].feature, "write_sharding");
    Rng rng(1);
    std::set<std::string> ids;
    std::vector<Value> v;
    for (uint64_t seq = 0; seq < 1000; ++seq) {
        v.clear();
        phase(*w, "sharded16").make(seq, rng, &v);
        EXPECT_EQ(v[0].i, today_days());
        ids.insert(v[1].s);
    }
    EXPECT_EQ(ids.size(), 1000u);
    EXPECT_FALSE(phase(*w, "sharded16").on_postgres);
}

TEST(Workloads, WidePartitionFillsTheRequestedSize) {
    WorkloadOptions o;
    o.wide_bytes = 10'000'000;
    o.wide_row_bytes = 1000;
    auto w = make_workload("widepartition", o);
    ASSERT_TRUE(w.is_ok());
    EXPECT_EQ(phase(*w, "fill").fixed_ops, 10'000u);
    EXPECT_TRUE(phase(*w, "page").paging_scan);
    EXPECT_EQ(phase(*w, "page").page_size, 1000);
}

}  // namespace
}  // namespace tessel::bench
