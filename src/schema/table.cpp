#include "schema/table.h"

#include <algorithm>

namespace tessel {

std::string_view column_kind_name(ColumnKind kind) {
    switch (kind) {
        case ColumnKind::kPartitionKey:
            return "partition_key";
        case ColumnKind::kClustering:
            return "clustering";
        case ColumnKind::kStatic:
            return "static";
        case ColumnKind::kRegular:
            return "regular";
    }
    return "regular";
}

std::string_view ColumnDef::clustering_order_name() const {
    if (kind != ColumnKind::kClustering) return "none";
    return order == ClusteringOrder::kDesc ? "desc" : "asc";
}

void TableDef::finalize() {
    std::stable_sort(columns.begin(), columns.end(), [](const ColumnDef& a, const ColumnDef& b) {
        if (a.kind != b.kind) return a.kind < b.kind;
        if (a.is_primary_key()) return a.position < b.position;
        return a.name < b.name;
    });
    by_name_.clear();
    by_id_.clear();
    pk_count_ = ck_count_ = 0;
    has_static_ = false;
    for (size_t i = 0; i < columns.size(); ++i) {
        const ColumnDef& c = columns[i];
        by_name_[c.name] = i;
        by_id_[c.id] = i;
        if (c.kind == ColumnKind::kPartitionKey) ++pk_count_;
        if (c.kind == ColumnKind::kClustering) ++ck_count_;
        if (c.kind == ColumnKind::kStatic) has_static_ = true;
    }
}

const ColumnDef* TableDef::column(std::string_view name) const {
    auto it = by_name_.find(name);
    return it == by_name_.end() ? nullptr : &columns[it->second];
}

const ColumnDef* TableDef::column_by_id(uint32_t id) const {
    auto it = by_id_.find(id);
    return it == by_id_.end() ? nullptr : &columns[it->second];
}

std::vector<std::string> TableDef::flags() const {
    std::vector<std::string> f{"compound"};
    if (counter) f.push_back("counter");
    return f;
}

}  // namespace tessel
