// Selection: turns the rows a read produces into result rows — selected
// columns, writetime()/ttl(), token(), functions, CAST, aggregates with
// GROUP BY, and SELECT JSON.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cql/plan.h"
#include "query/cells.h"
#include "query/key_codec.h"
#include "query/numbers.h"
#include "tessel/database.h"

namespace tessel::query {

using OutRow = std::vector<std::optional<std::string>>;

class Selection {
  public:
    Selection(const cql::SelectPlan& plan, const std::vector<BoundValue>& values,
              int64_t now_seconds);

    // Non-aggregate queries: the result row for one read row.
    Result<OutRow> project(const RowView& view);

    // Aggregate queries: rows are added one by one; a group ends when the
    // GROUP BY prefix changes (flush() returns the finished group's row).
    bool aggregate() const { return plan_.aggregate; }
    // True when `view` starts a new group (call flush() first, if rows were added).
    bool starts_new_group(const RowView& view) const;
    Status add(const RowView& view);
    bool has_rows() const { return group_rows_ > 0; }
    Result<OutRow> flush();

  private:
    // One aggregate's state, with Cassandra's arithmetic: integer sums wrap
    // at the type's width while averages divide the exact sum; float and
    // double use Kahan summation; decimal and varint are exact.
    struct Acc {
        int64_t count = 0;
        std::optional<std::string> best;  // min/max
        uint64_t isum = 0;                // integer sum, wrapping
        __int128 wide = 0;                // integer sum for avg
        double fsum = 0, fcomp = 0, fsimple = 0;
        numbers::BigDecimal big;  // decimal/varint sum, or the running decimal avg
    };
    Result<std::optional<std::string>> eval(const cql::SelectorPlan& s, const RowView& v);
    Status accumulate(const cql::SelectorPlan& s, Acc* acc, const RowView& v);
    std::optional<std::string> finish(const cql::SelectorPlan& s, const Acc& acc) const;
    std::vector<std::string> group_key(const RowView& v) const;
    Result<OutRow> to_json(OutRow row) const;

    const cql::SelectPlan& plan_;
    const std::vector<BoundValue>& values_;
    int64_t now_;
    std::vector<Acc> accs_;
    OutRow first_row_;  // non-aggregate selectors of a group: the first row's values
    std::vector<std::string> current_group_;
    int64_t group_rows_ = 0;
};

}  // namespace tessel::query
