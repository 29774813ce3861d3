// The records a node keeps in etcd about itself, as JSON (readable with
// etcdctl): its topology record (nodes/<host id>, written when it joins)
// and its liveness record (alive/<host id>, under its lease).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cluster/topology.h"
#include "common/status.h"

namespace tessel::cluster {

// What a live node reports besides being alive.
struct AliveInfo {
    std::string schema_version;  // 16 bytes
    uint64_t load_bytes = 0;     // live data on disk
    int64_t started_at_ms = 0;
};

std::string encode_node(const NodeInfo& node);
Result<NodeInfo> decode_node(std::string_view json);

std::string encode_alive(const AliveInfo& alive);
Result<AliveInfo> decode_alive(std::string_view json);

// A host id (16 bytes) as 32 hex digits, and back.
std::string host_id_hex(std::string_view host_id);
Result<std::string> host_id_from_hex(std::string_view hex);

}  // namespace tessel::cluster
