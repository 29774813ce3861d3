// Consistency levels, with the native protocol's codes and names.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace tessel::cluster {

struct Replication;

enum class Consistency : uint16_t {
    kAny = 0x0000,
    kOne = 0x0001,
    kTwo = 0x0002,
    kThree = 0x0003,
    kQuorum = 0x0004,
    kAll = 0x0005,
    kLocalQuorum = 0x0006,
    kEachQuorum = 0x0007,
    kSerial = 0x0008,
    kLocalSerial = 0x0009,
    kLocalOne = 0x000A,
};

// The level of a protocol code; nullopt for a code the protocol does not define.
std::optional<Consistency> consistency_from_code(uint16_t code);

// "ONE", "LOCAL_QUORUM", ... as Cassandra prints them in error messages.
std::string_view consistency_name(Consistency c);

inline bool is_serial(Consistency c) {
    return c == Consistency::kSerial || c == Consistency::kLocalSerial;
}

// How many replica answers a request at `c` waits for, counted as Cassandra
// counts them: LOCAL_* levels count the coordinator's data centre only,
// EACH_QUORUM a quorum in every data centre, the others every replica.
class ReplicaCount {
  public:
    // `replica_dcs`: the data centre of each of the request's replicas.
    ReplicaCount(Consistency c, const Replication& replication, const std::string& local_dc,
                 const std::vector<std::string>& replica_dcs);

    int block_for() const { return block_for_; }
    // A replica the tablet is moving to (write-only while it streams): as in
    // Cassandra, it raises the count by one where its answer counts, so the
    // replicas the tablet ends with hold what the level promised.
    void add_pending(const std::string& dc);
    // Whether an answer from a replica in `dc` counts.
    bool counts(const std::string& dc) const;
    // Unavailable ("Cannot achieve consistency level X") unless the replicas
    // of `up_dcs` (the live ones) can satisfy the level.
    Status check_alive(const std::vector<std::string>& up_dcs) const;
    // True once these answers satisfy the level.
    bool satisfied(const std::map<std::string, int>& answers_per_dc) const;
    // Answers that count, summed.
    int counted(const std::map<std::string, int>& answers_per_dc) const;

    Consistency consistency() const { return c_; }

  private:
    Consistency c_;
    std::string local_dc_;
    int block_for_ = 1;
    std::map<std::string, int> per_dc_;  // EACH_QUORUM: the quorum of each DC
};

// An error with Cassandra's replica counts in Status::replicas.
Status unavailable(Consistency c, int required, int alive);
Status write_timeout(Consistency c, int received, int block_for, const char* write_type);
Status read_timeout(Consistency c, int received, int block_for, bool data_present);

}  // namespace tessel::cluster
