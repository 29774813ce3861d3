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

struct NodeInfo {
    std::string cluster_name;
    std::string host_id;  // 16-byte UUID
    std::string rpc_address = "127.0.0.1";
    int native_port = 9042;
    std::string data_center = "datacenter1";
    std::string rack = "rack1";
    std::vector<std::string> tokens;  // decimal signed 64-bit strings
};

// The virtual tables of the system and system_schema keyspaces. They read the
// catalog on every rows() call, so they always show the current schema.
// `catalog` must outlive the returned tables.
std::vector<std::unique_ptr<query::VirtualTable>> make_system_tables(const NodeInfo& node,
                                                                     const Catalog& catalog);

}  // namespace tessel::system
