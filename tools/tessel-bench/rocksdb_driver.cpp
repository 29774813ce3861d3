#include "rocksdb_driver.h"

#include <rocksdb/db.h>
#include <rocksdb/version.h>

#include <filesystem>
#include <thread>

namespace tessel::bench {

RocksSystem::RocksSystem(std::unique_ptr<rocksdb::DB> db) : db_(std::move(db)) {}

RocksSystem::~RocksSystem() {
    if (db_) (void)db_->Close();
}

Result<std::unique_ptr<RocksSystem>> RocksSystem::open(const std::string& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return Status::server("cannot create " + dir + ": " + ec.message());
    rocksdb::Options options;
    options.create_if_missing = true;
    rocksdb::DB* raw = nullptr;
    rocksdb::Status s = rocksdb::DB::Open(options, dir, &raw);
    if (!s.ok()) return Status::server("RocksDB open " + dir + ": " + s.ToString());
    return std::unique_ptr<RocksSystem>(new RocksSystem(std::unique_ptr<rocksdb::DB>(raw)));
}

std::string RocksSystem::version() {
    return std::to_string(ROCKSDB_MAJOR) + "." + std::to_string(ROCKSDB_MINOR) + "." +
           std::to_string(ROCKSDB_PATCH);
}

Result<PhaseResult> RocksSystem::run_phase(const Phase& phase, const LoadOptions& options,
                                           const std::string& label) {
    int n = std::max(options.connections, 1);
    OpClock clock(options, Clock::now());
    std::vector<PhaseStats> per(static_cast<size_t>(n));
    {
        Progress bar(label, clock, options, true);
        std::vector<std::thread> threads;
        for (int i = 0; i < n; ++i) {
            threads.emplace_back([&, i] {
                PhaseStats& st = per[static_cast<size_t>(i)];
                Rng rng(0x5eed0000ULL + static_cast<uint64_t>(i) * 7919);
                std::vector<Value> values;
                rocksdb::WriteOptions wo;  // WAL on, no fsync
                rocksdb::ReadOptions ro;
                std::string key, got;
                while (auto t = clock.claim()) {
                    if (clock.fixed_rate()) std::this_thread::sleep_until(t->intended);
                    values.clear();
                    phase.make(t->seq, rng, &values);
                    key = encode_cql(values.at(0));
                    rocksdb::Status s;
                    if (phase.is_write) {
                        s = db_->Put(wo, key, values.at(1).s);
                    } else {
                        s = db_->Get(ro, key, &got);
                        if (s.IsNotFound()) s = rocksdb::Status::OK();
                    }
                    bool ok = s.ok();
                    if (!ok) st.fail(s.ToString());
                    if (ok && t->measured) {
                        st.bytes += phase.is_write ? values.at(1).s.size() : got.size();
                        if (!phase.is_write && !got.empty()) ++st.rows;
                    }
                    got.clear();
                    st.complete(*t, ok, Clock::now());
                    clock.completed.fetch_add(1, std::memory_order_relaxed);
                }
            });
        }
        for (auto& t : threads)
            t.join();
    }
    PhaseStats all;
    for (const auto& s : per)
        all.add(s);
    PhaseResult r = summarize(all, clock, options);
    r.connections = n;
    r.depth = 1;
    r.phase = phase.name;
    return r;
}

}  // namespace tessel::bench
