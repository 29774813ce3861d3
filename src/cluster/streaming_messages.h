// The internode messages of streaming (streaming.h): a coordinator asks the
// source to stream a range, the source sends the target the range's SST
// files in checksummed chunks, and any node asks another to drop a range.
// Decoders never trust their input and fail with Protocol_error.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "storage/range_files.h"

namespace tessel::cluster {

// Internode messaging's Verb numbers of streaming. Part of the wire format:
// never reuse a number (ReplicaVerb has 1..11; 20 and 21 are migration's).
enum class StreamingVerb : uint16_t {
    kStreamRange = 12,  // StreamRangeRequest (coordinator -> source) -> StreamSummary
    kStreamFiles = 13,  // StreamManifest (source -> target) -> empty
    kStreamChunk = 14,  // StreamChunk (source -> target) -> empty
    kStreamEnd = 15,    // StreamEnd (source -> target) -> StreamSummary
    kDropRange = 16,    // DropRangeRequest -> empty
};

// Stream `range` of the table to `target` (a host id), within `timeout_ms`.
struct StreamRangeRequest {
    std::string table_id;
    storage::RecordRange range;
    std::string target;
    uint32_t timeout_ms = 0;
};

// What a stream moved: files and bytes sent (the source's answer) or
// ingested (the target's).
struct StreamSummary {
    uint64_t files = 0;
    uint64_t bytes = 0;
    uint64_t records = 0;  // table records, as the source exported them
};

struct StreamFile {
    bool stats = false;  // for the partition_stats family (else the table's)
    uint64_t size = 0;
};

// Opens a session on the target: the files that will follow, in order.
// The target drops the session when no message came for its idle timeout.
struct StreamManifest {
    std::string session_id;
    std::string table_id;
    std::vector<StreamFile> files;
};

// Bytes [offset, offset + data.size()) of file `file`; chunks of a file
// come in order. `checksum`: XXH3-64 of `data`.
struct StreamChunk {
    std::string session_id;
    uint32_t file = 0;
    uint64_t offset = 0;
    uint64_t checksum = 0;
    std::string data;
};

// commit: every chunk was sent; `checksums` (XXH3-64 of each whole file)
// must match what arrived, then the target ingests the files. Otherwise
// the source gave up: the target drops the session.
struct StreamEnd {
    std::string session_id;
    bool commit = false;
    std::vector<uint64_t> checksums;
};

struct DropRangeRequest {
    std::string table_id;
    storage::RecordRange range;
};

std::string encode(const StreamRangeRequest& m);
std::string encode(const StreamSummary& m);
std::string encode(const StreamManifest& m);
std::string encode(const StreamChunk& m);
std::string encode(const StreamEnd& m);
std::string encode(const DropRangeRequest& m);

Status decode(std::string_view in, StreamRangeRequest* out);
Status decode(std::string_view in, StreamSummary* out);
Status decode(std::string_view in, StreamManifest* out);
Status decode(std::string_view in, StreamChunk* out);
Status decode(std::string_view in, StreamEnd* out);
Status decode(std::string_view in, DropRangeRequest* out);

}  // namespace tessel::cluster
