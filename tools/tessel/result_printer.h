// Prints results and errors the way cqlsh does, so that output from the shell
// reads like what a Cassandra user is used to (and approval files stay stable).
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "common/status.h"
#include "tessel/database.h"

namespace tessel::shell {

using TextRow = std::vector<std::string>;

// Formats one result row's values as cqlsh shows them ("null" for null).
TextRow format_row(const std::vector<ColumnSpec>& columns,
                   const std::vector<std::optional<std::string>>& row);

// An aligned table: names left-justified in the header, values right-justified,
// then "(N rows)". Rows are given pre-formatted so pages can be accumulated.
void print_table(std::ostream& out, const std::vector<ColumnSpec>& columns,
                 const std::vector<TextRow>& rows);

// One page of an interactive paged result, as cqlsh prints it on a terminal:
// the header (after a blank line on the first page), the rows, a blank line;
// the row count follows the last page.
void print_page(std::ostream& out, const std::vector<ColumnSpec>& columns,
                const std::vector<TextRow>& rows, bool first);

// The cqlsh error line, e.g.
// InvalidRequest: Error from server: code=2200 [Invalid query] message="..."
std::string format_error(const Status& status);

// Display width of UTF-8 text (code points; wide characters are rare in CQL output).
size_t display_width(const std::string& s);

}  // namespace tessel::shell
