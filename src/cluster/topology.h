// Topology: the nodes of a cluster, their tokens, and where Cassandra's
// replication strategies put a token's replicas.
//
// Tablets are the unit of placement, but drivers still route by the token
// ring they read from system.peers (every node's `tokens`) and the keyspace's
// replication strategy. A hash table's first tablets are therefore the ring's
// ranges, each placed on the replicas the strategy gives that range, so a
// token-aware driver sends each request to a replica. Later moves (the
// balancer) depart from the ring; a coordinator that is not a replica then
// forwards, one hop, as any coordinator does.
//
// Everything here is a pure function of its inputs.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "partition/tablet_map.h"

namespace tessel::cluster {

// Cassandra's nodetool status letters: UN, UJ, UL (and gone: removed).
enum class NodeState : uint8_t { kJoining = 0, kNormal = 1, kLeaving = 2 };

std::string_view node_state_name(NodeState s);  // "JOINING", "NORMAL", "LEAVING"

struct NodeInfo {
    std::string host_id;  // 16 bytes
    std::string rpc_address = "127.0.0.1";
    int native_port = 9042;
    std::string listen_address = "127.0.0.1";
    int storage_port = 7000;
    std::string dc = "datacenter1";
    std::string rack = "rack1";
    std::vector<int64_t> tokens;  // sorted
    NodeState state = NodeState::kNormal;
    std::string release_version;
};

// A keyspace's replication, from its replication options.
struct Replication {
    bool network_topology = false;
    int replication_factor = 1;         // SimpleStrategy (and LocalStrategy: 1)
    std::map<std::string, int> per_dc;  // NetworkTopologyStrategy
    bool local = false;                 // LocalStrategy: this node only

    // From the normalised replication map of a keyspace.
    static Result<Replication> from_options(const std::map<std::string, std::string>& options);
    // The replication factor in `dc` (SimpleStrategy: every DC counts as one
    // replica set; callers use total()).
    int in_dc(const std::string& dc) const;
    int total() const;
};

// The token ring of the nodes that own ranges (normal and leaving nodes).
class Ring {
  public:
    Ring() = default;
    explicit Ring(const std::vector<NodeInfo>& nodes);

    bool empty() const { return tokens_.empty(); }
    // (token, host id), sorted by token.
    const std::vector<std::pair<int64_t, std::string>>& tokens() const { return tokens_; }
    // The index of the first ring token >= `token` (wrapping to 0): the end
    // of the range that holds `token`.
    size_t range_of(int64_t token) const;
    // The replicas of the range ending at ring token `index`, primary first:
    // SimpleStrategy walks the ring for distinct nodes; NetworkTopologyStrategy
    // does so per data centre, preferring racks not used yet (Cassandra's
    // NetworkTopologyStrategy.calculateNaturalReplicas).
    std::vector<std::string> replicas(size_t index, const Replication& replication) const;

    // Tokens for a node joining `existing` (of any state): each new token
    // carves a slice from the largest range of the node owning the most,
    // so the new node takes about 1/(n+1) of the ring from every owner.
    // Deterministic. A first node gets `count` evenly spaced tokens.
    static std::vector<int64_t> allocate_tokens(const std::vector<NodeInfo>& existing, int count);

  private:
    std::vector<std::pair<int64_t, std::string>> tokens_;
    std::map<std::string, std::pair<std::string, std::string>> location_;  // host -> (dc, rack)
};

// The first tablet map of a table on a cluster: a hash table gets one tablet
// per ring range (tokens (t[i-1], t[i]] as a key range), each with its
// range's replicas; an ordered table gets one tablet, placed like the range
// of token 0. Requires a non-empty ring.
TabletMap initial_cluster_map(bool hashed, const Ring& ring, const Replication& replication,
                              int64_t now_ms);

}  // namespace tessel::cluster
