// The internode messages of tablet migration and balancing (besides the
// streaming ones, streaming_messages.h): the tablet map barrier and the load
// report the balancer gathers from every node.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace tessel::cluster {

enum class MigrationVerb : uint16_t {
    kTabletBarrier = 20,  // TabletBarrier -> empty
    kTabletLoad = 21,     // empty -> TabletLoadReport
};

// Asks a node to install the table's tablet map of etcd revision
// `revision` (or a later one) and to wait until no request routed by an
// older map of the table is in flight there.
struct TabletBarrier {
    std::string table_id;
    int64_t revision = 0;
    uint32_t timeout_ms = 0;
};

// What one node measured of each tablet it routes: the bytes it holds of
// the tablet (0 unless a replica) and the requests it coordinated.
struct TabletLoadEntry {
    std::string table_id;
    std::string start;  // the tablet's first key (Tablet::start)
    uint64_t size_bytes = 0;
    double reads_per_sec = 0;
    double writes_per_sec = 0;
    double bytes_per_sec = 0;
};

struct TabletLoadReport {
    std::string host;  // the node reporting
    std::vector<TabletLoadEntry> tablets;
};

std::string encode(const TabletBarrier& m);
Status decode(std::string_view in, TabletBarrier* out);
std::string encode(const TabletLoadReport& m);
Status decode(std::string_view in, TabletLoadReport* out);

}  // namespace tessel::cluster
