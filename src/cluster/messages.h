// The internode messages of the data path: what a coordinator asks of a
// replica and what the replica answers. Each message encodes to bytes (the
// payload of an internode request, see messaging_service.h) and decodes from
// them; decoders never trust their input (a peer may be buggy or not a peer
// at all) and fail with Protocol_error instead of reading past the end.
//
// Reads return live, reconciled rows, as a local read does, in chunks of at
// most `row_limit` rows (and partitions for scans): the coordinator asks for
// the next chunk where the previous one ended. A digest request runs the
// same read and answers only its digest (and where it ended), so replicas
// holding the same live data answer the same digest. Raw reads return what a
// replica stores, tombstones included, as mutations: what read repair and
// anti-entropy repair send to the replicas that miss it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/topology.h"
#include "common/status.h"
#include "storage/mutation.h"
#include "storage/partition_reader.h"
#include "storage/partition_scanner.h"

namespace tessel::cluster {

// The verbs a replica serves (internode messaging's Verb numbers). Part of
// the wire format: never reuse a number.
enum class ReplicaVerb : uint16_t {
    kMutation = 1,      // MutationMessage -> empty
    kRead = 2,          // ReadCommand -> ReadResponse
    kReadRaw = 3,       // RawReadCommand -> PartitionMutation
    kScan = 4,          // ScanCommand -> ScanResponse
    kScanRaw = 5,       // RawScanCommand -> RawScanResponse
    kTruncate = 6,      // TruncateMessage -> empty
    kPaxosPrepare = 7,  // see paxos.h
    kPaxosPropose = 8,
    kPaxosCommit = 9,
    kCounterLeader = 10,  // MutationMessage (counter deltas) -> empty
    kRangeDigest = 11,    // RangeDigestCommand -> RangeDigestResponse
};

struct MutationMessage {
    std::string table_id;
    storage::PartitionMutation mutation;
};

// A counter write sent to the replica that leads it (counter_shards.h): the
// deltas, and what the leader needs to replicate the shards it makes.
struct CounterLeaderMessage {
    std::string table_id;
    storage::PartitionMutation mutation;  // kCounterDelta cells
    std::vector<std::string> replicas;    // the partition's replicas, host ids
    std::vector<std::string> pending;     // replicas taking writes only (Placement::pending)
    Replication replication;
    uint16_t consistency = 0x0001;
    uint32_t timeout_ms = 0;  // what is left of the request's time
};

struct TruncateMessage {
    std::string table_id;
};

// One chunk of a partition slice.
struct ReadCommand {
    std::string table_id;
    std::string partition_key;
    storage::SliceSpec slice;
    int64_t now_seconds = 0;
    uint32_t row_limit = 0;  // 0: no limit
    bool digest_only = false;
};

struct ReadResponse {
    std::optional<storage::Row> static_row;  // first chunk only
    std::vector<storage::Row> rows;          // empty for a digest
    bool exhausted = true;                   // no rows after these in the slice
    std::string last_clustering;             // of the last row read (digests too)
    uint64_t tombstones = 0;
    std::string digest;  // digest requests only
};

// One chunk of a scan: up to partition_limit partitions with live data in
// the range, each with the first row_limit rows of `slice`.
struct ScanCommand {
    std::string table_id;
    storage::KeyRange range;
    storage::SliceSpec slice;
    int64_t now_seconds = 0;
    uint32_t partition_limit = 0;
    uint32_t row_limit = 0;
    bool digest_only = false;
};

struct ScannedPartition {
    std::string key;
    std::optional<storage::Row> static_row;
    std::vector<storage::Row> rows;
    bool exhausted = true;  // every row of the slice is in `rows`
};

struct ScanResponse {
    std::vector<ScannedPartition> partitions;  // empty for a digest
    bool exhausted = true;                     // no partitions after these in the range
    std::string last_key;                      // the last partition read (digests too)
    uint64_t tombstones = 0;
    std::string digest;
};

// What a replica stores for a clustering range of a partition, as a mutation
// that reproduces it (partition deletion and range tombstones are included
// whatever the range).
struct RawReadCommand {
    std::string table_id;
    std::string partition_key;
    storage::ClusteringBound start;  // empty prefix: unbounded
    storage::ClusteringBound end;
    bool include_static = true;
};

struct RawScanCommand {
    std::string table_id;
    storage::KeyRange range;
    uint32_t max_bytes = 1u << 20;  // a chunk ends after the partition that passes it
};

struct RawScanResponse {
    std::vector<storage::PartitionMutation> partitions;
    bool exhausted = true;
    std::string last_key;
};

// Digests of consecutive sub-ranges of a key range, cut at `boundaries`
// (each the inclusive start of the next sub-range): boundaries.size() + 1
// digests of raw stored data, tombstones included.
struct RangeDigestCommand {
    std::string table_id;
    storage::KeyRange range;
    std::vector<std::string> boundaries;
};

struct RangeDigestResponse {
    std::vector<std::string> digests;
    std::vector<uint64_t> partitions;  // per sub-range
};

std::string encode(const MutationMessage& m);
std::string encode(const CounterLeaderMessage& m);
std::string encode(const TruncateMessage& m);
std::string encode(const ReadCommand& m);
std::string encode(const ReadResponse& m);
std::string encode(const ScanCommand& m);
std::string encode(const ScanResponse& m);
std::string encode(const RawReadCommand& m);
std::string encode(const storage::PartitionMutation& m);
std::string encode(const RawScanCommand& m);
std::string encode(const RawScanResponse& m);
std::string encode(const RangeDigestCommand& m);
std::string encode(const RangeDigestResponse& m);

Status decode(std::string_view in, MutationMessage* out);
Status decode(std::string_view in, CounterLeaderMessage* out);

// A request's outcome as a reply payload, with the fields an error carries
// to the client (Write_timeout's received, block_for and write type, ...),
// for verbs whose errors the coordinator passes on as they are.
std::string encode_status(const Status& st);
// The decoded outcome, or Protocol_error for a malformed payload.
Status decode_status(std::string_view in);
Status decode(std::string_view in, TruncateMessage* out);
Status decode(std::string_view in, ReadCommand* out);
Status decode(std::string_view in, ReadResponse* out);
Status decode(std::string_view in, ScanCommand* out);
Status decode(std::string_view in, ScanResponse* out);
Status decode(std::string_view in, RawReadCommand* out);
Status decode(std::string_view in, storage::PartitionMutation* out);
Status decode(std::string_view in, RawScanCommand* out);
Status decode(std::string_view in, RawScanResponse* out);
Status decode(std::string_view in, RangeDigestCommand* out);
Status decode(std::string_view in, RangeDigestResponse* out);

// The digest of live rows as a read returns them (static row, then rows):
// equal for replicas holding the same live data.
class RowDigest {
  public:
    RowDigest();
    ~RowDigest();
    RowDigest(const RowDigest&) = delete;
    RowDigest& operator=(const RowDigest&) = delete;
    void add_partition(std::string_view key);
    void add_row(const storage::Row& row, bool is_static);
    void add_bytes(std::string_view bytes);
    std::string finish();  // 16 bytes

  private:
    void* state_;
};

}  // namespace tessel::cluster
