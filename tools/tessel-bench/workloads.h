// Workloads: the seed documents' access patterns, each as a schema (for CQL
// and for PostgreSQL, with the same primary key shape) and a sequence of
// phases whose operations any system driver can run.
//
// A Workload object carries the state its phases share (how many keys were
// written, each series' last point...), so every system gets a fresh one
// from make_workload() and reads only what it wrote itself.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "common/status.h"
#include "values.h"

namespace tessel::bench {

struct WorkloadOptions {
    uint64_t keys = 1'000'000;           // kv key space
    size_t value_size = 100;             // kv and hotday payload bytes
    uint64_t orders = 10'000;            // logistics orders
    uint64_t series = 1'000;             // timeseries metric+host+kind series
    int64_t point_interval_ms = 60'000;  // timeseries spacing of one series' points
    int range_points = 60;               // timeseries points per range read
    int shards = 16;                     // hotday write_sharding shards
    uint64_t wide_bytes = 64ull << 20;   // widepartition payload to fill
    size_t wide_row_bytes = 1000;        // widepartition payload per row
    int page_size = 1000;                // widepartition page size
};

// A CQL DDL statement and, when the server may refuse an option Tessel is
// still growing, the statement to use instead and the name of the feature
// the report records as true (first worked) or false (fallback used).
struct SchemaStep {
    std::string cql;
    std::string fallback_cql;
    std::string feature;
};

using Rng = std::mt19937_64;

struct Phase {
    std::string name;  // write, read, latest10, ...
    bool is_write = true;
    std::string cql;     // the statement prepared for Tessel
    std::string pg_sql;  // the statement prepared for PostgreSQL ($1, $2...)
    bool on_postgres = true;
    int32_t page_size = 0;     // CQL page size for reads; 0 = protocol default
    uint64_t fixed_ops = 0;    // run exactly this many operations, no warm-up
    bool paging_scan = false;  // one sequential paged read (widepartition)
    // Bound values of operation `seq`, in statement order. Thread-safe.
    std::function<void(uint64_t seq, Rng& rng, std::vector<Value>* out)> make;
    // Payload bytes an operation writes (reads count the bytes returned).
    size_t write_bytes = 0;
};

struct Workload {
    std::string name;
    std::vector<SchemaStep> cql_schema;  // after the keyspace exists
    std::vector<std::string> pg_schema;  // in schema bench
    std::vector<Phase> phases;
    std::shared_ptr<void> state;  // what the phases share
};

// The names make_workload() knows, in report order.
const std::vector<std::string>& workload_names();

// A fresh workload. Invalid for an unknown name (listing the known ones).
Result<Workload> make_workload(const std::string& name, const WorkloadOptions& options);

// Today's date (UTC) as days since the epoch.
int64_t today_days();

}  // namespace tessel::bench
