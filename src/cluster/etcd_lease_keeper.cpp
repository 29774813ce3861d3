#include "cluster/etcd_lease_keeper.h"

#include <fmt/format.h>

#include <algorithm>

namespace tessel::cluster {

namespace {
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// The shortest pause between two refresh attempts.
constexpr milliseconds kMinPause(100);
}  // namespace

Result<std::unique_ptr<LeaseKeeper>> LeaseKeeper::start(const EtcdClient& client,
                                                        int64_t ttl_seconds, LostCallback on_lost) {
    TESSEL_ASSIGN_OR_RETURN(Lease lease, client.grant_lease(ttl_seconds));
    return std::make_unique<LeaseKeeper>(client, lease, std::move(on_lost));
}

LeaseKeeper::LeaseKeeper(EtcdClient client, Lease lease, LostCallback on_lost)
    : client_(std::move(client)), lease_(lease), on_lost_(std::move(on_lost)) {
    thread_ = std::thread([this] { run(); });
}

LeaseKeeper::~LeaseKeeper() {
    stop_thread();
    if (!released_ && !lost_.load()) {
        // Best effort: a lease not revoked expires after its TTL anyway.
        (void)client_.revoke_lease(lease_.id);
    }
}

void LeaseKeeper::release() {
    stop_thread();
    released_ = true;
}

void LeaseKeeper::stop_thread() {
    {
        std::lock_guard lock(mu_);
        stop_ = true;
    }
    cancel_.store(true);
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void LeaseKeeper::run() {
    const milliseconds ttl(std::max<int64_t>(1, lease_.ttl_seconds) * 1000);
    const milliseconds interval = std::max(kMinPause, ttl / 3);
    const milliseconds request_timeout(client_.options().request_timeout_ms);
    // The lease was granted or refreshed at most just before now (a lease
    // handed over by its owner is refreshed at once below).
    Clock::time_point last_refresh = Clock::now();
    Status last_error;
    milliseconds pause(0);
    for (;;) {
        {
            std::unique_lock lock(mu_);
            if (cv_.wait_for(lock, pause, [&] { return stop_; })) return;
        }
        const auto sent = Clock::now();
        const auto left = std::chrono::duration_cast<milliseconds>(last_refresh + ttl - sent);
        if (left <= milliseconds(0)) {
            lost_.store(true);
            on_lost_(Status::server(fmt::format(
                "etcd lease {:x} is presumed lost: no refresh succeeded for its whole TTL of {} s "
                "({})",
                lease_.id, lease_.ttl_seconds,
                last_error.is_ok() ? "refreshes were too slow" : last_error.message())));
            return;
        }
        auto remaining =
            client_.keep_alive_once(lease_.id, std::min(left, request_timeout), &cancel_);
        if (cancel_.load()) return;
        if (remaining.is_ok() && *remaining > 0) {
            last_refresh = sent;  // etcd restarted the TTL after this moment
            last_error = Status::ok();
            pause = interval;
            continue;
        }
        if (remaining.is_ok()) {
            lost_.store(true);
            on_lost_(
                Status::server(fmt::format("etcd lease {:x} expired or was revoked", lease_.id)));
            return;
        }
        last_error = remaining.status();
        // Retry sooner than the normal interval, but never sleep past the
        // moment the lease must be given up.
        const auto until_lost =
            std::chrono::duration_cast<milliseconds>(last_refresh + ttl - Clock::now());
        pause = std::clamp(interval / 4, kMinPause, std::max(kMinPause, until_lost));
    }
}

}  // namespace tessel::cluster
