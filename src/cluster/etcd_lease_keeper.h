// LeaseKeeper: owns an etcd lease and keeps it alive from its own thread,
// refreshing it every TTL/3, until it is destroyed or the lease is lost.
//
// Lost means: etcd answered that the lease no longer exists (it expired or
// was revoked), or no refresh succeeded for a whole TTL since the last one
// that did (etcd unreachable, paused, or too slow): past that point etcd may
// have expired the lease and deleted its keys, so the owner must assume it
// did. The `on_lost` callback then runs once, on the keeper's thread, with
// the reason; the keeper stops, and the owner re-registers (a new lease, a
// new keeper). A failed refresh is retried sooner than TTL/3 while time
// remains, each attempt bounded by what is left of the TTL.
//
// Destroying the keeper stops the refreshes within about a second (an
// attempt in flight is abandoned), then revokes the lease unless it was lost
// or released, so the keys attached to it disappear at once (one request:
// with etcd unreachable, the destructor blocks up to the request timeout).
// The destructor must not run on the keeper's own thread (not from on_lost).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "cluster/etcd_client.h"
#include "common/status.h"

namespace tessel::cluster {

class LeaseKeeper {
  public:
    using LostCallback = std::function<void(const Status& why)>;

    // Grants a lease of `ttl_seconds` and starts keeping it.
    static Result<std::unique_ptr<LeaseKeeper>> start(const EtcdClient& client, int64_t ttl_seconds,
                                                      LostCallback on_lost);
    // Keeps an already granted lease (its ttl_seconds as granted).
    LeaseKeeper(EtcdClient client, Lease lease, LostCallback on_lost);
    ~LeaseKeeper();
    LeaseKeeper(const LeaseKeeper&) = delete;
    LeaseKeeper& operator=(const LeaseKeeper&) = delete;

    int64_t lease_id() const { return lease_.id; }
    int64_t ttl_seconds() const { return lease_.ttl_seconds; }
    // True once on_lost has been called (or is being called).
    bool lost() const { return lost_.load(); }

    // Stops refreshing without revoking: the lease expires after its TTL.
    // (For an owner shutting down in a way that keeps its keys a little
    // longer, or handing the lease over.)
    void release();

  private:
    void run();
    void stop_thread();

    EtcdClient client_;
    Lease lease_;
    LostCallback on_lost_;
    std::atomic<bool> lost_{false};
    std::atomic<bool> cancel_{false};  // aborts a refresh in flight
    std::mutex mu_;
    std::condition_variable cv_;
    bool stop_ = false;  // guarded by mu_
    bool released_ = false;
    std::thread thread_;
};

}  // namespace tessel::cluster
