// MigrationDriver: carries a tablet replica move through the stages recorded
// in the tablet map in etcd (partition/tablet_map.h, TabletTransition), so
// that whoever drives it (the balancer's leader, or the next leader after a
// crash) resumes from the map alone.
//
//   start()                writes the transition, stage write_both_read_old
//   write_both_read_old    barrier: every node writes to both; then
//   streaming              the range streams from a live replica (`from`
//                          when it is up) to `to` as SST files; then
//   write_both_read_new    barrier: reads moved to the new set; then
//   cleanup                barrier: nothing reads `from` any more; `from`
//                          drops the range; the map gets the new replica set
//   cleanup_target         (rollback, when streaming cannot finish) barrier,
//                          `to` drops what it received; the old set stays
//
// Each stage change is a compare-and-swap on the table's map key (its
// mod_revision), so concurrent moves of other tablets of the table, splits
// and a second driver of the same move simply re-read and try again; the
// barrier after each change waits until every live node has installed
// that map and finished the requests routed by older ones. Every step is
// idempotent (streaming ingests merge operands; dropping a range twice
// drops nothing), so a crash at any point resumes by doing the stage again.
//
// Blocking: every call waits on etcd and on other nodes; run it on a
// thread of its own, never an event loop.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "cluster/etcd_client.h"
#include "common/status.h"
#include "partition/tablet_map.h"
#include "storage/range_files.h"

namespace tessel::cluster {

struct MigrationHooks {
    // Every live node installed the table's map of `revision` (or later)
    // and has no request routed by an older one in flight.
    std::function<Status(const std::string& table_id, int64_t revision)> barrier;
    // `target` pulls `range` of the table from `source`.
    std::function<Status(const std::string& source, const std::string& target,
                         const std::string& table_id, const storage::RecordRange& range)>
        stream;
    // `host` deletes `range` of the table.
    std::function<Status(const std::string& host, const std::string& table_id,
                         const storage::RecordRange& range)>
        drop_range;
    // A node of the cluster (nodes/ has its record) / up (its lease lives).
    std::function<bool(const std::string& host)> is_member;
    std::function<bool(const std::string& host)> is_up;
    std::function<int64_t()> now_ms;
};

struct MigrationOptions {
    // Failed streaming attempts before the move is rolled back, and the
    // pause between two.
    int stream_attempts = 3;
    int retry_delay_ms = 1000;
};

class MigrationDriver {
  public:
    enum class Outcome { kNone, kCompleted, kRolledBack };

    MigrationDriver(EtcdClient etcd, std::string tablets_prefix, MigrationHooks hooks,
                    MigrationOptions options = {});

    // Records a move of the tablet starting at `start` from replica `from`
    // to `to` (stage write_both_read_old). Invalid when the tablet has
    // changed (split, merged, already moving) or `from`/`to` no longer fit.
    Status start(const std::string& table_id, const std::string& start, const std::string& from,
                 const std::string& to);
    // Drives the tablet's transition to its end. kNone when there is none.
    // An error leaves the transition at the stage it reached (call again).
    // `cancel`, when set, stops it at the next stage boundary (an error).
    Result<Outcome> advance(const std::string& table_id, const std::string& start,
                            const std::atomic<bool>* cancel = nullptr);

    // A replica leaves the tablet without a replacement (the balancer's
    // excess replica): the map loses it, then it drops the range.
    Status drop_replica(const std::string& table_id, const std::string& start,
                        const std::string& host);
    // Splits the tablet in two at its token midpoint (hash tables): a map
    // change only, every replica keeps both halves.
    Status split(const std::string& table_id, const std::string& start);
    // Any other change of a table's map that moves no data (splits and
    // merges by size and load): `change` edits the map as read from etcd,
    // written back if nothing changed it meanwhile (else read again).
    Status change_map(const std::string& table_id, const std::function<Status(TabletMap&)>& change);

  private:
    struct Read {
        TabletMap map;
        int64_t mod_revision = 0;
        size_t index = 0;  // of the tablet starting at `start`
    };
    Result<Read> read(const std::string& table_id, const std::string& start) const;
    // Writes `map` if the key is still at `mod_revision`; the new revision,
    // or nullopt when it changed meanwhile.
    Result<std::optional<int64_t>> write(const std::string& table_id, const TabletMap& map,
                                         int64_t mod_revision) const;
    // Applies `change` to the tablet's map (re-reading on conflicts) and
    // runs the barrier at the new revision.
    Status update(const std::string& table_id, const std::string& start,
                  const std::function<Status(Tablet&)>& change, bool barrier = true);
    storage::RecordRange range_of(const Read& r) const;

    EtcdClient etcd_;
    std::string prefix_;
    MigrationHooks hooks_;
    MigrationOptions options_;
};

}  // namespace tessel::cluster
