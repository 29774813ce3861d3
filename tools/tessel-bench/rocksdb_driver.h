// RocksSystem: the kv workload's keys and values put and got directly in a
// RocksDB database with default options (WAL on, no sync), from one or more
// threads: the physical limit of Tessel's storage path on this machine.
#pragma once

#include <memory>
#include <string>

#include "common/status.h"
#include "load.h"
#include "workloads.h"

namespace rocksdb {
class DB;
}

namespace tessel::bench {

class RocksSystem {
  public:
    // Opens (creating) a database in `dir`. Server_error with RocksDB's
    // message on failure.
    static Result<std::unique_ptr<RocksSystem>> open(const std::string& dir);
    ~RocksSystem();

    // Runs a kv phase: a write phase puts (key: the bigint's 8 big-endian
    // bytes, value: the blob), a read phase gets. options.connections is the
    // number of threads; each does one operation at a time.
    Result<PhaseResult> run_phase(const Phase& phase, const LoadOptions& options,
                                  const std::string& label);

    static std::string version();

  private:
    explicit RocksSystem(std::unique_ptr<rocksdb::DB> db);
    std::unique_ptr<rocksdb::DB> db_;
};

}  // namespace tessel::bench
