// RESULT message bodies (opcode 0x08, native_protocol_v4.spec §4.2.5) and the
// schema-change body that RESULT Schema_change and EVENT SCHEMA_CHANGE share.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "protocol/wire.h"
#include "types/cql_type.h"

namespace tessel::protocol {

enum class ResultKind : int32_t {
    kVoid = 0x0001,
    kRows = 0x0002,
    kSetKeyspace = 0x0003,
    kPrepared = 0x0004,
    kSchemaChange = 0x0005,
};

// Rows metadata flags.
inline constexpr int32_t kMetadataGlobalTablesSpec = 0x0001;
inline constexpr int32_t kMetadataHasMorePages = 0x0002;
inline constexpr int32_t kMetadataNoMetadata = 0x0004;

struct ColumnSpec {
    std::string keyspace;
    std::string table;
    std::string name;
    TypePtr type;  // never null in decoded specs; null encodes as blob
};

// <metadata> of Rows results and of the result part of Prepared.
// Encoding sets Global_tables_spec when there are columns and all of them
// share one keyspace and table, Has_more_pages when paging_state is set, and
// No_metadata when no_metadata is true (then only the count is sent:
// `column_count`, or columns.size() if that is larger).
struct RowsMetadata {
    std::vector<ColumnSpec> columns;
    std::optional<std::string> paging_state;
    bool no_metadata = false;
    // Decoding: the count on the wire (with No_metadata, the only information).
    int32_t column_count = 0;

    int32_t effective_column_count() const;
};

using Cell = std::optional<std::string>;  // nullopt = null ([bytes] length -1)
using Row = std::vector<Cell>;

struct VoidResult {};
struct RowsResult {
    RowsMetadata metadata;
    std::vector<Row> rows;  // each row has effective_column_count() cells
};
struct SetKeyspaceResult {
    std::string keyspace;
};
struct PreparedResult {
    std::string id;
    // v4: for each partition-key column in order, the index of its bind
    // marker. Not sent in v3 (dropped when encoding, empty when decoding).
    std::vector<uint16_t> pk_indexes;
    std::vector<ColumnSpec> bind_columns;
    // Columns the statement returns; send no_metadata=true with no columns
    // for statements that return none.
    RowsMetadata result_metadata;
};

// change_type: CREATED | UPDATED | DROPPED.
// target: KEYSPACE | TABLE | TYPE | FUNCTION | AGGREGATE.
// name is empty for KEYSPACE; argument_types only for FUNCTION/AGGREGATE.
struct SchemaChange {
    std::string change_type;
    std::string target;
    std::string keyspace;
    std::string name;
    std::vector<std::string> argument_types;
    bool operator==(const SchemaChange&) const = default;
};
struct SchemaChangeResult {
    SchemaChange change;
};

void write_rows_metadata(WireWriter& w, const RowsMetadata& metadata);
Result<RowsMetadata> read_rows_metadata(WireReader& r);

void write_schema_change(WireWriter& w, const SchemaChange& change);
Result<SchemaChange> read_schema_change(WireReader& r);

// Whole RESULT bodies, <kind> included.
void write_void_result(WireWriter& w);
void write_rows_result(WireWriter& w, const RowsResult& rows);
void write_set_keyspace_result(WireWriter& w, const SetKeyspaceResult& result);
void write_prepared_result(WireWriter& w, const PreparedResult& prepared, uint8_t protocol_version);
void write_schema_change_result(WireWriter& w, const SchemaChangeResult& result);

// Appends just the rows part (<rows_count> and cells) for servers that stream
// cells without building a RowsResult: call write_rows_metadata after
// write_int(kRows) yourself, then this.
void write_rows_content(WireWriter& w, const std::vector<Row>& rows);

// Readers for the part after <kind>. Counts are checked against the bytes that
// remain before anything is reserved (every cell takes at least 4 bytes).
Result<RowsResult> read_rows_result(WireReader& r);
Result<PreparedResult> read_prepared_result(WireReader& r, uint8_t protocol_version);

}  // namespace tessel::protocol
