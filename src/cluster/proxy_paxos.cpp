// StorageProxy: lightweight transactions, a Paxos round over the partition's
// replicas (see paxos.h for the protocol).
#include <algorithm>
#include <random>
#include <thread>

#include "cluster/storage_proxy.h"

namespace tessel::cluster {
namespace {

int64_t now_micros() {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

uint64_t node_id(const std::string& host) {
    return std::hash<std::string>{}(host);
}

// A random pause before retrying a round that lost to another one, longer
// after each loss (up to 100 ms, Cassandra's bound), so that rounds racing
// for one partition spread out instead of preempting each other.
Task<void> backoff(MessagingService& messaging, int* losses) {
    thread_local std::mt19937 rng(std::random_device{}());
    const int bound = std::min(100, 4 << std::min(*losses, 5));
    ++*losses;
    auto timer = std::make_shared<asio::steady_timer>(messaging.io());
    timer->expires_after(std::chrono::milliseconds(1 + static_cast<int>(rng() % bound)));
    Completion<int> done;
    timer->async_wait([done, timer](const asio::error_code&) mutable { done.set(0); });
    co_await done.wait();
}

}  // namespace

Task<Result<std::string>> StorageProxy::ask_paxos(const std::string& host, ReplicaVerb verb,
                                                  std::string payload,
                                                  std::chrono::steady_clock::time_point deadline) {
    if (host == options_.self) {
        if (verb == ReplicaVerb::kPaxosPrepare) {
            PaxosPrepare p;
            TESSEL_CO_RETURN_IF_ERROR(decode(payload, &p));
            TESSEL_CO_ASSIGN_OR_RETURN(auto r, local_->paxos().prepare(p));
            co_return encode(r);
        }
        PaxosProposal p;
        TESSEL_CO_RETURN_IF_ERROR(decode(payload, &p));
        if (verb == ReplicaVerb::kPaxosPropose) {
            TESSEL_CO_ASSIGN_OR_RETURN(auto r, local_->paxos().propose(p));
            co_return encode(r);
        }
        TESSEL_CO_RETURN_IF_ERROR(local_->paxos().commit(p));
        co_return std::string();
    }
    MessagingResult r = co_await send(host, verb, std::move(payload), deadline);
    if (!r.is_ok()) co_return Status(r.status().code(), r.status().message());
    co_return std::move(r).value();
}

Task<Result<bool>> StorageProxy::cas(const std::string& table_id, const std::string& partition_key,
                                     const Placement& placement, const RequestOptions& options,
                                     CasDecider decide) {
    // Copies: the round suspends, the callers' arguments may not outlive it.
    const std::string table = table_id;
    const std::string key = partition_key;
    const Placement where = placement;
    const RequestOptions ro = options;
    const Consistency serial =
        ro.serial == Consistency::kLocalSerial ? Consistency::kLocalSerial : Consistency::kSerial;
    Ballot last;
    int block_for = 0;
    // Origins of our proposals that some replica may have accepted.
    std::vector<Ballot> mine;
    int losses = 0;
    while (std::chrono::steady_clock::now() < ro.deadline) {
        // Who takes part: the live replicas that count at the serial level.
        std::vector<std::string> targets;
        std::vector<std::string> pending;
        {
            auto view = membership_->view();
            for (const auto& r : where.pending) {
                if (r == options_.self || view->is_up(r)) pending.push_back(r);
            }
            std::vector<std::string> dcs, up_dcs;
            for (const auto& r : where.replicas) {
                const NodeInfo* n = view->node(r);
                dcs.push_back(n ? n->dc : std::string());
            }
            ReplicaCount count(serial, where.replication, options_.local_dc, dcs);
            for (size_t i = 0; i < where.replicas.size(); ++i) {
                const std::string& r = where.replicas[i];
                if ((r == options_.self || view->is_up(r)) && count.counts(dcs[i])) {
                    targets.push_back(r);
                    up_dcs.push_back(dcs[i]);
                }
            }
            TESSEL_CO_RETURN_IF_ERROR(count.check_alive(up_dcs));
            block_for = count.block_for();
        }
        Ballot ballot{std::max(now_micros(), last.micros + 1), node_id(options_.self)};
        // 1. Prepare: a quorum must promise.
        const std::string prepare = encode(PaxosPrepare{table, key, ballot, mine});
        std::vector<Task<Result<std::string>>> asked;
        for (const auto& h : targets)
            asked.push_back(ask_paxos(h, ReplicaVerb::kPaxosPrepare, prepare, ro.deadline));
        int promised = 0;
        bool mine_committed = false;
        std::optional<PaxosPromise> in_progress;
        Ballot highest_commit;
        // The most recent commit any replica reported, and who promised
        // without having it.
        std::optional<PaxosProposal> latest;
        std::vector<std::pair<std::string, Ballot>> promisers;
        for (size_t i = 0; i < asked.size(); ++i) {
            Task<Result<std::string>>& answer = asked[i];
            auto r = co_await std::move(answer);
            if (!r.is_ok()) continue;
            PaxosPromise p;
            if (!decode(*r, &p).is_ok()) continue;
            last = std::max(last, p.promised_ballot);
            highest_commit = std::max(highest_commit, p.committed_ballot);
            mine_committed = mine_committed || p.origin_committed;
            if (p.committed && (!latest || p.committed_ballot > latest->ballot)) {
                latest =
                    PaxosProposal{table, key, p.committed_ballot, *p.committed, p.committed_origin};
            }
            if (!p.promised) continue;
            promisers.emplace_back(targets[i], p.committed_ballot);
            ++promised;
            if (p.accepted && (!in_progress || p.accepted_ballot > in_progress->accepted_ballot)) {
                in_progress = std::move(p);
            }
        }
        // Another coordinator finished a proposal of ours: it is applied.
        if (mine_committed) co_return true;
        if (promised < block_for) {
            co_await backoff(*messaging_, &losses);
            continue;
        }
        // Replicas that promised but missed the most recent commit learn it
        // first, so that the read deciding the next update sees it
        // (Cassandra's CASSANDRA-5062); then the round starts again.
        if (latest && latest->ballot == highest_commit) {
            const std::string commit = encode(*latest);
            std::vector<Task<Result<std::string>>> sent;
            for (const auto& [host, committed] : promisers) {
                if (committed < highest_commit) {
                    sent.push_back(ask_paxos(host, ReplicaVerb::kPaxosCommit, commit, ro.deadline));
                }
            }
            if (!sent.empty()) {
                for (auto& s : sent) {
                    Task<Result<std::string>>& answer = s;
                    (void)co_await std::move(answer);
                }
                last = ballot;
                co_await backoff(*messaging_, &losses);
                continue;
            }
        }
        // 2. A proposal accepted but never committed is finished first.
        if (in_progress && in_progress->accepted_ballot > highest_commit) {
            const Ballot origin = in_progress->accepted_origin;
            const bool ours = std::find(mine.begin(), mine.end(), origin) != mine.end();
            PaxosProposal again{table, key, ballot, std::move(*in_progress->accepted), origin};
            auto done = co_await propose_and_commit(again, targets, pending, block_for, ro);
            if (!done.is_ok()) co_return done.status();
            if (ours && *done == ProposalOutcome::kCommitted) co_return true;
            last = ballot;
            if (*done != ProposalOutcome::kCommitted) co_await backoff(*messaging_, &losses);
            continue;  // then a round of our own
        }
        // 3. Read and decide.
        auto update = co_await decide(ballot.micros);
        if (!update.is_ok()) co_return update.status();
        if (!*update) {
            // The conditions do not hold. A proposal of ours partly accepted
            // earlier could still be finished by someone: an empty commit
            // above it makes sure it never is before answering "not applied".
            if (mine.empty()) co_return false;
            // Named: a braced temporary in a co_await is freed twice by g++ 12.
            PaxosProposal nothing{table, key, ballot, {}, ballot};
            nothing.update.partition_key = key;
            auto done = co_await propose_and_commit(nothing, targets, pending, block_for, ro);
            if (!done.is_ok()) co_return done.status();
            if (*done == ProposalOutcome::kCommitted) co_return false;
            last = ballot;
            co_await backoff(*messaging_, &losses);
            continue;
        }
        // 4. Propose and commit.
        PaxosProposal proposal{table, key, ballot, std::move(**update), ballot};
        auto done = co_await propose_and_commit(proposal, targets, pending, block_for, ro);
        if (!done.is_ok()) co_return done.status();
        if (*done == ProposalOutcome::kCommitted) co_return true;
        // Partly accepted: another round may still commit it.
        if (*done == ProposalOutcome::kPartial) mine.push_back(ballot);
        last = ballot;
        co_await backoff(*messaging_, &losses);
    }
    co_return write_timeout(serial, 0, std::max(block_for, 1), "CAS");
}

Task<Result<StorageProxy::ProposalOutcome>> StorageProxy::propose_and_commit(
    const PaxosProposal& proposal, const std::vector<std::string>& targets,
    const std::vector<std::string>& pending, int block_for, const RequestOptions& ro) {
    const std::string payload = encode(proposal);
    std::vector<Task<Result<std::string>>> asked;
    for (const auto& h : targets)
        asked.push_back(ask_paxos(h, ReplicaVerb::kPaxosPropose, payload, ro.deadline));
    int accepted = 0;
    for (auto& a : asked) {
        auto r = co_await std::move(a);
        PaxosAccept acc;
        if (r.is_ok() && decode(*r, &acc).is_ok() && acc.accepted) ++accepted;
    }
    // Lost to a higher ballot.
    if (accepted < block_for)
        co_return accepted == 0 ? ProposalOutcome::kRefused : ProposalOutcome::kPartial;
    // Commit on every replica; the request waits for its consistency level
    // (at least one: the update is then durable somewhere besides Paxos).
    std::vector<Task<Result<std::string>>> commits;
    for (const auto& h : targets)
        commits.push_back(ask_paxos(h, ReplicaVerb::kPaxosCommit, payload, ro.deadline));
    // A replica the tablet is moving to (or from) takes the commit as any
    // write; its answer does not count.
    std::vector<Task<Result<std::string>>> pending_commits;
    for (const auto& h : pending)
        pending_commits.push_back(ask_paxos(h, ReplicaVerb::kPaxosCommit, payload, ro.deadline));
    int committed = 0;
    for (auto& c : commits) {
        auto r = co_await std::move(c);
        if (r.is_ok()) ++committed;
    }
    for (auto& c : pending_commits)
        (void)co_await std::move(c);
    const bool one = ro.consistency == Consistency::kAny || ro.consistency == Consistency::kOne ||
                     ro.consistency == Consistency::kLocalOne;
    const int needed = one ? 1 : block_for;
    if (committed < needed) {
        co_return write_timeout(ro.consistency, committed, needed, "CAS");
    }
    co_return ProposalOutcome::kCommitted;
}

}  // namespace tessel::cluster
