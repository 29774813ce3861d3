#include "cluster/migration.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "cluster/node_record.h"

namespace tessel::cluster {
namespace {

constexpr int kConflictRetries = 100;

std::string short_host(const std::string& host) {
    return host_id_hex(host).substr(0, 8);
}

}  // namespace

MigrationDriver::MigrationDriver(EtcdClient etcd, std::string tablets_prefix, MigrationHooks hooks,
                                 MigrationOptions options)
    : etcd_(std::move(etcd)),
      prefix_(std::move(tablets_prefix)),
      hooks_(std::move(hooks)),
      options_(options) {}

Result<MigrationDriver::Read> MigrationDriver::read(const std::string& table_id,
                                                    const std::string& start) const {
    TESSEL_ASSIGN_OR_RETURN(auto got, etcd_.get(prefix_ + table_id));
    if (got.kvs.empty()) return Status::invalid("table " + table_id + " has no tablet map");
    TESSEL_ASSIGN_OR_RETURN(auto map, TabletMap::decode(got.kvs[0].value));
    Read r;
    r.index = map.find(start);
    if (map.at(r.index).start != start) {
        return Status::invalid("table " + table_id + " has no tablet starting there any more");
    }
    r.map = std::move(map);
    r.mod_revision = got.kvs[0].mod_revision;
    return r;
}

Result<std::optional<int64_t>> MigrationDriver::write(const std::string& table_id,
                                                      const TabletMap& map,
                                                      int64_t mod_revision) const {
    const std::string key = prefix_ + table_id;
    TESSEL_ASSIGN_OR_RETURN(
        auto txn, etcd_.txn({Compare::mod_revision_is(key, Compare::Op::kEqual, mod_revision)},
                            {TxnOp::put(key, map.encode())}, {}));
    if (!txn.succeeded) return std::optional<int64_t>();
    return std::optional<int64_t>(txn.revision);
}

Status MigrationDriver::update(const std::string& table_id, const std::string& start,
                               const std::function<Status(Tablet&)>& change, bool barrier) {
    for (int attempt = 0; attempt < kConflictRetries; ++attempt) {
        TESSEL_ASSIGN_OR_RETURN(auto r, read(table_id, start));
        std::vector<Tablet> tablets = r.map.tablets();
        TESSEL_RETURN_IF_ERROR(change(tablets[r.index]));
        TESSEL_ASSIGN_OR_RETURN(auto map, TabletMap::of(r.map.hashed(), std::move(tablets)));
        TESSEL_ASSIGN_OR_RETURN(auto revision, write(table_id, map, r.mod_revision));
        if (!revision) continue;  // another change of the table's map came first
        if (!barrier) return Status::ok();
        return hooks_.barrier(table_id, *revision);
    }
    return Status::server("the tablet map of " + table_id + " keeps changing: gave up");
}

storage::RecordRange MigrationDriver::range_of(const Read& r) const {
    return {r.map.at(r.index).start, r.map.end(r.index).value_or(std::string())};
}

Status MigrationDriver::start(const std::string& table_id, const std::string& start,
                              const std::string& from, const std::string& to) {
    return update(
        table_id, start,
        [&](Tablet& t) -> Status {
            if (t.transition) return Status::invalid("the tablet is already moving");
            if (std::find(t.replicas.begin(), t.replicas.end(), from) == t.replicas.end())
                return Status::invalid("the node moved from is not a replica of the tablet");
            if (std::find(t.replicas.begin(), t.replicas.end(), to) != t.replicas.end())
                return Status::invalid("the node moved to is a replica of the tablet already");
            t.transition =
                TabletTransition{TransitionStage::kWriteBothReadOld, from, to, hooks_.now_ms()};
            return Status::ok();
        },
        /*barrier=*/false);
}

Result<MigrationDriver::Outcome> MigrationDriver::advance(const std::string& table_id,
                                                          const std::string& start,
                                                          const std::atomic<bool>* cancel) {
    Outcome outcome = Outcome::kNone;
    int failed_streams = 0;
    for (;;) {
        if (cancel && cancel->load()) return Status::server("the move was interrupted");
        TESSEL_ASSIGN_OR_RETURN(auto r, read(table_id, start));
        const Tablet& t = r.map.at(r.index);
        if (!t.transition) return outcome;
        const TabletTransition tr = *t.transition;
        const auto set_stage = [&](TransitionStage stage) {
            return update(
                table_id, start,
                [&](Tablet& x) -> Status {
                    if (!x.transition || x.transition->from != tr.from || x.transition->to != tr.to)
                        return Status::invalid("the tablet's move changed meanwhile");
                    x.transition->stage = stage;
                    return Status::ok();
                },
                /*barrier=*/false);
        };
        const auto finish = [&](bool completed) {
            return update(
                table_id, start,
                [&](Tablet& x) -> Status {
                    if (!x.transition || x.transition->from != tr.from || x.transition->to != tr.to)
                        return Status::invalid("the tablet's move changed meanwhile");
                    if (completed)
                        std::replace(x.replicas.begin(), x.replicas.end(), tr.from, tr.to);
                    x.transition.reset();
                    return Status::ok();
                },
                /*barrier=*/false);
        };
        // A node that must drop data: skipped when it left the cluster,
        // waited for (an error: the caller comes back) while it is down.
        const auto drop = [&](const std::string& host) -> Status {
            if (!hooks_.is_member(host)) return Status::ok();
            if (!hooks_.is_up(host))
                return Status(
                    ErrorCode::kUnavailable,
                    "node " + short_host(host) + " is down: its copy waits to be dropped");
            return hooks_.drop_range(host, table_id, range_of(r));
        };
        switch (tr.stage) {
            case TransitionStage::kWriteBothReadOld:
                TESSEL_RETURN_IF_ERROR(hooks_.barrier(table_id, r.mod_revision));
                TESSEL_RETURN_IF_ERROR(set_stage(TransitionStage::kStreaming));
                break;
            case TransitionStage::kStreaming: {
                if (!hooks_.is_member(tr.to)) {
                    TESSEL_RETURN_IF_ERROR(set_stage(TransitionStage::kCleanupTarget));
                    break;
                }
                std::string source;
                if (hooks_.is_member(tr.from) && hooks_.is_up(tr.from)) {
                    source = tr.from;
                } else {
                    for (const auto& h : t.replicas) {
                        if (h != tr.from && hooks_.is_up(h)) {
                            source = h;
                            break;
                        }
                    }
                }
                Status st = source.empty()
                                ? Status(ErrorCode::kUnavailable,
                                         "no live replica of the tablet to stream it from")
                                : hooks_.stream(source, tr.to, table_id, range_of(r));
                if (st.is_ok()) {
                    TESSEL_RETURN_IF_ERROR(set_stage(TransitionStage::kWriteBothReadNew));
                    break;
                }
                spdlog::warn("streaming a tablet of {} to {}: {}", table_id, short_host(tr.to),
                             st.message());
                if (++failed_streams < options_.stream_attempts) {
                    if (source.empty()) return st;  // nothing to retry with now
                    std::this_thread::sleep_for(std::chrono::milliseconds(options_.retry_delay_ms));
                    break;
                }
                // Give up the move: the old replicas never stopped serving.
                TESSEL_RETURN_IF_ERROR(set_stage(TransitionStage::kCleanupTarget));
                break;
            }
            case TransitionStage::kWriteBothReadNew:
                TESSEL_RETURN_IF_ERROR(hooks_.barrier(table_id, r.mod_revision));
                TESSEL_RETURN_IF_ERROR(set_stage(TransitionStage::kCleanup));
                break;
            case TransitionStage::kCleanup:
                TESSEL_RETURN_IF_ERROR(hooks_.barrier(table_id, r.mod_revision));
                TESSEL_RETURN_IF_ERROR(drop(tr.from));
                TESSEL_RETURN_IF_ERROR(finish(true));
                outcome = Outcome::kCompleted;
                break;
            case TransitionStage::kCleanupTarget:
                TESSEL_RETURN_IF_ERROR(hooks_.barrier(table_id, r.mod_revision));
                TESSEL_RETURN_IF_ERROR(drop(tr.to));
                TESSEL_RETURN_IF_ERROR(finish(false));
                outcome = Outcome::kRolledBack;
                break;
        }
    }
}

Status MigrationDriver::drop_replica(const std::string& table_id, const std::string& start,
                                     const std::string& host) {
    TESSEL_RETURN_IF_ERROR(update(table_id, start, [&](Tablet& t) -> Status {
        if (t.transition) return Status::invalid("the tablet is moving");
        auto it = std::find(t.replicas.begin(), t.replicas.end(), host);
        if (it == t.replicas.end()) return Status::ok();  // dropped already
        if (t.replicas.size() == 1) return Status::invalid("the tablet's last replica stays");
        t.replicas.erase(it);
        return Status::ok();
    }));
    if (!hooks_.is_member(host) || !hooks_.is_up(host)) return Status::ok();
    TESSEL_ASSIGN_OR_RETURN(auto r, read(table_id, start));
    return hooks_.drop_range(host, table_id, range_of(r));
}

Status MigrationDriver::split(const std::string& table_id, const std::string& start) {
    return change_map(table_id, [&](TabletMap& map) -> Status {
        if (!map.hashed()) return Status::invalid("only hash tables split at a midpoint");
        const size_t i = map.find(start);
        if (map.at(i).start != start)
            return Status::invalid("table " + table_id + " has no tablet starting there any more");
        auto mid = map.token_midpoint(i);
        if (!mid) return Status::invalid("the tablet is a single token");
        return map.split(i, *mid, 1, hooks_.now_ms());
    });
}

Status MigrationDriver::change_map(const std::string& table_id,
                                   const std::function<Status(TabletMap&)>& change) {
    const std::string key = prefix_ + table_id;
    for (int attempt = 0; attempt < kConflictRetries; ++attempt) {
        TESSEL_ASSIGN_OR_RETURN(auto got, etcd_.get(key));
        if (got.kvs.empty()) return Status::invalid("table " + table_id + " has no tablet map");
        TESSEL_ASSIGN_OR_RETURN(auto map, TabletMap::decode(got.kvs[0].value));
        TESSEL_RETURN_IF_ERROR(change(map));
        TESSEL_ASSIGN_OR_RETURN(auto revision, write(table_id, map, got.kvs[0].mod_revision));
        if (revision) return Status::ok();
    }
    return Status::server("the tablet map of " + table_id + " keeps changing: gave up");
}

}  // namespace tessel::cluster
