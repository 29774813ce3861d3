// EtcdWatch: the changes to every key under a prefix, streamed from etcd
// (a long POST /v3/watch on the JSON gateway) to a callback.
//
// Delivery: the callback runs on the watch's own thread, one call at a time,
// with batches of events in revision order; every event of one revision is
// in the same batch. It must not throw, and should return soon (the stream
// is not read while it runs).
//
// Resuming: when the stream breaks (etcd restarted, the connection was
// lost), the watch reconnects, trying the endpoints in turn with a short
// backoff, and resumes from the last revision it delivered + 1, so no event
// is lost or repeated. With start_revision 0 the watch covers the changes
// after the moment it is first established. A watch that was quiet for long
// may resume from a revision etcd compacted meanwhile: that too ends in the
// compaction notice below.
//
// Compaction: when etcd no longer has the revision to resume from, the
// callback gets one WatchBatch with `compacted` set and the watch stops
// for good. The owner re-reads the prefix (get_prefix returns revision R)
// and starts a new watch from R + 1.
//
// Stopping: destroying the EtcdWatch stops it within milliseconds (an open
// request is abandoned), except that it waits for a callback already running
// to return. It may be destroyed from inside its own callback; the thread
// then finishes on its own once the callback returns.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "cluster/etcd_types.h"
#include "common/status.h"

namespace tessel::cluster {

class EtcdTransport;

class EtcdWatch {
  public:
    using Callback = std::function<void(const WatchBatch&)>;

    // Starts the watch thread. Use EtcdClient::watch_prefix.
    EtcdWatch(std::shared_ptr<EtcdTransport> transport, std::string prefix, int64_t start_revision,
              Callback callback);
    ~EtcdWatch();
    EtcdWatch(const EtcdWatch&) = delete;
    EtcdWatch& operator=(const EtcdWatch&) = delete;

    // The revision the watch resumes from after a reconnection (0: not yet
    // established with start_revision 0).
    int64_t next_revision() const;
    // True once a stream has been established (etcd confirmed the watch);
    // stays true across reconnections.
    bool established() const;
    // True after the compaction notice: the watch does nothing more.
    bool stopped() const;
    // Why the latest stream broke or could not be opened (OK if none has).
    Status last_error() const;

    struct State;  // shared with the watch thread

  private:
    std::shared_ptr<State> state_;
    std::thread thread_;
};

}  // namespace tessel::cluster
