// A row of a built-in table filled by column name (columns it does not have
// are ignored, unset ones are null).
#pragma once

#include <string>
#include <utility>

#include "query/virtual_table.h"
#include "system/builtin_tables.h"
#include "system/cell_encoding.h"

namespace tessel::system {

class RowBuilder {
  public:
    explicit RowBuilder(const BuiltinTable& def) : def_(def), row_(def.columns.size()) {}
    RowBuilder& set(const std::string& column, Cell value) {
        int i = def_.column_index(column);
        if (i >= 0) row_[static_cast<size_t>(i)] = std::move(value);
        return *this;
    }
    query::VirtualRow take() { return std::move(row_); }

  private:
    const BuiltinTable& def_;
    query::VirtualRow row_;
};

}  // namespace tessel::system
