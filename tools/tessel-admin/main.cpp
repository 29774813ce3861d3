// tessel-admin: operations on a running tesseld, over CQL.
//   tessel-admin [--host H] [--port P] [-u USER -p PASSWORD] COMMAND [ARGS]
// Commands read the system tables (system.local, system.tablets,
// system.hot_partitions, system.large_partitions, system.partition_advice)
// or send the CALL statements of diagnostics/admin_calls.h. See
// docs/operations.md.
#include <CLI/CLI.hpp>

#include <iostream>

#include "admin.h"

namespace {

int fail(const std::string& message, int code = 1) {
    std::cerr << "tessel-admin: " << message << "\n";
    return code;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace tessel;
    CLI::App app{"tessel-admin: partition health and operations for a running tesseld"};
    app.require_subcommand(1);
    std::string host = "127.0.0.1";
    int port = 9042;
    app.add_option("--host", host, "Server address")->capture_default_str();
    app.add_option("--port", port, "Server CQL port")->capture_default_str();
    std::string username, password;
    app.add_option("-u,--username", username, "Log in as this role (PasswordAuthenticator)");
    app.add_option("-p,--password", password, "The role's password");

    std::string scope_text;
    std::string table_arg;
    std::string duration_text = "10s";
    size_t top = 10;

    auto* status = app.add_subcommand("status", "Every node: status, address, load, tablets");
    auto* info = app.add_subcommand("info", "Node information from system.local");
    auto* tablestats = app.add_subcommand("tablestats", "Per-table statistics");
    tablestats->add_option("scope", scope_text, "KEYSPACE or KEYSPACE.TABLE");
    auto* flush = app.add_subcommand("flush", "Flush memtables (CALL system.flush)");
    flush->add_option("keyspace", scope_text, "Keyspace (default: all)");
    flush->add_option("table", table_arg, "Table (default: all of the keyspace)");
    auto* compact = app.add_subcommand("compact", "Major compaction (CALL system.compact)");
    compact->add_option("keyspace", scope_text, "Keyspace (default: all)");
    compact->add_option("table", table_arg, "Table (default: all of the keyspace)");
    auto* repair = app.add_subcommand("repair", "Anti-entropy repair (CALL system.repair)");
    repair->add_option("scope", scope_text, "KEYSPACE or KEYSPACE.TABLE (default: all)");
    auto* decommission = app.add_subcommand(
        "decommission", "Move every tablet replica off --host, then make it leave the cluster");
    auto* removenode =
        app.add_subcommand("removenode", "Remove a dead node; its replicas are rebuilt");
    std::string host_id;
    removenode->add_option("host_id", host_id, "The dead node's host id (tessel-admin status)")
        ->required();
    auto* tablets = app.add_subcommand("tablets", "Per-tablet load and the table's skew");
    tablets->add_option("scope", scope_text, "KEYSPACE or KEYSPACE.TABLE");
    auto* toppart = app.add_subcommand("toppartitions", "Sample the hottest partitions");
    toppart->add_option("keyspace", scope_text, "Keyspace")->required();
    toppart->add_option("table", table_arg, "Table")->required();
    toppart
        ->add_option("-d,--duration", duration_text, "Sampling time (10s, 500ms, 1m; ms if bare)")
        ->capture_default_str();
    toppart->add_option("-k,--top", top, "Partitions to list per sampler")->capture_default_str();
    auto* large = app.add_subcommand("largepartitions", "Partitions over a size or rows threshold");
    large->add_option("scope", scope_text, "KEYSPACE or KEYSPACE.TABLE");
    auto* advise = app.add_subcommand("advise", "Partition-key advice for a table");
    advise->add_option("table", scope_text, "KEYSPACE.TABLE")->required();
    CLI11_PARSE(app, argc, argv);

    admin::TableRef scope;
    if (!scope_text.empty()) {
        auto ref = admin::parse_table_ref(scope_text);
        if (!ref) return fail("expected KEYSPACE or KEYSPACE.TABLE, got '" + scope_text + "'", 2);
        scope = *ref;
    }
    if (!table_arg.empty()) {
        if (!scope.table.empty()) return fail("give the table once", 2);
        scope.table = table_arg;
    }
    int64_t duration_ms = 0;
    if (toppart->parsed()) {
        auto d = admin::parse_duration_ms(duration_text);
        if (!d || *d <= 0) return fail("invalid duration '" + duration_text + "'", 2);
        duration_ms = *d;
    }
    if (advise->parsed() && scope.table.empty()) {
        return fail("advise needs KEYSPACE.TABLE", 2);
    }

    client::ClientOptions options;
    options.host = host;
    options.port = port;
    options.username = username;
    options.password = password;
    // Waits while tablet replicas stream (the server answers within 30 min).
    if (decommission->parsed() || removenode->parsed()) options.request_timeout_ms = 35 * 60 * 1000;
    auto connected = client::Client::connect(options);
    if (!connected.is_ok()) return fail(connected.status().message(), 2);
    client::Client& c = **connected;

    Status st;
    if (status->parsed()) {
        st = admin::cmd_status(c, std::cout);
    } else if (info->parsed()) {
        st = admin::cmd_info(c, std::cout);
    } else if (tablestats->parsed()) {
        st = admin::cmd_tablestats(c, scope, std::cout);
    } else if (flush->parsed() || compact->parsed()) {
        st = admin::cmd_flush_or_compact(c, compact->parsed(), scope, std::cout);
    } else if (repair->parsed()) {
        st = admin::cmd_repair(c, scope, std::cout);
    } else if (decommission->parsed()) {
        st = admin::cmd_node_leaves(c, "", std::cout);
    } else if (removenode->parsed()) {
        st = admin::cmd_node_leaves(c, host_id, std::cout);
    } else if (tablets->parsed()) {
        st = admin::cmd_tablets(c, scope, std::cout);
    } else if (toppart->parsed()) {
        st = admin::cmd_toppartitions(c, scope, duration_ms, top, std::cout);
    } else if (large->parsed()) {
        st = admin::cmd_largepartitions(c, scope, std::cout);
    } else if (advise->parsed()) {
        st = admin::cmd_advise(c, scope, std::cout);
    }
    c.close();
    if (!st.is_ok()) return fail(st.to_string());
    return 0;
}
