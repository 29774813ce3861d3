#include "schema/describe.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <vector>

#include "schema/keyspace_options.h"

namespace tessel {
namespace {

// The Python driver's cql_keywords_reserved (Cassandra 3.x grammar).
const std::set<std::string_view>& reserved_keywords() {
    static const std::set<std::string_view> kReserved{
        "add",         "allow",  "alter",        "and",          "apply",    "asc",    "authorize",
        "batch",       "begin",  "by",           "columnfamily", "create",   "delete", "desc",
        "describe",    "drop",   "entries",      "execute",      "from",     "full",   "grant",
        "if",          "in",     "index",        "infinity",     "insert",   "into",   "is",
        "keyspace",    "limit",  "materialized", "mbean",        "mbeans",   "modify", "nan",
        "norecursive", "not",    "null",         "of",           "on",       "or",     "order",
        "primary",     "rename", "replace",      "revoke",       "schema",   "select", "set",
        "table",       "to",     "token",        "truncate",     "unlogged", "unset",  "update",
        "use",         "using",  "view",         "where",        "with"};
    return kReserved;
}

// A string as a CQL literal: single-quoted with quotes doubled.
std::string quote(std::string_view s) {
    std::string out = "'";
    for (char c : s) {
        if (c == '\'') out.push_back('\'');
        out.push_back(c);
    }
    return out + "'";
}

std::string map_literal(const StringMap& m) {
    std::string out = "{";
    bool first = true;
    for (const auto& [k, v] : m) {
        if (!first) out += ", ";
        out += quote(k) + ": " + quote(v);
        first = false;
    }
    return out + "}";
}

std::string option_lines(const TableDef& t) {
    const TableOptions& o = t.options;
    std::vector<std::string> props;
    if (!t.clustering_key().empty()) {
        std::string s = "CLUSTERING ORDER BY (";
        bool first = true;
        for (const ColumnDef& c : t.clustering_key()) {
            if (!first) s += ", ";
            s += protect_name(c.name) + (c.is_reversed() ? " DESC" : " ASC");
            first = false;
        }
        props.push_back(s + ")");
    }
    std::vector<std::string> opts{
        "bloom_filter_fp_chance = " + format_option_double(o.bloom_filter_fp_chance),
        "caching = " + map_literal(o.caching),
        "comment = " + quote(o.comment),
        "compaction = " + map_literal(o.compaction),
        "compression = " + map_literal(o.compression),
        "crc_check_chance = " + format_option_double(o.crc_check_chance),
        "dclocal_read_repair_chance = " + format_option_double(o.dclocal_read_repair_chance),
        "default_time_to_live = " + std::to_string(o.default_time_to_live),
        "gc_grace_seconds = " + std::to_string(o.gc_grace_seconds),
        "max_index_interval = " + std::to_string(o.max_index_interval),
        "memtable_flush_period_in_ms = " + std::to_string(o.memtable_flush_period_in_ms),
        "min_index_interval = " + std::to_string(o.min_index_interval),
        "read_repair_chance = " + format_option_double(o.read_repair_chance),
        "speculative_retry = " + quote(o.speculative_retry),
    };
    if (o.distribution != Distribution::kHash) {
        opts.push_back("distribution = " + quote(distribution_name(o.distribution)));
    }
    if (o.write_sharding) {
        opts.push_back("write_sharding = " + map_literal(write_sharding_map(*o.write_sharding)));
    }
    if (o.time_bucket) {
        opts.push_back("time_bucket = " + map_literal(time_bucket_map(*o.time_bucket)));
    }
    std::sort(opts.begin(), opts.end());
    props.insert(props.end(), opts.begin(), opts.end());
    std::string out;
    for (size_t i = 0; i < props.size(); ++i) {
        if (i > 0) out += "\n    AND ";
        out += props[i];
    }
    return out;
}

}  // namespace

std::string protect_name(std::string_view name) {
    bool plain = !name.empty() && name[0] >= 'a' && name[0] <= 'z';
    for (char c : name) {
        plain = plain && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_');
    }
    if (plain && !reserved_keywords().count(name)) return std::string(name);
    std::string out = "\"";
    for (char c : name) {
        if (c == '"') out.push_back('"');
        out.push_back(c);
    }
    return out + "\"";
}

std::string describe_keyspace(const KeyspaceDef& ks) {
    // The driver prints the short class name first, then the other options sorted.
    StringMap rest = ks.replication;
    std::string cls = short_strategy_name(rest["class"]);
    rest.erase("class");
    std::string repl = "{'class': " + quote(cls);
    for (const auto& [k, v] : rest)
        repl += ", " + quote(k) + ": " + quote(v);
    repl += "}";
    return fmt::format("CREATE KEYSPACE {} WITH replication = {}  AND durable_writes = {};",
                       protect_name(ks.name), repl, ks.durable_writes ? "true" : "false");
}

std::string describe_table(const TableDef& t) {
    std::string out =
        fmt::format("CREATE TABLE {}.{} (\n", protect_name(t.keyspace), protect_name(t.name));
    // Key columns by position, then the others by name (system_schema.columns order).
    std::vector<const ColumnDef*> cols;
    for (const ColumnDef& c : t.partition_key())
        cols.push_back(&c);
    for (const ColumnDef& c : t.clustering_key())
        cols.push_back(&c);
    std::vector<const ColumnDef*> rest;
    for (const ColumnDef& c : t.non_key_columns())
        rest.push_back(&c);
    std::sort(rest.begin(), rest.end(),
              [](const ColumnDef* a, const ColumnDef* b) { return a->name < b->name; });
    cols.insert(cols.end(), rest.begin(), rest.end());

    bool inline_pk = t.partition_key().size() == 1 && t.clustering_key().empty();
    for (size_t i = 0; i < cols.size(); ++i) {
        if (i > 0) out += ",\n";
        out += "    " + protect_name(cols[i]->name) + " " + cols[i]->type->cql_name();
        if (cols[i]->is_static()) out += " static";
        if (i == 0 && inline_pk) out += " PRIMARY KEY";
    }
    if (!inline_pk) {
        out += ",\n    PRIMARY KEY (";
        if (t.partition_key().size() > 1) {
            out += "(";
            for (size_t i = 0; i < t.partition_key().size(); ++i) {
                if (i > 0) out += ", ";
                out += protect_name(t.partition_key()[i].name);
            }
            out += ")";
        } else {
            out += protect_name(t.partition_key()[0].name);
        }
        for (const ColumnDef& c : t.clustering_key())
            out += ", " + protect_name(c.name);
        out += ")";
    }
    out += "\n) WITH " + option_lines(t) + ";";
    return out;
}

std::string describe_type(const UserTypeDef& u) {
    std::string out =
        fmt::format("CREATE TYPE {}.{} (\n", protect_name(u.keyspace), protect_name(u.name));
    for (size_t i = 0; i < u.field_names.size(); ++i) {
        if (i > 0) out += ",\n";
        out += "    " + protect_name(u.field_names[i]) + " " + u.field_types[i]->cql_name();
    }
    return out + "\n);";
}

std::string describe_keyspace_full(const KeyspaceDef& ks) {
    std::string out = describe_keyspace(ks);
    // Types in dependency order, alphabetical otherwise, as the driver sorts them.
    std::vector<std::shared_ptr<const UserTypeDef>> pending;
    for (const auto& [_, u] : ks.types)
        pending.push_back(u);
    std::set<std::string> emitted;
    while (!pending.empty()) {
        size_t before = pending.size();
        for (auto it = pending.begin(); it != pending.end();) {
            bool ready = true;
            for (const auto& [name, other] : ks.types) {
                if (name == (*it)->name || emitted.count(name)) continue;
                for (const auto& f : (*it)->field_types) {
                    ready = ready && !type_references_udt(*f, ks.name, name);
                }
            }
            if (!ready) {
                ++it;
                continue;
            }
            out += "\n\n" + describe_type(**it);
            emitted.insert((*it)->name);
            it = pending.erase(it);
            break;  // restart so that the order stays alphabetical among ready types
        }
        if (pending.size() == before) break;  // a cycle cannot happen; stay safe anyway
    }
    for (const auto& [_, t] : ks.tables)
        out += "\n\n" + describe_table(*t);
    return out;
}

}  // namespace tessel
