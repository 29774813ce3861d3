#include "query/schema_view.h"

namespace tessel::query {
namespace {

cql::ColumnKind kind_of(tessel::ColumnKind k) {
    switch (k) {
        case tessel::ColumnKind::kPartitionKey:
            return cql::ColumnKind::kPartitionKey;
        case tessel::ColumnKind::kClustering:
            return cql::ColumnKind::kClustering;
        case tessel::ColumnKind::kStatic:
            return cql::ColumnKind::kStatic;
        case tessel::ColumnKind::kRegular:
            return cql::ColumnKind::kRegular;
    }
    return cql::ColumnKind::kRegular;
}

// Table definitions are immutable and shared by snapshots, so the TableInfo
// built for one can be reused for as long as the definition lives.
std::mutex cache_mu;
std::map<const TableDef*, std::pair<std::weak_ptr<const TableDef>, cql::TablePtr>> cache;

}  // namespace

cql::TablePtr table_info_from_def(const TableDef& def) {
    auto t = std::make_shared<cql::TableInfo>();
    t->keyspace = def.keyspace;
    t->name = def.name;
    t->id = def.storage_name();
    t->default_ttl = def.options.default_time_to_live;
    t->hashed = def.options.distribution == Distribution::kHash;
    t->is_counter = def.is_counter();
    t->has_static = def.has_static_columns();
    for (const auto& c : def.columns) {
        cql::ColumnInfo ci;
        ci.name = c.name;
        ci.type = c.type;
        ci.kind = kind_of(c.kind);
        ci.position = c.position < 0 ? 0 : c.position;
        ci.descending = c.is_reversed();
        ci.id = c.id;
        const int idx = static_cast<int>(t->columns.size());
        if (ci.kind == cql::ColumnKind::kPartitionKey) t->partition_key.push_back(idx);
        if (ci.kind == cql::ColumnKind::kClustering) t->clustering.push_back(idx);
        t->columns.push_back(std::move(ci));
    }
    if (const auto& ws = def.options.write_sharding) {
        t->shards = ws->shards < 1 ? 1 : ws->shards;
        t->shard_calculated = ws->suffix == ShardSuffix::kCalculated;
        for (const auto& c : ws->columns) {
            const int idx = t->find(c);
            if (idx >= 0) t->shard_columns.push_back(idx);
        }
    }
    if (const auto& tb = def.options.time_bucket) {
        const int idx = t->find(tb->column);
        if (idx >= 0 && tb->width_ms > 0 && t->columns[idx].kind == cql::ColumnKind::kClustering) {
            t->bucket_column = idx;
            t->bucket_width_ms = tb->width_ms;
        }
    }
    return t;
}

bool CatalogSchemaView::keyspace_exists(const std::string& keyspace) const {
    if (schema_->keyspace(keyspace)) return true;
    for (const auto& [key, _] : *virtuals_) {
        if (key.first == keyspace) return true;
    }
    return false;
}

cql::TablePtr CatalogSchemaView::find_table(const std::string& keyspace,
                                            const std::string& name) const {
    auto v = virtuals_->find({keyspace, name});
    if (v != virtuals_->end()) return v->second;
    auto ks = schema_->keyspace(keyspace);
    if (!ks) return nullptr;
    auto it = ks->tables.find(name);
    if (it == ks->tables.end()) return nullptr;
    const std::shared_ptr<const TableDef>& def = it->second;
    std::lock_guard<std::mutex> lock(cache_mu);
    auto c = cache.find(def.get());
    if (c != cache.end() && !c->second.first.expired() && c->second.first.lock() == def) {
        return c->second.second;
    }
    if (cache.size() > 4096) {
        for (auto i = cache.begin(); i != cache.end();) {
            i = i->second.first.expired() ? cache.erase(i) : std::next(i);
        }
    }
    cql::TablePtr info = table_info_from_def(*def);
    cache[def.get()] = {def, info};
    return info;
}

TypePtr CatalogSchemaView::find_type(const std::string& keyspace, const std::string& name) const {
    auto t = schema_->type(keyspace, name);
    return t ? t->as_type(false) : nullptr;
}

}  // namespace tessel::query
