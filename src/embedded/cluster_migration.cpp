// ClusterNode's part in tablet migration: the tablet map barrier (serving
// it, and running it across the cluster), the per-tablet load every node
// reports to the balancer's leader, and the balancer service with its
// migration driver. docs/architecture.md, "Tablet migration", tells the
// whole story.
#include <spdlog/spdlog.h>

#include <chrono>

#include "cluster/node_record.h"
#include "common/wall_clock.h"
#include "embedded/cluster_node.h"

namespace tessel::embedded {
namespace {

using Clock = std::chrono::steady_clock;

// How long a node waits for a map to arrive and older requests to finish.
constexpr auto kBarrierTimeout = std::chrono::seconds(30);
// Streaming a tablet: the whole copy (each chunk has its own deadline).
constexpr auto kStreamTimeout = std::chrono::hours(6);
constexpr auto kDropTimeout = std::chrono::minutes(10);

}  // namespace

void ClusterNode::note_revision(int64_t revision) {
    {
        std::lock_guard lock(revision_mu_);
        if (revision <= applied_revision_) return;
        applied_revision_ = revision;
    }
    revision_cv_.notify_all();
}

Status ClusterNode::local_barrier(const std::string& table_id, int64_t revision,
                                  Clock::time_point deadline) {
    {
        std::unique_lock lock(revision_mu_);
        if (!revision_cv_.wait_until(lock, deadline, [&] {
                return applied_revision_ >= revision || stopping_.load();
            })) {
            spdlog::warn("tablet map barrier of {}: revision {} not installed here (at {})",
                         table_id, revision, applied_revision_);
            return Status(ErrorCode::kUnavailable, "the tablet map of revision " +
                                                       std::to_string(revision) +
                                                       " has not reached this node");
        }
    }
    if (stopping_ || !router_) return Status(ErrorCode::kUnavailable, "the node is stopping");
    const auto drain_from = Clock::now();
    const bool drained = router_->drain(table_id, deadline);
    const auto drain_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - drain_from).count();
    if (drain_ms > 1000) {
        spdlog::warn(
            "tablet map barrier of {} at revision {}: requests routed by older maps took "
            "{} ms to finish{}",
            table_id, revision, drain_ms, drained ? "" : " (gave up)");
    }
    if (!drained) {
        return Status(ErrorCode::kUnavailable,
                      "requests routed by an older tablet map are still running");
    }
    return Status::ok();
}

Status ClusterNode::cluster_barrier(const std::string& table_id, int64_t revision) {
    const auto deadline = Clock::now() + kBarrierTimeout;
    auto view = membership_.view();
    cluster::TabletBarrier message{
        table_id, revision,
        static_cast<uint32_t>(
            std::chrono::duration_cast<std::chrono::milliseconds>(kBarrierTimeout).count())};
    const std::string payload = cluster::encode(message);
    std::vector<std::pair<std::string, Task<cluster::MessagingResult>>> asked;
    // A node that is down has nothing in flight, and installs the newest
    // maps before it serves again.
    for (const auto& [id, node] : view->nodes) {
        if (id == control_->self().host_id || !view->is_up(id)) continue;
        asked.emplace_back(
            id, proxy_->send(
                    id, static_cast<cluster::ReplicaVerb>(cluster::MigrationVerb::kTabletBarrier),
                    payload, deadline));
    }
    Status first = local_barrier(table_id, revision, deadline);
    for (auto& asked_one : asked) {
        const std::string& host = asked_one.first;
        Task<cluster::MessagingResult>& task = asked_one.second;
        auto r = sync_wait([&] { return std::move(task); });
        if (!r.is_ok() && first.is_ok()) {
            first = Status(ErrorCode::kUnavailable, "tablet map barrier on node " +
                                                        cluster::host_id_hex(host) + ": " +
                                                        r.status().message());
        }
    }
    return first;
}

cluster::TabletLoadReport ClusterNode::local_load() {
    cluster::TabletLoadReport report;
    report.host = control_->self().host_id;
    if (!router_) return report;
    for (const auto& table_id : router_->table_ids()) {
        auto described = router_->describe(table_id);
        if (!described.is_ok()) continue;
        auto tablets = router_->tablets(table_id);
        for (const auto& d : *described) {
            cluster::TabletLoadEntry e;
            e.table_id = table_id;
            e.start = d.tablet.start;
            const auto& replicas = d.tablet.replicas;
            // Bytes count where they are a replica's (a node that gave the
            // tablet away may hold what it has not dropped yet).
            if (std::find(replicas.begin(), replicas.end(), report.host) != replicas.end())
                e.size_bytes = d.size_bytes;
            e.reads_per_sec = d.rates.reads_per_sec;
            e.writes_per_sec = d.rates.writes_per_sec;
            e.bytes_per_sec = d.rates.bytes_per_sec;
            report.tablets.push_back(std::move(e));
        }
    }
    return report;
}

std::vector<cluster::TabletLoadReport> ClusterNode::gather_load() {
    const auto deadline = Clock::now() + std::chrono::seconds(10);
    auto view = membership_.view();
    std::vector<Task<cluster::MessagingResult>> asked;
    for (const auto& [id, node] : view->nodes) {
        if (id == control_->self().host_id || !view->is_up(id)) continue;
        asked.push_back(
            proxy_->send(id, static_cast<cluster::ReplicaVerb>(cluster::MigrationVerb::kTabletLoad),
                         "", deadline));
    }
    std::vector<cluster::TabletLoadReport> reports{local_load()};
    for (auto& task : asked) {
        auto r = sync_wait([&] { return std::move(task); });
        cluster::TabletLoadReport report;
        if (r.is_ok() && cluster::decode(*r, &report).is_ok()) reports.push_back(std::move(report));
    }
    return reports;
}

Task<Result<std::string>> ClusterNode::on_blocking(std::function<Result<std::string>()> work) {
    Completion<Result<std::string>> done;
    asio::post(migration_pool_, [done, work = std::move(work)]() mutable { done.set(work()); });
    co_return co_await done.wait();
}

Status ClusterNode::register_migration_handlers() {
    TESSEL_RETURN_IF_ERROR(messaging_->register_handler(
        static_cast<uint16_t>(cluster::MigrationVerb::kTabletBarrier),
        [this](const cluster::InboundContext&, std::string payload) -> Task<Result<std::string>> {
            cluster::TabletBarrier b;
            TESSEL_CO_RETURN_IF_ERROR(cluster::decode(payload, &b));
            // Named, not temporaries of the co_await expression.
            std::function<Result<std::string>()> work = [this, b]() -> Result<std::string> {
                const auto deadline = Clock::now() + std::chrono::milliseconds(b.timeout_ms);
                TESSEL_RETURN_IF_ERROR(local_barrier(b.table_id, b.revision, deadline));
                return std::string();
            };
            Task<Result<std::string>> running = on_blocking(std::move(work));
            co_return co_await std::move(running);
        }));
    return messaging_->register_handler(
        static_cast<uint16_t>(cluster::MigrationVerb::kTabletLoad),
        [this](const cluster::InboundContext&, std::string) -> Task<Result<std::string>> {
            std::function<Result<std::string>()> work = [this]() -> Result<std::string> {
                return cluster::encode(local_load());
            };
            Task<Result<std::string>> running = on_blocking(std::move(work));
            co_return co_await std::move(running);
        });
}

void ClusterNode::start_balancer() {
    const ClusterOptions& c = options_.cluster;
    cluster::MigrationHooks h;
    h.barrier = [this](const std::string& table_id, int64_t revision) {
        return cluster_barrier(table_id, revision);
    };
    h.stream = [this](const std::string& source, const std::string& target,
                      const std::string& table_id, const storage::RecordRange& range) {
        return sync_wait([&] {
            return streaming_->stream(source, target, table_id, range,
                                      Clock::now() + kStreamTimeout);
        });
    };
    h.drop_range = [this](const std::string& host, const std::string& table_id,
                          const storage::RecordRange& range) {
        return sync_wait([&] {
            return streaming_->drop_range(host, table_id, range, Clock::now() + kDropTimeout);
        });
    };
    h.is_member = [this](const std::string& host) {
        return membership_.view()->node(host) != nullptr;
    };
    h.is_up = [this](const std::string& host) {
        return host == control_->self().host_id || membership_.view()->is_up(host);
    };
    h.now_ms = [] { return wall_clock_ms(); };
    migrations_ = std::make_unique<cluster::MigrationDriver>(
        control_->etcd(), control_->tablets_prefix(), std::move(h));
    cluster::BalancerServiceHooks bh;
    bh.replication = [this](const std::string& table_id) -> std::optional<cluster::Replication> {
        auto r = replication_of_table(table_id);
        if (!r.is_ok()) return std::nullopt;
        return *r;
    };
    bh.gather_load = [this] { return gather_load(); };
    cluster::BalancerServiceOptions bo;
    bo.enabled = c.balancer_enabled;
    bo.interval_ms = c.balancer_interval_ms;
    bo.lease_ttl_seconds = c.lease_ttl_seconds;
    bo.planner.max_migrations_in = c.max_migrations_in;
    bo.planner.max_migrations_out = c.max_migrations_out;
    bo.thresholds = options_.tablets.thresholds;
    balancer_ = std::make_unique<cluster::BalancerService>(
        control_->etcd(), control_->prefix(), control_->self().host_id, &membership_,
        migrations_.get(), std::move(bh), std::move(bo));
    balancer_->start();
}

}  // namespace tessel::embedded
