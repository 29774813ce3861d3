// PgSystem: the same workload phases against PostgreSQL through libpq, with
// the same client concurrency as the CQL side: one connection per Tessel
// connection, each in pipeline mode with up to `depth` statements in flight.
//
// Every statement is followed by its own sync point, so each is its own
// transaction (autocommit, like one CQL write) and an error aborts only it.
// One thread per connection runs a poll loop: send while a slot is free (at a
// fixed rate, not before the operation's intended time), flush, read the
// results in order.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "load.h"
#include "workloads.h"

struct pg_conn;

namespace tessel::bench {

class PgSystem {
  public:
    // Connects `connections` times with the libpq `conninfo` and creates
    // schema bench if missing. Server_error with libpq's message on failure.
    static Result<std::unique_ptr<PgSystem>> open(const std::string& conninfo, int connections);
    ~PgSystem();

    // "15.5" etc.
    std::string server_version() const;

    // Drops and creates the workload's tables in schema bench.
    Status create_schema(const Workload& workload);

    // Runs one phase with synchronous_commit set as asked on every connection.
    Result<PhaseResult> run_phase(const Phase& phase, const LoadOptions& options,
                                  const std::string& label, bool synchronous_commit);

  private:
    explicit PgSystem(std::vector<pg_conn*> conns);
    Status exec_all(const std::string& sql);

    std::vector<pg_conn*> conns_;
    int statement_counter_ = 0;
};

}  // namespace tessel::bench
