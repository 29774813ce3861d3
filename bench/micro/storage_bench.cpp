// Micro-benchmarks of the storage engine against raw RocksDB on the same
// keys: what the merge-operand write path and the reconciling read path cost
// over a plain Put/Get (default options, WAL on, no fsync per write).
#include <benchmark/benchmark.h>
#include <rocksdb/db.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>

#include "storage/store.h"

namespace {

using namespace tessel::storage;

constexpr int kPrefill = 10000;

struct TempDir {
    TempDir() {
        std::string tmpl =
            (std::filesystem::temp_directory_path() / "tessel-bench-XXXXXX").string();
        path = mkdtemp(tmpl.data());
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    std::string path;
};

// "p" + 8-byte big-endian index: fixed width, so self-delimiting.
std::string partition_key(uint64_t i) {
    std::string k(9, 'p');
    for (int b = 8; b >= 1; --b, i >>= 8)
        k[b] = static_cast<char>(i & 0xff);
    return k;
}

// One partition per key, one clustering row with one 100-byte cell.
PartitionMutation mutation(uint64_t i, const std::string& value) {
    PartitionMutation m;
    m.partition_key = partition_key(i);
    RowFragment r;
    r.marker.timestamp = static_cast<Timestamp>(i + 1);
    Cell c;
    c.column_id = 1;
    c.timestamp = static_cast<Timestamp>(i + 1);
    c.value = value;
    r.cells.push_back(std::move(c));
    m.rows.emplace_back("c", std::move(r));
    return m;
}

std::unique_ptr<Store> open_store(const std::string& path) {
    auto s = Store::open(path);
    if (!s.is_ok() || !(*s)->create_table("t").is_ok()) abort();
    return std::move(*s);
}

void BM_StoreApplySingleRow(benchmark::State& state) {
    TempDir dir;
    auto store = open_store(dir.path);
    const std::string value(100, 'v');
    uint64_t i = 0;
    for (auto _ : state) {
        auto st = store->apply("t", mutation(i++, value));
        if (!st.is_ok()) state.SkipWithError(st.message().c_str());
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_StoreApplySingleRow);

void BM_StoreReadRow(benchmark::State& state) {
    TempDir dir;
    auto store = open_store(dir.path);
    const std::string value(100, 'v');
    for (int i = 0; i < kPrefill; ++i)
        (void)store->apply("t", mutation(i, value));
    if (state.range(0)) (void)store->flush();  // 1: read from SST files
    SliceSpec slice;
    slice.start = {"c", true};
    slice.end = {"c", true};
    uint64_t i = 0;
    Row row;
    for (auto _ : state) {
        auto r = store->read_partition("t", partition_key(i++ % kPrefill), slice, 0);
        if (!r.is_ok() || !(*r)->next(&row)) state.SkipWithError("row not found");
        benchmark::DoNotOptimize(row);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_StoreReadRow)->Arg(0)->Arg(1);

std::unique_ptr<rocksdb::DB> open_raw(const std::string& path) {
    rocksdb::Options o;
    o.create_if_missing = true;
    rocksdb::DB* db = nullptr;
    if (!rocksdb::DB::Open(o, path, &db).ok()) abort();
    return std::unique_ptr<rocksdb::DB>(db);
}

// The same key bytes Store writes for the row.
std::string raw_key(uint64_t i) {
    std::string k = partition_key(i);
    k.append(
        "\x02"
        "c");
    return k;
}

void BM_RocksDbPut(benchmark::State& state) {
    TempDir dir;
    auto db = open_raw(dir.path);
    const std::string value(100, 'v');
    uint64_t i = 0;
    for (auto _ : state) {
        auto s = db->Put(rocksdb::WriteOptions(), raw_key(i++), value);
        if (!s.ok()) state.SkipWithError(s.ToString().c_str());
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RocksDbPut);

void BM_RocksDbGet(benchmark::State& state) {
    TempDir dir;
    auto db = open_raw(dir.path);
    const std::string value(100, 'v');
    for (int i = 0; i < kPrefill; ++i)
        (void)db->Put(rocksdb::WriteOptions(), raw_key(i), value);
    if (state.range(0)) (void)db->Flush(rocksdb::FlushOptions());
    uint64_t i = 0;
    std::string out;
    for (auto _ : state) {
        auto s = db->Get(rocksdb::ReadOptions(), raw_key(i++ % kPrefill), &out);
        if (!s.ok()) state.SkipWithError(s.ToString().c_str());
        benchmark::DoNotOptimize(out);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RocksDbGet)->Arg(0)->Arg(1);

}  // namespace

BENCHMARK_MAIN();
