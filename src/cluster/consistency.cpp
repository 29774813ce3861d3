#include "cluster/consistency.h"

#include "cluster/topology.h"

namespace tessel::cluster {

std::optional<Consistency> consistency_from_code(uint16_t code) {
    if (code > static_cast<uint16_t>(Consistency::kLocalOne)) return std::nullopt;
    return static_cast<Consistency>(code);
}

std::string_view consistency_name(Consistency c) {
    switch (c) {
        case Consistency::kAny:
            return "ANY";
        case Consistency::kOne:
            return "ONE";
        case Consistency::kTwo:
            return "TWO";
        case Consistency::kThree:
            return "THREE";
        case Consistency::kQuorum:
            return "QUORUM";
        case Consistency::kAll:
            return "ALL";
        case Consistency::kLocalQuorum:
            return "LOCAL_QUORUM";
        case Consistency::kEachQuorum:
            return "EACH_QUORUM";
        case Consistency::kSerial:
            return "SERIAL";
        case Consistency::kLocalSerial:
            return "LOCAL_SERIAL";
        case Consistency::kLocalOne:
            return "LOCAL_ONE";
    }
    return "UNKNOWN";
}

namespace {

Status with_replicas(Status st, Consistency c, int received, int block_for, bool data_present) {
    Status::Replicas r;
    r.consistency = static_cast<uint16_t>(c);
    r.received = received;
    r.block_for = block_for;
    r.data_present = data_present;
    st.replicas = r;
    return st;
}

int quorum(int rf) {
    return rf / 2 + 1;
}

}  // namespace

ReplicaCount::ReplicaCount(Consistency c, const Replication& replication,
                           const std::string& local_dc, const std::vector<std::string>& replica_dcs)
    : c_(c), local_dc_(local_dc) {
    const int total = static_cast<int>(replica_dcs.size());
    switch (c) {
        case Consistency::kAny:
        case Consistency::kOne:
        case Consistency::kLocalOne:
            block_for_ = 1;
            break;
        case Consistency::kTwo:
            block_for_ = 2;
            break;
        case Consistency::kThree:
            block_for_ = 3;
            break;
        case Consistency::kQuorum:
        case Consistency::kSerial:
            block_for_ = quorum(replication.total());
            break;
        case Consistency::kAll:
            block_for_ = total;
            break;
        case Consistency::kLocalQuorum:
        case Consistency::kLocalSerial:
            block_for_ = quorum(replication.in_dc(local_dc));
            break;
        case Consistency::kEachQuorum: {
            if (!replication.network_topology) {
                block_for_ = quorum(replication.total());
                break;
            }
            block_for_ = 0;
            for (const auto& [dc, rf] : replication.per_dc) {
                per_dc_[dc] = quorum(rf);
                block_for_ += quorum(rf);
            }
            break;
        }
    }
}

bool ReplicaCount::counts(const std::string& dc) const {
    switch (c_) {
        case Consistency::kLocalOne:
        case Consistency::kLocalQuorum:
        case Consistency::kLocalSerial:
            return dc == local_dc_;
        default:
            return true;
    }
}

void ReplicaCount::add_pending(const std::string& dc) {
    if (c_ == Consistency::kAny || !counts(dc)) return;
    ++block_for_;
    if (!per_dc_.empty()) ++per_dc_[dc];
}

int ReplicaCount::counted(const std::map<std::string, int>& answers) const {
    int n = 0;
    for (const auto& [dc, k] : answers) {
        if (counts(dc)) n += k;
    }
    return n;
}

bool ReplicaCount::satisfied(const std::map<std::string, int>& answers) const {
    if (!per_dc_.empty()) {
        for (const auto& [dc, need] : per_dc_) {
            auto it = answers.find(dc);
            if ((it == answers.end() ? 0 : it->second) < need) return false;
        }
        return true;
    }
    return counted(answers) >= block_for_;
}

Status ReplicaCount::check_alive(const std::vector<std::string>& up_dcs) const {
    std::map<std::string, int> up;
    for (const auto& dc : up_dcs)
        ++up[dc];
    if (c_ == Consistency::kAny) return Status::ok();  // hints make ANY always possible
    if (satisfied(up)) return Status::ok();
    return unavailable(c_, block_for_, counted(up));
}

Status unavailable(Consistency c, int required, int alive) {
    return with_replicas(Status(ErrorCode::kUnavailable, "Cannot achieve consistency level " +
                                                             std::string(consistency_name(c))),
                         c, alive, required, false);
}

Status write_timeout(Consistency c, int received, int block_for, const char* write_type) {
    Status st(ErrorCode::kWriteTimeout,
              "Operation timed out - received only " + std::to_string(received) + " responses.");
    st.detail1 = write_type;
    return with_replicas(std::move(st), c, received, block_for, false);
}

Status read_timeout(Consistency c, int received, int block_for, bool data_present) {
    return with_replicas(
        Status(ErrorCode::kReadTimeout,
               "Operation timed out - received only " + std::to_string(received) + " responses."),
        c, received, block_for, data_present);
}

}  // namespace tessel::cluster
