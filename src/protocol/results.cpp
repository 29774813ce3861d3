#include "protocol/results.h"

#include <algorithm>

#include "protocol/type_option.h"

namespace tessel::protocol {
namespace {

bool same_table(const std::vector<ColumnSpec>& columns) {
    if (columns.empty()) return false;
    return std::all_of(columns.begin(), columns.end(), [&](const ColumnSpec& c) {
        return c.keyspace == columns[0].keyspace && c.table == columns[0].table;
    });
}

void write_type_or_blob(WireWriter& w, const TypePtr& type) {
    if (type) {
        write_type_option(*type, w);
    } else {
        w.write_short(static_cast<uint16_t>(TypeKind::kBlob));
    }
}

// Column specs after the flags/count(/pk) part; `global` says whether the
// table spec is written once up front.
void write_column_specs(WireWriter& w, const std::vector<ColumnSpec>& columns, bool global) {
    if (global) {
        w.write_string(columns[0].keyspace);
        w.write_string(columns[0].table);
    }
    for (const ColumnSpec& c : columns) {
        if (!global) {
            w.write_string(c.keyspace);
            w.write_string(c.table);
        }
        w.write_string(c.name);
        write_type_or_blob(w, c.type);
    }
}

Result<std::vector<ColumnSpec>> read_column_specs(WireReader& r, int32_t count, bool global) {
    std::string ks;
    std::string table;
    if (global) {
        TESSEL_ASSIGN_OR_RETURN(std::string_view k, r.read_string());
        TESSEL_ASSIGN_OR_RETURN(std::string_view t, r.read_string());
        ks = std::string(k);
        table = std::string(t);
    }
    // A spec takes at least a name length and a type id.
    if (count < 0 || r.remaining() / 4 < static_cast<size_t>(count)) {
        return Status::protocol("Invalid column count " + std::to_string(count) +
                                " for the bytes left in result metadata");
    }
    std::vector<ColumnSpec> columns;
    columns.reserve(static_cast<size_t>(count));
    for (int32_t i = 0; i < count; ++i) {
        ColumnSpec c;
        if (global) {
            c.keyspace = ks;
            c.table = table;
        } else {
            TESSEL_ASSIGN_OR_RETURN(std::string_view k, r.read_string());
            TESSEL_ASSIGN_OR_RETURN(std::string_view t, r.read_string());
            c.keyspace = std::string(k);
            c.table = std::string(t);
        }
        TESSEL_ASSIGN_OR_RETURN(std::string_view name, r.read_string());
        c.name = std::string(name);
        TESSEL_ASSIGN_OR_RETURN(c.type, read_type_option(r));
        columns.push_back(std::move(c));
    }
    return columns;
}

bool is_known_target(std::string_view t) {
    return t == "KEYSPACE" || t == "TABLE" || t == "TYPE" || t == "FUNCTION" || t == "AGGREGATE";
}

}  // namespace

int32_t RowsMetadata::effective_column_count() const {
    const auto n = static_cast<int32_t>(std::min<size_t>(columns.size(), INT32_MAX));
    return no_metadata ? std::max(column_count, n) : n;
}

void write_rows_metadata(WireWriter& w, const RowsMetadata& m) {
    const bool global = !m.no_metadata && same_table(m.columns);
    int32_t flags = 0;
    if (global) flags |= kMetadataGlobalTablesSpec;
    if (m.paging_state) flags |= kMetadataHasMorePages;
    if (m.no_metadata) flags |= kMetadataNoMetadata;
    w.write_int(flags);
    w.write_int(m.effective_column_count());
    if (m.paging_state) w.write_bytes(std::string_view(*m.paging_state));
    if (!m.no_metadata) write_column_specs(w, m.columns, global);
}

Result<RowsMetadata> read_rows_metadata(WireReader& r) {
    RowsMetadata m;
    TESSEL_ASSIGN_OR_RETURN(int32_t flags, r.read_int());
    TESSEL_ASSIGN_OR_RETURN(m.column_count, r.read_int());
    if (m.column_count < 0) {
        return Status::protocol("Invalid column count " + std::to_string(m.column_count) +
                                " in result metadata");
    }
    if (flags & kMetadataHasMorePages) {
        TESSEL_ASSIGN_OR_RETURN(std::optional<std::string_view> state, r.read_bytes());
        if (state) m.paging_state = std::string(*state);
    }
    m.no_metadata = (flags & kMetadataNoMetadata) != 0;
    if (!m.no_metadata) {
        TESSEL_ASSIGN_OR_RETURN(
            m.columns,
            read_column_specs(r, m.column_count, (flags & kMetadataGlobalTablesSpec) != 0));
    }
    return m;
}

void write_schema_change(WireWriter& w, const SchemaChange& c) {
    w.write_string(c.change_type);
    w.write_string(c.target);
    w.write_string(c.keyspace);
    if (c.target == "KEYSPACE") return;
    w.write_string(c.name);
    if (c.target == "FUNCTION" || c.target == "AGGREGATE") w.write_string_list(c.argument_types);
}

Result<SchemaChange> read_schema_change(WireReader& r) {
    SchemaChange c;
    TESSEL_ASSIGN_OR_RETURN(std::string_view change, r.read_string());
    TESSEL_ASSIGN_OR_RETURN(std::string_view target, r.read_string());
    if (!is_known_target(target)) {
        return Status::protocol("Unknown schema change target '" + std::string(target) + "'");
    }
    c.change_type = std::string(change);
    c.target = std::string(target);
    TESSEL_ASSIGN_OR_RETURN(std::string_view ks, r.read_string());
    c.keyspace = std::string(ks);
    if (c.target == "KEYSPACE") return c;
    TESSEL_ASSIGN_OR_RETURN(std::string_view name, r.read_string());
    c.name = std::string(name);
    if (c.target == "FUNCTION" || c.target == "AGGREGATE") {
        TESSEL_ASSIGN_OR_RETURN(c.argument_types, r.read_string_list());
    }
    return c;
}

void write_void_result(WireWriter& w) {
    w.write_int(static_cast<int32_t>(ResultKind::kVoid));
}

void write_rows_content(WireWriter& w, const std::vector<Row>& rows) {
    w.write_int(static_cast<int32_t>(std::min<size_t>(rows.size(), INT32_MAX)));
    for (const Row& row : rows) {
        for (const Cell& cell : row) {
            w.write_bytes(cell ? std::optional<std::string_view>(*cell) : std::nullopt);
        }
    }
}

void write_rows_result(WireWriter& w, const RowsResult& rows) {
    w.write_int(static_cast<int32_t>(ResultKind::kRows));
    write_rows_metadata(w, rows.metadata);
    write_rows_content(w, rows.rows);
}

void write_set_keyspace_result(WireWriter& w, const SetKeyspaceResult& result) {
    w.write_int(static_cast<int32_t>(ResultKind::kSetKeyspace));
    w.write_string(result.keyspace);
}

void write_prepared_result(WireWriter& w, const PreparedResult& p, uint8_t protocol_version) {
    w.write_int(static_cast<int32_t>(ResultKind::kPrepared));
    w.write_short_bytes(p.id);
    const bool global = same_table(p.bind_columns);
    w.write_int(global ? kMetadataGlobalTablesSpec : 0);
    w.write_int(static_cast<int32_t>(std::min<size_t>(p.bind_columns.size(), INT32_MAX)));
    if (protocol_version >= 4) {
        w.write_int(static_cast<int32_t>(std::min<size_t>(p.pk_indexes.size(), INT32_MAX)));
        for (uint16_t index : p.pk_indexes)
            w.write_short(index);
    }
    write_column_specs(w, p.bind_columns, global);
    write_rows_metadata(w, p.result_metadata);
}

void write_schema_change_result(WireWriter& w, const SchemaChangeResult& result) {
    w.write_int(static_cast<int32_t>(ResultKind::kSchemaChange));
    write_schema_change(w, result.change);
}

Result<RowsResult> read_rows_result(WireReader& r) {
    RowsResult rows;
    TESSEL_ASSIGN_OR_RETURN(rows.metadata, read_rows_metadata(r));
    TESSEL_ASSIGN_OR_RETURN(int32_t row_count, r.read_int());
    const auto columns = static_cast<uint64_t>(rows.metadata.effective_column_count());
    // Rows of zero columns take no bytes, so their count needs its own bound.
    constexpr uint64_t kMaxEmptyRows = 1 << 16;
    if (row_count < 0 ||
        (columns == 0 ? static_cast<uint64_t>(row_count) > kMaxEmptyRows
                      : static_cast<uint64_t>(row_count) * columns > r.remaining() / 4)) {
        return Status::protocol("Invalid row count " + std::to_string(row_count) +
                                " for the bytes left in a Rows result");
    }
    rows.rows.reserve(static_cast<size_t>(row_count));
    for (int32_t i = 0; i < row_count; ++i) {
        Row row;
        row.reserve(columns);
        for (uint64_t c = 0; c < columns; ++c) {
            TESSEL_ASSIGN_OR_RETURN(std::optional<std::string_view> cell, r.read_bytes());
            row.push_back(cell ? Cell(std::string(*cell)) : std::nullopt);
        }
        rows.rows.push_back(std::move(row));
    }
    return rows;
}

Result<PreparedResult> read_prepared_result(WireReader& r, uint8_t protocol_version) {
    PreparedResult p;
    TESSEL_ASSIGN_OR_RETURN(std::string_view id, r.read_short_bytes());
    p.id = std::string(id);
    TESSEL_ASSIGN_OR_RETURN(int32_t flags, r.read_int());
    TESSEL_ASSIGN_OR_RETURN(int32_t count, r.read_int());
    if (protocol_version >= 4) {
        TESSEL_ASSIGN_OR_RETURN(int32_t pk_count, r.read_int());
        if (pk_count < 0 || r.remaining() / 2 < static_cast<size_t>(pk_count)) {
            return Status::protocol("Invalid partition key count " + std::to_string(pk_count) +
                                    " in Prepared metadata");
        }
        p.pk_indexes.reserve(static_cast<size_t>(pk_count));
        for (int32_t i = 0; i < pk_count; ++i) {
            TESSEL_ASSIGN_OR_RETURN(uint16_t index, r.read_short());
            p.pk_indexes.push_back(index);
        }
    }
    TESSEL_ASSIGN_OR_RETURN(p.bind_columns,
                            read_column_specs(r, count, (flags & kMetadataGlobalTablesSpec) != 0));
    TESSEL_ASSIGN_OR_RETURN(p.result_metadata, read_rows_metadata(r));
    return p;
}

}  // namespace tessel::protocol
