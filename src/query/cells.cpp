#include "query/cells.h"

#include <algorithm>

#include "query/term_eval.h"
#include "types/bytes_util.h"
#include "types/value.h"

namespace tessel::query {

std::string element_path(const CqlType& key_type, std::string_view key) {
    std::string out;
    encode_key(key_type, key, false, &out);
    return out;
}

std::string field_path(int field_index) {
    return bytes::be_bytes(static_cast<uint16_t>(field_index), 2);
}

std::string list_path(int64_t ticks) {
    // A time-based UUID with the given ticks; the node part is fixed because
    // the path only has to be unique and ordered within the list.
    const auto t = static_cast<uint64_t>(ticks);
    const uint64_t msb = ((t & 0xFFFFFFFFULL) << 32) | (((t >> 32) & 0xFFFFULL) << 16) | 0x1000ULL |
                         ((t >> 48) & 0x0FFFULL);
    std::string uuid = bytes::be_bytes(msb, 8) + bytes::be_bytes(0x8000000000000000ULL, 8);
    return element_path(*native_type(TypeKind::kTimeuuid), uuid);
}

std::pair<const storage::Cell*, const storage::Cell*> column_cells(const storage::Row& row,
                                                                   uint32_t column_id) {
    const storage::Cell* b = row.cells.data();
    const storage::Cell* e = b + row.cells.size();
    const storage::Cell* lo = std::lower_bound(
        b, e, column_id, [](const storage::Cell& c, uint32_t id) { return c.column_id < id; });
    const storage::Cell* hi = lo;
    while (hi != e && hi->column_id == column_id)
        ++hi;
    return {lo, hi};
}

Result<std::optional<std::string>> assemble_value(const CqlType& type, const storage::Cell* begin,
                                                  const storage::Cell* end) {
    if (begin == end) return std::optional<std::string>();
    if (!type.is_multi_cell()) return std::optional<std::string>(begin->value);
    switch (type.kind) {
        case TypeKind::kList: {
            std::vector<std::string> els;
            for (auto* c = begin; c != end; ++c)
                els.push_back(c->value);
            return std::optional<std::string>(encode_collection(els));
        }
        case TypeKind::kSet: {
            std::vector<std::string> els;
            for (auto* c = begin; c != end; ++c) {
                std::string_view p = c->path;
                TESSEL_ASSIGN_OR_RETURN(auto v, decode_key(*type.params[0], &p, false));
                els.push_back(std::move(v));
            }
            return std::optional<std::string>(encode_collection(els));
        }
        case TypeKind::kMap: {
            std::vector<std::pair<std::string, std::string>> entries;
            for (auto* c = begin; c != end; ++c) {
                std::string_view p = c->path;
                TESSEL_ASSIGN_OR_RETURN(auto k, decode_key(*type.params[0], &p, false));
                entries.emplace_back(std::move(k), c->value);
            }
            return std::optional<std::string>(encode_map(entries));
        }
        case TypeKind::kUdt: {
            std::vector<std::optional<std::string>> fields(type.field_names.size());
            for (auto* c = begin; c != end; ++c) {
                if (c->path.size() != 2) continue;
                const size_t idx = bytes::read_u16(c->path);
                if (idx < fields.size()) fields[idx] = c->value;
            }
            std::string out;
            for (const auto& f : fields) {
                if (f) {
                    bytes::append_be(&out, f->size(), 4);
                    out += *f;
                } else {
                    bytes::append_be(&out, 0xFFFFFFFFu, 4);
                }
            }
            return std::optional<std::string>(out);
        }
        default:
            return std::optional<std::string>(begin->value);
    }
}

Result<std::optional<std::string>> column_value(const cql::TableInfo& t, const RowView& v,
                                                int column) {
    const cql::ColumnInfo& c = t.columns[column];
    switch (c.kind) {
        case cql::ColumnKind::kPartitionKey:
            if (!v.partition || static_cast<size_t>(c.position) >= v.partition->size()) {
                return std::optional<std::string>();
            }
            return std::optional<std::string>((*v.partition)[c.position]);
        case cql::ColumnKind::kClustering:
            if (!v.clustering || static_cast<size_t>(c.position) >= v.clustering->size()) {
                return std::optional<std::string>();
            }
            return std::optional<std::string>((*v.clustering)[c.position]);
        case cql::ColumnKind::kStatic: {
            if (!v.static_row) return std::optional<std::string>();
            auto [b, e] = column_cells(*v.static_row, c.id);
            return assemble_value(*c.type, b, e);
        }
        case cql::ColumnKind::kRegular: {
            if (!v.row) return std::optional<std::string>();
            auto [b, e] = column_cells(*v.row, c.id);
            return assemble_value(*c.type, b, e);
        }
    }
    return std::optional<std::string>();
}

const storage::Cell* simple_cell(const cql::TableInfo& t, const RowView& v, int column) {
    const cql::ColumnInfo& c = t.columns[column];
    const storage::Row* r = c.kind == cql::ColumnKind::kStatic ? v.static_row : v.row;
    if (!r) return nullptr;
    auto [b, e] = column_cells(*r, c.id);
    return b == e ? nullptr : b;
}

}  // namespace tessel::query
