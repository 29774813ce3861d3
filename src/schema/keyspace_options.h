// KeyspaceOptions: the WITH properties of CREATE/ALTER KEYSPACE, and the
// validation of replication settings the way Cassandra 4.0 does it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "schema/option_value.h"
#include "schema/table_options.h"

namespace tessel {

// Properties as given in one statement; absent ones keep their current value
// (ALTER) or their default (CREATE: durable_writes = true).
struct KeyspaceOptions {
    std::optional<StringMap> replication;  // as written, not yet normalised
    std::optional<bool> durable_writes;
};

// Records one property. Unknown name -> Syntax_error "Unknown property 'foo'";
// wrong value shape -> Syntax_error like Cassandra's.
Status apply_keyspace_option(KeyspaceOptions& opts, std::string_view name,
                             const OptionValue& value);

// The data centre a node reports when none is configured (system.local).
inline constexpr std::string_view kDefaultDatacenter = "datacenter1";

// Cassandra 4.0's ReplicationFactor.fromString: "<replicas>" or
// "<replicas>/<transient>", each part read as Java's Integer.parseInt does.
// Config_error messages are Cassandra's: 'For input string: "x"', "Replication
// factor must be non-negative, found -1", "Replication factor format is
// <replicas> or <replicas>/<transient>", and "Transient replication is not
// enabled on this node" for any transient replica (Cassandra's default).
Result<int32_t> parse_replication_factor(std::string_view text);

// Validates a replication map and returns it normalised, as Cassandra 4.0's
// ReplicationParams and strategies do: the class becomes its full name
// ('org.apache.cassandra.locator.SimpleStrategy'). For NetworkTopologyStrategy
//  - 'replication_factor': N is expanded to every data centre in `datacenters`
//    that the map does not name itself (CASSANDRA-14303); on ALTER the data
//    centres of `previous` (the current replication) keep their factors, and
//    a bare {'class': 'NetworkTopologyStrategy'} takes the previous
//    SimpleStrategy's replication_factor;
//  - entries whose factor is "0" are dropped;
//  - every data centre must be in `datacenters` ("Unrecognized strategy option
//    {dc2} passed to NetworkTopologyStrategy for keyspace ks") and at least one
//    must remain ("Configuration for at least one datacenter must be present").
// Other Config_error messages: "Missing replication strategy class",
// "SimpleStrategy requires a replication_factor strategy option.",
// "Unrecognized strategy option {foo} passed to SimpleStrategy for keyspace ks",
// and parse_replication_factor's.
Result<StringMap> normalize_replication(const StringMap& replication, std::string_view keyspace,
                                        const std::set<std::string>& datacenters,
                                        const StringMap& previous = {});

// Cassandra 4.0's maybeWarnOnOptions: a client warning for every factor higher
// than the nodes it can use, for a normalised replication. SimpleStrategy:
// "Your replication factor 3 for keyspace ks is higher than the number of nodes
// 1" (when some node is known); NetworkTopologyStrategy, per data centre:
// "... is higher than the number of nodes 1 for datacenter dc1".
// `nodes_per_datacenter`: how many nodes each data centre has.
std::vector<std::string> replication_warnings(
    const StringMap& normalized, std::string_view keyspace,
    const std::map<std::string, int>& nodes_per_datacenter);

// The class name without the org.apache.cassandra.locator. prefix, as drivers show it.
std::string short_strategy_name(std::string_view class_name);

}  // namespace tessel
