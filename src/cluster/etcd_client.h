// EtcdClient: the cluster layer's access to etcd (membership under leases,
// the schema catalog, the tablet maps), through etcd's v3 JSON gateway over
// HTTP (docs/architecture.md, "etcd client", says why not gRPC).
//
// Threads: every call blocks the calling thread until etcd answers, the
// request timeout passes, or every endpoint failed; calls are made from
// control-plane threads, never from event loops. The client is thread-safe
// and a cheap handle: copies share one connection pool and one preferred
// endpoint, and live as long as any copy, watch or LeaseKeeper uses them.
//
// Errors: Status with ErrorCode::kServerError. Unreachable etcd: "etcd is
// unreachable at http://127.0.0.1:2379: Connection refused" (every endpoint
// tried is named); an error reply carries etcd's own message; a reply that
// is not what the gateway sends is reported as malformed. Nothing throws
// and no reply, however malformed, crashes the client.
//
// etcd's own limits apply (its defaults): requests of at most 1.5 MiB
// (--max-request-bytes), at most 128 operations per transaction
// (--max-txn-ops); past them etcd refuses the request with its message.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cluster/etcd_types.h"
#include "common/status.h"

namespace tessel::cluster {

class EtcdTransport;
class EtcdWatch;

class EtcdClient {
  public:
    // Checks the options (at least one endpoint, each http:// or https://,
    // positive timeouts and page size); does not contact etcd.
    static Result<EtcdClient> create(EtcdOptions options);

    const EtcdOptions& options() const;

    // --- Keys --------------------------------------------------------------

    // The key, if present (0 or 1 kvs), and the revision read at.
    Result<RangeResult> get(const std::string& key) const;
    // Every key starting with `prefix`, in key order, as of `revision` (0:
    // the latest). Large ranges are read in pages of range_page_size keys,
    // all at the first page's revision, so the result is one consistent
    // snapshot; if that revision is compacted meanwhile, the call fails.
    Result<RangeResult> get_prefix(const std::string& prefix, int64_t revision = 0) const;
    // Writes the key (attached to `lease` when non-zero: it disappears with
    // the lease; a lease that no longer exists is an error). Returns the
    // revision of the write.
    Result<int64_t> put(const std::string& key, const std::string& value, int64_t lease = 0) const;
    // Deletes the key / every key starting with `prefix`. Returns the store
    // revision after the call (unchanged when nothing was deleted).
    Result<int64_t> erase(const std::string& key) const;
    Result<int64_t> erase_prefix(const std::string& prefix) const;

    // Applies `success` when every Compare holds, else `failure`, as one
    // atomic step (one revision if anything was written). "Create if
    // absent": txn({Compare::absent(k)}, {TxnOp::put(k, v)}, {}). A
    // transaction whose reply is lost is not retried on another endpoint:
    // the error then says it may or may not have been applied.
    Result<TxnResult> txn(const std::vector<Compare>& compares, const std::vector<TxnOp>& success,
                          const std::vector<TxnOp>& failure) const;

    // --- Leases ------------------------------------------------------------

    Result<Lease> grant_lease(int64_t ttl_seconds) const;
    // Refreshes the lease once; returns its remaining TTL in seconds, 0 when
    // the lease is gone (expired or revoked). `timeout` 0: the request
    // timeout. `cancel`, when given and set to true meanwhile, ends the
    // call within about a second with an error.
    Result<int64_t> keep_alive_once(int64_t lease_id, std::chrono::milliseconds timeout = {},
                                    const std::atomic<bool>* cancel = nullptr) const;
    // Revokes the lease, deleting every key attached to it. A lease that is
    // already gone is not an error.
    Status revoke_lease(int64_t lease_id) const;

    // --- Watches -----------------------------------------------------------

    using WatchCallback = std::function<void(const WatchBatch&)>;
    // Watches every key starting with `prefix` from `start_revision` (0:
    // changes after now). Returns at once; see etcd_watch.h for how events
    // are delivered, resumed and stopped.
    std::unique_ptr<EtcdWatch> watch_prefix(const std::string& prefix, int64_t start_revision,
                                            WatchCallback callback) const;

  private:
    explicit EtcdClient(std::shared_ptr<EtcdTransport> transport)
        : transport_(std::move(transport)) {}

    Result<int64_t> delete_range(const std::string& key, bool prefix) const;

    std::shared_ptr<EtcdTransport> transport_;
};

}  // namespace tessel::cluster
