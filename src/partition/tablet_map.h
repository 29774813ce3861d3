// TabletMap: how one table is cut into tablets, and where each tablet lives.
//
// A tablet is a contiguous range of a table's physical partition keys, the
// bytes the storage orders partitions by:
//   hash tables     keys start with the 8-byte token prefix, so a tablet is a
//                   token range and its boundaries are token prefixes;
//   ordered tables  keys are the memcomparable partition-key components (and
//                   hidden shard/bucket components), so a tablet is a key
//                   range and its boundaries are keys found in storage.
// Either way a boundary is a byte string and routing is one binary search,
// so the map knows nothing of types. Tablet i covers [start_i, start_{i+1});
// the first starts at "" (the smallest key) and the last runs to the end, so
// the tablets cover every key exactly once.
//
// On one node a tablet is assigned a local shard number (a label: all shards
// share one storage instance); on a cluster it also names its replica set,
// the host ids of the nodes holding it (empty on a single node). Splitting
// and merging only rewrite the map: no data moves, both halves keep the
// replicas.
//
// A tablet replica moving between nodes is a transition recorded in the
// map: `from` (a replica) hands the tablet to `to` (not a replica) through
// the stages below, so a crash at any stage resumes from the map or rolls
// back. `replicas` stays the old set throughout; the move ends by replacing
// `from` with `to` in it and clearing the transition. A tablet in
// transition neither splits nor merges.
//
// A TabletMap is a value type; callers that share one publish immutable
// copies (see query/tablet_router.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace tessel {

// The stages of a replica move, in order (kCleanupTarget is the rollback).
enum class TransitionStage : uint8_t {
    kWriteBothReadOld,  // writes reach `from` and `to`, reads stay on the old replicas
    kStreaming,         // as above while the tablet's files stream from `from` to `to`
    kWriteBothReadNew,  // reads move to the new replicas; writes still reach `from` too
    kCleanup,           // `from` drops its copy; only the new replicas take writes
    kCleanupTarget,     // rollback: `to` drops what it received; the old replicas serve
};

// "write_both_read_old", "streaming", "write_both_read_new", "cleanup",
// "cleanup_target" (as system.tablets shows them).
std::string_view stage_name(TransitionStage stage);

struct TabletTransition {
    TransitionStage stage = TransitionStage::kWriteBothReadOld;
    std::string from;        // host id (16 bytes) of the replica leaving
    std::string to;          // host id (16 bytes) of the node receiving it
    int64_t started_ms = 0;  // when the move began
    bool operator==(const TabletTransition&) const = default;
};

struct Tablet {
    std::string start;                           // inclusive lower bound; "" for the first tablet
    int32_t shard = 0;                           // local shard the tablet is assigned to
    int64_t created_ms = 0;                      // when this range came to be (split/merge age)
    std::vector<std::string> replicas;           // host ids (16 bytes), primary first
    std::optional<TabletTransition> transition;  // a replica moving, if any

    // The replicas reads go to: `replicas` until the move reaches
    // kWriteBothReadNew, from then on (through kCleanup) with `from` replaced
    // by `to` in its place. A rollback (kCleanupTarget) reads the old ones.
    std::vector<std::string> read_replicas() const;
    // The node taking writes without serving reads: `to` during
    // kWriteBothReadOld and kStreaming; none otherwise.
    std::vector<std::string> pending_replicas() const;
    // Every node a write goes to: the read replicas, plus the pending one,
    // plus `from` during kWriteBothReadNew (coordinators may still read it).
    std::vector<std::string> write_replicas() const;

    bool operator==(const Tablet&) const = default;
};

class TabletMap {
  public:
    TabletMap() = default;

    // A hash table's first map: `count` tablets (at least 1) splitting the
    // token ring evenly, assigned round-robin to `shards` shards.
    static TabletMap initial_hash(int count, int shards, int64_t now_ms);
    // An ordered table's first map: one tablet over every key (its keys are
    // unknown until written; it splits at keys found in storage).
    static TabletMap initial_ordered(int64_t now_ms);
    // A map of the given tablets; Invalid unless the first starts at "" and
    // starts ascend (and, hashed, every other start is a token prefix), and
    // every transition moves one of the tablet's replicas to a node that is
    // not one.
    static Result<TabletMap> of(bool hashed, std::vector<Tablet> tablets);

    bool hashed() const { return hashed_; }
    size_t size() const { return tablets_.size(); }
    const std::vector<Tablet>& tablets() const { return tablets_; }
    const Tablet& at(size_t i) const { return tablets_[i]; }

    // Index of the tablet holding `key` (a physical partition key).
    size_t find(std::string_view key) const;
    // The exclusive upper bound of tablet i; nullopt for the last tablet.
    std::optional<std::string> end(size_t i) const;

    // Hash maps: the token midpoint of tablet i as a boundary (a token
    // prefix), or nullopt when the tablet is a single token.
    std::optional<std::string> token_midpoint(size_t i) const;

    // Splits tablet i at `key`, which must lie strictly inside it (Invalid
    // otherwise, and for a tablet in transition). The left half keeps the
    // shard; the right half goes to the shard holding the fewest tablets of
    // this map (of `shards`).
    Status split(size_t i, const std::string& key, int shards, int64_t now_ms);
    // Merges tablet i with tablet i + 1 (Invalid when there is no i + 1,
    // when their replicas differ or when either is in transition). The
    // merged tablet keeps tablet i's shard.
    Status merge(size_t i, int64_t now_ms);

    // The stored form (versioned, self-checking; version 1 maps, written
    // before tablets had replicas, and version 2 ones, written before
    // transitions, still decode; a map without a transition is written as
    // version 2, which nodes not yet upgraded read). decode() of anything
    // encode() did not write is Server_error, never a crash or a bad map.
    std::string encode() const;
    static Result<TabletMap> decode(std::string_view bytes);

    bool operator==(const TabletMap&) const = default;

  private:
    bool hashed_ = true;
    std::vector<Tablet> tablets_;  // ascending starts, tablets_[0].start == ""
};

}  // namespace tessel
