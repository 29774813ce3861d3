#include "system/cluster_nodes_table.h"

#include "system/cell_encoding.h"

namespace tessel::system {
namespace {

Cell bigint(int64_t v) {
    std::string out;
    for (int s = 56; s >= 0; s -= 8)
        out.push_back(static_cast<char>((static_cast<uint64_t>(v) >> s) & 0xFF));
    return out;
}

class ClusterNodesTable final : public query::VirtualTable {
  public:
    explicit ClusterNodesTable(std::function<std::vector<ClusterNodeRow>()> rows)
        : rows_(std::move(rows)) {}

    std::string keyspace() const override { return "system"; }
    std::string name() const override { return "cluster_nodes"; }
    std::string schema_cql() const override {
        return "CREATE TABLE system.cluster_nodes (host_id uuid PRIMARY KEY, address inet, "
               "status text, load_bytes bigint, tablets bigint, data_center text, rack text, "
               "tokens int, schema_version uuid)";
    }
    Result<std::vector<query::VirtualRow>> rows() const override {
        std::vector<query::VirtualRow> out;
        for (const auto& n : rows_()) {
            out.push_back({uuid_cell(n.host_id), inet_cell(n.address), text_cell(n.status),
                           bigint(n.load_bytes), bigint(n.tablets), text_cell(n.data_center),
                           text_cell(n.rack), int_cell(n.tokens),
                           n.schema_version.empty() ? std::optional<std::string>()
                                                    : uuid_cell(n.schema_version)});
        }
        return out;
    }

  private:
    std::function<std::vector<ClusterNodeRow>()> rows_;
};

}  // namespace

std::unique_ptr<query::VirtualTable> make_cluster_nodes_table(
    std::function<std::vector<ClusterNodeRow>()> rows) {
    return std::make_unique<ClusterNodesTable>(std::move(rows));
}

}  // namespace tessel::system
