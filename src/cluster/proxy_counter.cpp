// StorageProxy: counter writes on a cluster (Cassandra's counter leader).
//
// A counter write goes to one replica of the partition, its leader (this
// node when it is a replica, else a live replica of this data centre). The
// leader adds each delta to its own shard of the counter (counter_shards.h)
// under a lock, applies the shards locally and replicates them like any
// write, at the request's consistency level. Shards merge by clock, so a
// replica that receives one twice (a hint, a repair) counts it once.
//
// Retrying a counter write that timed out may count it twice: the caveat
// Cassandra documents (counter writes are not idempotent).
#include <random>

#include "cluster/storage_proxy.h"

namespace tessel::cluster {
namespace {

bool has_counter_deltas(const storage::PartitionMutation& m) {
    auto in = [](const storage::RowFragment& f) {
        for (const auto& c : f.cells) {
            if (c.kind == storage::Cell::Kind::kCounterDelta) return true;
        }
        return false;
    };
    if (m.static_row && in(*m.static_row)) return true;
    for (const auto& [_, f] : m.rows) {
        if (in(f)) return true;
    }
    return false;
}

}  // namespace

Task<Status> StorageProxy::mutate(const std::string& table_id, const storage::PartitionMutation& m,
                                  const Placement& placement, const RequestOptions& options) {
    if (has_counter_deltas(m)) return mutate_counter(table_id, m, placement, options);
    return replicate(table_id, m, placement, options, false);
}

Task<Status> StorageProxy::mutate_counter(const std::string& table_id,
                                          const storage::PartitionMutation& m,
                                          const Placement& placement,
                                          const RequestOptions& options) {
    std::string leader;
    int block_for = 1;
    {
        auto view = membership_->view();
        std::vector<std::string> dcs, up_dcs, local, others;
        for (const auto& r : placement.replicas) {
            const NodeInfo* n = view->node(r);
            dcs.push_back(n ? n->dc : std::string());
            const bool up = r == options_.self || (n && view->is_up(r));
            if (!up) continue;
            up_dcs.push_back(dcs.back());
            (dcs.back() == options_.local_dc ? local : others).push_back(r);
        }
        ReplicaCount count(options.consistency, placement.replication, options_.local_dc, dcs);
        TESSEL_CO_RETURN_IF_ERROR(count.check_alive(up_dcs));
        block_for = count.block_for();
        thread_local std::mt19937 rng(std::random_device{}());
        for (const auto& r : local) {
            if (r == options_.self) leader = r;
        }
        if (leader.empty() && !local.empty()) leader = local[rng() % local.size()];
        if (leader.empty() && !others.empty()) leader = others[rng() % others.size()];
        if (leader.empty()) {
            co_return Status(ErrorCode::kUnavailable,
                             "Cannot achieve consistency level " +
                                 std::string(consistency_name(options.consistency)));
        }
    }
    if (leader == options_.self) co_return co_await lead_counter(table_id, m, placement, options);
    CounterLeaderMessage message;
    message.table_id = table_id;
    message.mutation = m;
    message.replicas = placement.replicas;
    message.pending = placement.pending;
    message.replication = placement.replication;
    message.consistency = static_cast<uint16_t>(options.consistency);
    const auto left = options.deadline - std::chrono::steady_clock::now();
    const auto left_ms = std::chrono::duration_cast<std::chrono::milliseconds>(left).count();
    message.timeout_ms = static_cast<uint32_t>(
        std::clamp<int64_t>(left_ms, 1, std::numeric_limits<uint32_t>::max()));
    MessagingResult r =
        co_await send(leader, ReplicaVerb::kCounterLeader, encode(message), options.deadline);
    if (!r.is_ok()) {
        if (r.kind() == MessagingError::Kind::kTimeout ||
            r.kind() == MessagingError::Kind::kUnreachable) {
            co_return write_timeout(options.consistency, 0, block_for, "COUNTER");
        }
        co_return r.status();
    }
    co_return decode_status(*r);
}

Task<Status> StorageProxy::lead_counter(const std::string& table_id,
                                        const storage::PartitionMutation& m,
                                        const Placement& placement, const RequestOptions& options) {
    auto shards = local_->lead_counter(table_id, m, options_.self);
    if (!shards.is_ok()) co_return shards.status();
    RequestOptions ro = options;
    ro.write_type = "COUNTER";
    co_return co_await replicate(table_id, *shards, placement, ro, true);
}

Status StorageProxy::register_handlers(MessagingService& messaging) {
    return messaging.register_handler(
        static_cast<uint16_t>(ReplicaVerb::kCounterLeader),
        [this](const InboundContext&, std::string payload) -> Task<Result<std::string>> {
            CounterLeaderMessage c;
            TESSEL_CO_RETURN_IF_ERROR(decode(payload, &c));
            Placement placement{std::move(c.replicas), std::move(c.pending),
                                std::move(c.replication)};
            RequestOptions ro;
            ro.consistency = static_cast<Consistency>(c.consistency);
            ro.deadline =
                std::chrono::steady_clock::now() + std::chrono::milliseconds(c.timeout_ms);
            ro.write_type = "COUNTER";
            Status st = co_await lead_counter(c.table_id, c.mutation, placement, ro);
            co_return encode_status(st);
        });
}

}  // namespace tessel::cluster
