// The system keyspaces drivers read on connect: system.local, system.peers
// and the nine system_schema tables, as virtual tables over the catalog.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "query/virtual_table.h"

namespace tessel {
class Catalog;  // schema/catalog.h
}

namespace tessel::system {

// The Cassandra version this node presents as (system.local, system.peers,
// system.peers_v2): a 4.0 version makes the drivers and cqlsh 4.x use their
// 4.0 paths (server-side DESCRIBE, virtual keyspaces, peers_v2).
inline constexpr const char* kReleaseVersion = "4.0.11";

struct NodeInfo {
    std::string cluster_name;
    std::string host_id;  // 16-byte UUID
    std::string rpc_address = "127.0.0.1";
    int native_port = 9042;
    std::string listen_address;  // empty: the rpc address
    int storage_port = 7000;     // internode port (listen_port, broadcast_port)
    std::string data_center = "datacenter1";
    std::string rack = "rack1";
    std::vector<std::string> tokens;  // decimal signed 64-bit strings
};

// Another node of the cluster, as system.peers shows it.
struct PeerInfo {
    std::string host_id;
    std::string listen_address;  // `peer`
    int storage_port = 7000;     // `peer_port` (peers_v2)
    std::string rpc_address;
    int native_port = 9042;
    std::string data_center;
    std::string rack;
    std::string release_version;
    std::string schema_version;  // 16 bytes; empty: unknown (the node is down)
    std::vector<std::string> tokens;
};
using PeersFn = std::function<std::vector<PeerInfo>()>;

// The virtual tables of the system, system_schema and system_virtual_schema
// keyspaces. They read the catalog on every rows() call, so they always show
// the current schema, and `peers` (null on a single node: no peers) for
// system.peers and system.peers_v2.
// `catalog` must outlive the returned tables.
std::vector<std::unique_ptr<query::VirtualTable>> make_system_tables(const NodeInfo& node,
                                                                     const Catalog& catalog,
                                                                     PeersFn peers = nullptr);

}  // namespace tessel::system
