// KeyspaceOptions: the WITH properties of CREATE/ALTER KEYSPACE, and the
// validation of replication settings the way Cassandra 3.11 does it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

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

// Validates a replication map and returns it normalised: the class becomes its
// full name ('org.apache.cassandra.locator.SimpleStrategy'), other entries are
// kept. Config_error messages are Cassandra's ("Missing replication strategy
// class", "SimpleStrategy requires a replication_factor strategy option.",
// "Replication factor must be numeric; found x", "Unrecognized strategy option
// {foo} passed to SimpleStrategy for keyspace ks", ...).
Result<StringMap> normalize_replication(const StringMap& replication, std::string_view keyspace);

// The class name without the org.apache.cassandra.locator. prefix, as drivers show it.
std::string short_strategy_name(std::string_view class_name);

}  // namespace tessel
