#include "embedded/schema_diff.h"

#include "schema/codec.h"

namespace tessel::embedded {
namespace {

// Same keys, definitions compared by their stored form.
template <class Map, class Encode>
void diff_map(const Map& before, const Map& after, const std::string& keyspace, const char* target,
              Encode encode, std::vector<SchemaChange>* out) {
    for (const auto& [name, def] : after) {
        auto it = before.find(name);
        if (it == before.end()) {
            out->push_back({"CREATED", target, keyspace, name, {}});
        } else if (encode(*it->second) != encode(*def)) {
            out->push_back({"UPDATED", target, keyspace, name, {}});
        }
    }
    for (const auto& [name, _] : before) {
        if (!after.count(name)) out->push_back({"DROPPED", target, keyspace, name, {}});
    }
}

}  // namespace

std::vector<SchemaChange> schema_diff(const Schema& before, const Schema& after) {
    std::vector<SchemaChange> out;
    for (const auto& [name, ks] : after.keyspaces) {
        auto old = before.keyspace(name);
        if (!old) {
            out.push_back({"CREATED", "KEYSPACE", name, "", {}});
            diff_map(KeyspaceDef{}.types, ks->types, name, "TYPE", encode_user_type, &out);
            diff_map(KeyspaceDef{}.tables, ks->tables, name, "TABLE", encode_table, &out);
            continue;
        }
        if (old->replication != ks->replication || old->durable_writes != ks->durable_writes) {
            out.push_back({"UPDATED", "KEYSPACE", name, "", {}});
        }
        diff_map(old->types, ks->types, name, "TYPE", encode_user_type, &out);
        diff_map(old->tables, ks->tables, name, "TABLE", encode_table, &out);
    }
    for (const auto& [name, ks] : before.keyspaces) {
        if (after.keyspace(name)) continue;
        diff_map(ks->tables, KeyspaceDef{}.tables, name, "TABLE", encode_table, &out);
        diff_map(ks->types, KeyspaceDef{}.types, name, "TYPE", encode_user_type, &out);
        out.push_back({"DROPPED", "KEYSPACE", name, "", {}});
    }
    return out;
}

}  // namespace tessel::embedded
