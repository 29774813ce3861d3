#include "system/system_tables.h"

#include <chrono>
#include <functional>
#include <utility>

#include "partition/murmur3.h"
#include "schema/catalog.h"
#include "system/builtin_tables.h"
#include "system/catalog_model.h"
#include "system/cell_encoding.h"
#include "system/node_token.h"
#include "system/row_builder.h"
#include "system/schema_rows.h"

namespace tessel::system {
namespace {

using RowsFn = std::function<Result<std::vector<query::VirtualRow>>()>;

class BuiltinVirtualTable final : public query::VirtualTable {
  public:
    BuiltinVirtualTable(const BuiltinTable& def, RowsFn rows) : def_(def), rows_(std::move(rows)) {}

    std::string keyspace() const override { return def_.keyspace; }
    std::string name() const override { return def_.name; }
    std::string schema_cql() const override { return def_.schema_cql(); }
    Result<std::vector<query::VirtualRow>> rows() const override { return rows_(); }

  private:
    const BuiltinTable& def_;
    RowsFn rows_;
};

std::vector<query::VirtualRow> local_rows(const NodeInfo& node, const Catalog& catalog,
                                          int32_t gossip_generation) {
    std::vector<std::string> tokens = node.tokens;
    if (tokens.empty()) tokens.push_back(default_token_for_host(node.host_id));
    RowBuilder row(builtin_table("system", "local"));
    row.set("key", text_cell("local"))
        .set("bootstrapped", text_cell("COMPLETED"))
        .set("broadcast_address", inet_cell(node.rpc_address))
        .set("broadcast_port", int_cell(node.storage_port))
        .set("cluster_name", text_cell(node.cluster_name))
        .set("cql_version", text_cell("3.4.4"))
        .set("data_center", text_cell(node.data_center))
        .set("gossip_generation", int_cell(gossip_generation))
        .set("host_id", uuid_cell(node.host_id))
        .set("listen_address",
             inet_cell(node.listen_address.empty() ? node.rpc_address : node.listen_address))
        .set("listen_port", int_cell(node.storage_port))
        .set("native_protocol_version", text_cell("4"))
        .set("partitioner", text_cell("org.apache.cassandra.dht.Murmur3Partitioner"))
        .set("rack", text_cell(node.rack))
        .set("release_version", text_cell(kReleaseVersion))
        .set("rpc_address", inet_cell(node.rpc_address))
        .set("rpc_port", int_cell(node.native_port))
        .set("schema_version", uuid_cell(catalog.version().raw()))
        .set("tokens", text_set_cell(tokens));
    return {row.take()};
}

// system.peers, or with `v2` Cassandra 4.0's system.peers_v2: peers keyed by
// address and internode port, the client address and port as
// native_address / native_port.
std::vector<query::VirtualRow> peer_rows(const std::vector<PeerInfo>& peers, bool v2) {
    const BuiltinTable& def = builtin_table("system", v2 ? "peers_v2" : "peers");
    std::vector<query::VirtualRow> rows;
    for (const auto& p : peers) {
        RowBuilder row(def);
        row.set("peer", inet_cell(p.listen_address))
            .set("data_center", text_cell(p.data_center))
            .set("host_id", uuid_cell(p.host_id))
            .set("rack", text_cell(p.rack))
            .set("release_version", text_cell(p.release_version))
            .set("tokens", text_set_cell(p.tokens));
        if (v2) {
            row.set("peer_port", int_cell(p.storage_port))
                .set("native_address", inet_cell(p.rpc_address))
                .set("native_port", int_cell(p.native_port));
        } else {
            row.set("rpc_address", inet_cell(p.rpc_address));
        }
        if (!p.schema_version.empty()) row.set("schema_version", uuid_cell(p.schema_version));
        rows.push_back(row.take());
    }
    return rows;
}

// system_virtual_schema describes the virtual keyspace itself, as Cassandra
// 4.0 lists its own virtual tables there.
std::vector<query::VirtualRow> virtual_schema_rows(const std::string& table) {
    const std::string ks = "system_virtual_schema";
    const BuiltinTable& def = builtin_table(ks, table);
    std::vector<query::VirtualRow> rows;
    if (table == "keyspaces") {
        rows.push_back(RowBuilder(def).set("keyspace_name", text_cell(ks)).take());
        return rows;
    }
    for (const auto& t : builtin_tables()) {
        if (t.keyspace != ks) continue;
        if (table == "tables") {
            rows.push_back(RowBuilder(def)
                               .set("keyspace_name", text_cell(ks))
                               .set("table_name", text_cell(t.name))
                               .set("comment", text_cell(t.comment))
                               .take());
            continue;
        }
        for (const auto& c : t.columns) {
            rows.push_back(RowBuilder(def)
                               .set("keyspace_name", text_cell(ks))
                               .set("table_name", text_cell(t.name))
                               .set("column_name", text_cell(c.name))
                               .set("clustering_order", text_cell(c.clustering_order))
                               .set("column_name_bytes", blob_cell(c.name))
                               .set("kind", text_cell(c.kind))
                               .set("position", int_cell(c.position))
                               .set("type", text_cell(c.type))
                               .take());
        }
    }
    return rows;
}

}  // namespace

std::string default_token_for_host(std::string_view host_id) {
    return std::to_string(murmur3_token(host_id));
}

std::vector<std::unique_ptr<query::VirtualTable>> make_system_tables(const NodeInfo& node,
                                                                     const Catalog& catalog,
                                                                     PeersFn peers) {
    // Cassandra's gossip generation is the node's start time in seconds.
    auto generation = static_cast<int32_t>(std::chrono::duration_cast<std::chrono::seconds>(
                                               std::chrono::system_clock::now().time_since_epoch())
                                               .count());
    const Catalog* cat = &catalog;
    std::vector<std::unique_ptr<query::VirtualTable>> tables;
    tables.push_back(std::make_unique<BuiltinVirtualTable>(
        builtin_table("system", "local"),
        [node, cat, generation]() -> Result<std::vector<query::VirtualRow>> {
            return local_rows(node, *cat, generation);
        }));
    // One node: no peers, but the table must answer with its columns.
    tables.push_back(std::make_unique<BuiltinVirtualTable>(
        builtin_table("system", "peers"), [peers]() -> Result<std::vector<query::VirtualRow>> {
            if (!peers) return std::vector<query::VirtualRow>{};
            return peer_rows(peers(), false);
        }));
    tables.push_back(std::make_unique<BuiltinVirtualTable>(
        builtin_table("system", "peers_v2"), [peers]() -> Result<std::vector<query::VirtualRow>> {
            if (!peers) return std::vector<query::VirtualRow>{};
            return peer_rows(peers(), true);
        }));
    for (const auto& def : builtin_tables()) {
        if (def.keyspace == "system_virtual_schema") {
            std::string table = def.name;
            tables.push_back(std::make_unique<BuiltinVirtualTable>(
                def, [table]() -> Result<std::vector<query::VirtualRow>> {
                    return virtual_schema_rows(table);
                }));
            continue;
        }
        if (def.keyspace != "system_schema") continue;
        std::string table = def.name;
        tables.push_back(std::make_unique<BuiltinVirtualTable>(
            def, [cat, table]() -> Result<std::vector<query::VirtualRow>> {
                auto snapshot = cat->snapshot();
                return schema_table_rows(table, model_of(*snapshot));
            }));
    }
    return tables;
}

}  // namespace tessel::system
