// system.cluster_nodes: every node of the cluster as this node sees it (what
// `tessel-admin status` prints, like nodetool status). One row on a single
// node.
//
//   host_id          uuid
//   address          the node's listen address (internode and clients)
//   status           UN / DN (up or down) with state N / J / L
//   load_bytes       the live data it reports
//   tablets          tablet replicas it holds, over every table
//   data_center, rack, tokens (how many), schema_version
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "query/virtual_table.h"

namespace tessel::system {

struct ClusterNodeRow {
    std::string host_id;  // 16 bytes
    std::string address;
    std::string status;  // "UN", "DN", "UJ", "UL", ...
    int64_t load_bytes = 0;
    int64_t tablets = 0;
    std::string data_center;
    std::string rack;
    int32_t tokens = 0;
    std::string schema_version;  // 16 bytes, empty when unknown
};

std::unique_ptr<query::VirtualTable> make_cluster_nodes_table(
    std::function<std::vector<ClusterNodeRow>()> rows);

}  // namespace tessel::system
