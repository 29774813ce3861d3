// StorageProxy: writes, truncation, and the pieces every path shares
// (sending to a replica, choosing the replicas a read asks).
#include <algorithm>
#include <mutex>
#include <random>

#include "cluster/storage_proxy.h"
#include "storage/store.h"

namespace tessel::cluster {
namespace {

// Gathers the answers of one write's replicas and completes once the
// consistency level is met or can no longer be met.
class WriteHandler {
  public:
    WriteHandler(ReplicaCount count, const char* write_type)
        : count_(std::move(count)), write_type_(write_type) {}

    void expect(const std::string& dc) { ++pending_[dc]; }
    void ack(const std::string& dc) {
        std::unique_lock lock(mu_);
        --pending_[dc];
        ++acks_[dc];
        decide(lock);
    }
    // A failed replica; `timeout` when it did not answer in time.
    void fail(const std::string& dc, bool timeout, const Status& why) {
        std::unique_lock lock(mu_);
        --pending_[dc];
        ++failures_;
        timed_out_ = timed_out_ || timeout;
        if (first_error_.is_ok() && !timeout) first_error_ = why;
        decide(lock);
    }
    // Every replica was asked (or hinted): completes if nothing is pending.
    void sealed() {
        std::unique_lock lock(mu_);
        sealed_ = true;
        decide(lock);
    }
    Completion<Status>& done() { return done_; }

  private:
    // Completes the write once decided; the waiting coroutine may resume
    // inside set(), so the lock is released first.
    void decide(std::unique_lock<std::mutex>& lock) {
        if (decided_) return;
        auto outcome = outcome_locked();
        if (!outcome) return;
        decided_ = true;
        lock.unlock();
        done_.set(std::move(*outcome));
    }

    std::optional<Status> outcome_locked() {
        if (count_.satisfied(acks_)) return Status::ok();
        if (!sealed_) return std::nullopt;
        std::map<std::string, int> possible = acks_;
        for (const auto& [dc, n] : pending_)
            possible[dc] += n;
        if (count_.satisfied(possible)) return std::nullopt;  // still reachable
        // A replica that timed out: the answer waits for the others, so its
        // `received` counts every replica that acknowledged in time.
        if (timed_out_) {
            for (const auto& [dc, n] : pending_) {
                if (n > 0) return std::nullopt;
            }
        }
        const int received = count_.counted(acks_);
        if (timed_out_ || first_error_.is_ok()) {
            return write_timeout(count_.consistency(), received, count_.block_for(), write_type_);
        }
        Status st(ErrorCode::kWriteFailure,
                  "Operation failed - received " + std::to_string(received) + " responses and " +
                      std::to_string(failures_) + " failures: " + first_error_.message());
        st.detail1 = write_type_;
        Status::Replicas r;
        r.consistency = static_cast<uint16_t>(count_.consistency());
        r.received = received;
        r.block_for = count_.block_for();
        r.failures = failures_;
        st.replicas = r;
        return st;
    }

    std::mutex mu_;
    ReplicaCount count_;
    const char* write_type_;
    std::map<std::string, int> acks_;
    std::map<std::string, int> pending_;
    int failures_ = 0;
    bool timed_out_ = false;
    bool sealed_ = false;
    bool decided_ = false;
    Status first_error_;
    Completion<Status> done_;
};

}  // namespace

StorageProxy::StorageProxy(ProxyOptions options, Membership* membership,
                           MessagingService* messaging, ReplicaService* local, HintStore* hints)
    : options_(std::move(options)),
      membership_(membership),
      messaging_(messaging),
      local_(local),
      hints_(hints) {}

Task<MessagingResult> StorageProxy::send(const std::string& host, ReplicaVerb verb,
                                         std::string payload,
                                         std::chrono::steady_clock::time_point deadline) {
    auto view = membership_->view();
    const NodeInfo* node = view->node(host);
    if (!node) {
        co_return MessagingError{MessagingError::Kind::kUnreachable,
                                 Status(ErrorCode::kUnavailable, "unknown node")};
    }
    const PeerAddress to{node->listen_address, node->storage_port};
    co_return co_await messaging_->request(to, static_cast<uint16_t>(verb), std::move(payload),
                                           deadline);
}

Result<std::vector<std::string>> StorageProxy::read_targets(const Placement& placement,
                                                            Consistency c, int* block_for) const {
    if (c == Consistency::kAny) {
        return Status::invalid("ANY ConsistencyLevel is only supported for writes");
    }
    auto view = membership_->view();
    std::vector<std::string> dcs, up, up_dcs;
    for (const auto& r : placement.replicas) {
        const NodeInfo* n = view->node(r);
        const std::string dc = n ? n->dc : std::string();
        dcs.push_back(dc);
        if (r == options_.self || (n && view->is_up(r))) {
            up.push_back(r);
            up_dcs.push_back(dc);
        }
    }
    ReplicaCount count(c, placement.replication, options_.local_dc, dcs);
    TESSEL_RETURN_IF_ERROR(count.check_alive(up_dcs));
    // This node first, then its data centre, then the others; within each,
    // a random order spreads reads over the replicas.
    thread_local std::mt19937 rng(std::random_device{}());
    std::vector<std::pair<int, std::string>> ranked;
    for (size_t i = 0; i < up.size(); ++i) {
        if (!count.counts(up_dcs[i])) continue;
        const int rank = up[i] == options_.self ? 0 : up_dcs[i] == options_.local_dc ? 1 : 2;
        ranked.emplace_back(rank * 1000 + static_cast<int>(rng() % 1000), up[i]);
    }
    std::sort(ranked.begin(), ranked.end());
    std::vector<std::string> out;
    for (auto& [_, h] : ranked) {
        if (static_cast<int>(out.size()) >= count.block_for()) break;
        out.push_back(std::move(h));
    }
    *block_for = count.block_for();
    return out;
}

Task<Status> StorageProxy::replicate(const std::string& table_id,
                                     const storage::PartitionMutation& m,
                                     const Placement& placement, const RequestOptions& options,
                                     bool applied_here) {
    auto view = membership_->view();
    std::vector<std::string> dcs, up_dcs;
    for (const auto& r : placement.replicas) {
        const NodeInfo* n = view->node(r);
        dcs.push_back(n ? n->dc : std::string());
        if (r == options_.self || (n && view->is_up(r))) up_dcs.push_back(dcs.back());
    }
    ReplicaCount count(options.consistency, placement.replication, options_.local_dc, dcs);
    // Every target: the replicas, then the pending ones (each raising the
    // count where it counts, as the live ones must then cover it too).
    std::vector<std::string> targets = placement.replicas;
    for (const auto& r : placement.pending) {
        const NodeInfo* n = view->node(r);
        if (!n) continue;  // removed meanwhile: nothing to write to
        count.add_pending(n->dc);
        targets.push_back(r);
        dcs.push_back(n->dc);
        if (r == options_.self || view->is_up(r)) up_dcs.push_back(n->dc);
    }
    TESSEL_CO_RETURN_IF_ERROR(count.check_alive(up_dcs));
    auto handler = std::make_shared<WriteHandler>(count, options.write_type);
    auto message = std::make_shared<const MutationMessage>(MutationMessage{table_id, m});
    std::string payload;
    bool local = false;
    std::string local_dc;
    for (size_t i = 0; i < targets.size(); ++i) {
        const std::string& host = targets[i];
        const std::string& dc = dcs[i];
        if (host == options_.self) {
            local = true;
            local_dc = dc;
            handler->expect(dc);
            continue;
        }
        if (!view->node(host)) continue;  // removed: its replacement is rebuilt
        if (!view->is_up(host)) {
            Status hinted = hints_->add(host, *message);
            // ANY is met by a hint.
            if (hinted.is_ok() && options.consistency == Consistency::kAny) {
                handler->expect(dc);
                handler->ack(dc);
            }
            continue;
        }
        if (payload.empty()) payload = encode(*message);
        handler->expect(dc);
        then(send(host, ReplicaVerb::kMutation, payload, options.deadline),
             [this, handler, message, host, dc](MessagingResult r) {
                 if (r.is_ok()) {
                     handler->ack(dc);
                     return;
                 }
                 const bool timeout = r.kind() == MessagingError::Kind::kTimeout ||
                                      r.kind() == MessagingError::Kind::kUnreachable;
                 // A replica that may have missed the write gets it later.
                 if (timeout) (void)hints_->add(host, *message);
                 handler->fail(dc, timeout, r.status());
             });
    }
    if (local) {
        Status st = applied_here ? Status::ok() : local_->apply(*message);
        if (st.is_ok()) {
            handler->ack(local_dc);
        } else {
            handler->fail(local_dc, false, st);
        }
    }
    handler->sealed();
    co_return co_await handler->done().wait();
}

Task<Status> StorageProxy::truncate(const std::string& table_id,
                                    std::chrono::steady_clock::time_point deadline) {
    auto view = membership_->view();
    for (const auto& [host, node] : view->nodes) {
        if (host != options_.self && !view->is_up(host)) {
            co_return Status(ErrorCode::kUnavailable,
                             "Cannot perform truncate, some hosts are down");
        }
    }
    const std::string payload = encode(TruncateMessage{table_id});
    std::vector<Task<MessagingResult>> sent;
    for (const auto& [host, node] : view->nodes) {
        if (host != options_.self)
            sent.push_back(send(host, ReplicaVerb::kTruncate, payload, deadline));
    }
    Status first = local_->truncate(TruncateMessage{table_id});
    for (auto& t : sent) {
        MessagingResult r = co_await std::move(t);
        if (!r.is_ok() && first.is_ok()) {
            first =
                Status(ErrorCode::kTruncateError, "Error during truncate: " + r.status().message());
        }
    }
    co_return first;
}

}  // namespace tessel::cluster
