// system.tablets: one row per tablet of every stored table, read from the
// node's tablet router (see query/tablet_router.h).
//
//   keyspace_name, table_name, tablet_id   the tablet's place: its index in the
//                                           table's map (tablets are listed in
//                                           key order, so ids renumber when a
//                                           tablet splits or merges)
//   range_start, range_end                 hash tables: the first and last token
//                                           (both inclusive); ordered tables:
//                                           the first key (inclusive) and the
//                                           key the next tablet starts at
//                                           (exclusive), '' when unbounded
//   shard                                  the local shard it is assigned to
//   size_bytes, rows                       from the partition statistics (bytes
//                                           and row fragments written)
//   reads_per_sec, writes_per_sec,         the tablet's load over about the
//   bytes_per_sec                          last minute
//   replicas                               on a cluster, the addresses of the
//                                           nodes holding it (empty on one node)
//   stage, moving_from, moving_to          a replica moving (tablet_map.h): the
//                                           stage ("streaming", ...) and the two
//                                           nodes' host ids; null when none is
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "query/tablet_router.h"
#include "query/virtual_table.h"

namespace tessel {
class Catalog;
}

namespace tessel::system {

// A replica's name (its address) from its host id.
using ReplicaNamer = std::function<std::string(const std::string& host_id)>;

// `router` and `catalog` must outlive the table; `replica_name` may be null.
std::unique_ptr<query::VirtualTable> make_tablets_table(query::TabletRouter& router,
                                                        const Catalog& catalog,
                                                        ReplicaNamer replica_name = nullptr);

}  // namespace tessel::system
