#include "system/tablets_table.h"

#include <limits>

#include "partition/token.h"
#include "query/key_codec.h"
#include "query/schema_view.h"
#include "query/table_source.h"
#include "schema/catalog.h"
#include "system/cell_encoding.h"
#include "types/bytes_util.h"
#include "types/value.h"

namespace tessel::system {
namespace {

Cell bigint_cell(int64_t v) {
    std::string out;
    for (int s = 56; s >= 0; s -= 8)
        out.push_back(static_cast<char>((static_cast<uint64_t>(v) >> s) & 0xFF));
    return out;
}

int64_t first_token(const std::string& boundary) {
    if (boundary.empty()) return std::numeric_limits<int64_t>::min();
    return decode_token_prefix(boundary).value();
}

// An ordered table's boundary as cqlsh prints the key ('a':1), or its bytes
// in hex when it is not a whole key.
std::string key_text(const query::KeyLayout& layout, const std::string& key) {
    if (key.empty()) return "";
    auto comps = query::decode_partition_key(layout, key);
    if (!comps.is_ok()) return "0x" + bytes::to_hex(key);
    std::string out;
    for (size_t i = 0; i < comps->size(); ++i) {
        if (i > 0) out += ':';
        out += format_value(*layout.partition_types[i], (*comps)[i]);
    }
    if (layout.has_hidden()) {
        auto hidden = query::decode_hidden_key(layout, key);
        if (hidden.is_ok()) {
            if (layout.shards > 0) out += " shard " + std::to_string(hidden->shard);
            if (layout.bucket_width_ms > 0) out += " bucket " + std::to_string(hidden->bucket);
        }
    }
    return out;
}

class TabletsTable final : public query::VirtualTable {
  public:
    TabletsTable(query::TabletRouter& router, const Catalog& catalog, ReplicaNamer namer)
        : router_(router), catalog_(catalog), namer_(std::move(namer)) {}

    std::string keyspace() const override { return "system"; }
    std::string name() const override { return "tablets"; }
    std::string schema_cql() const override {
        return "CREATE TABLE system.tablets (keyspace_name text, table_name text, "
               "tablet_id bigint, range_start text, range_end text, shard int, "
               "size_bytes bigint, rows bigint, reads_per_sec double, writes_per_sec double, "
               "bytes_per_sec double, replicas frozen<list<text>>, stage text, "
               "moving_from text, moving_to text, "
               "PRIMARY KEY ((keyspace_name), table_name, tablet_id))";
    }

    Result<std::vector<query::VirtualRow>> rows() const override {
        std::vector<query::VirtualRow> out;
        auto schema = catalog_.snapshot();
        for (const auto& [ks, kdef] : schema->keyspaces) {
            for (const auto& [name, def] : kdef->tables) {
                TESSEL_ASSIGN_OR_RETURN(auto reports, router_.describe(def->storage_name()));
                const auto layout = query::layout_of(*query::table_info_from_def(*def));
                for (const auto& r : reports) {
                    out.push_back(row(ks, name, layout, r));
                }
            }
        }
        return out;
    }

  private:
    query::VirtualRow row(const std::string& ks, const std::string& table,
                          const query::KeyLayout& layout, const query::TabletReport& r) const {
        std::string start, end;
        if (layout.hashed) {
            start = std::to_string(first_token(r.tablet.start));
            end = std::to_string(r.end ? first_token(*r.end) - 1
                                       : std::numeric_limits<int64_t>::max());
        } else {
            start = key_text(layout, r.tablet.start);
            end = r.end ? key_text(layout, *r.end) : "";
        }
        Cell stage, from, to;  // null unless a replica is moving
        if (const auto& m = r.tablet.transition) {
            stage = text_cell(stage_name(m->stage));
            from = text_cell(uuid_to_string(m->from));
            to = text_cell(uuid_to_string(m->to));
        }
        return {text_cell(ks),
                text_cell(table),
                bigint_cell(static_cast<int64_t>(r.index)),
                text_cell(start),
                text_cell(end),
                int_cell(r.tablet.shard),
                bigint_cell(static_cast<int64_t>(r.size_bytes)),
                bigint_cell(static_cast<int64_t>(r.rows)),
                double_cell(r.rates.reads_per_sec),
                double_cell(r.rates.writes_per_sec),
                double_cell(r.rates.bytes_per_sec),
                text_list_cell(replica_names(r.tablet)),
                stage,
                from,
                to};
    }

    std::vector<std::string> replica_names(const Tablet& t) const {
        std::vector<std::string> out;
        if (!namer_) return out;
        for (const auto& h : t.replicas)
            out.push_back(namer_(h));
        return out;
    }

    query::TabletRouter& router_;
    const Catalog& catalog_;
    ReplicaNamer namer_;
};

}  // namespace

std::unique_ptr<query::VirtualTable> make_tablets_table(query::TabletRouter& router,
                                                        const Catalog& catalog,
                                                        ReplicaNamer replica_name) {
    return std::make_unique<TabletsTable>(router, catalog, std::move(replica_name));
}

}  // namespace tessel::system
