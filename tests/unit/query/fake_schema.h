// A SchemaView of keyspace "ks" built from CREATE TABLE text, for tests that
// prepare statements without storage.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "cql/parser.h"
#include "cql/prepare.h"

namespace tessel::testing {

class FakeSchema final : public cql::SchemaView {
  public:
    void add(const std::string& create) {
        auto st = cql::parse_statement(create);
        ASSERT_TRUE(st.is_ok()) << st.status().to_string();
        auto info = cql::table_info_from_create(st->as<cql::CreateTableStatement>(), "ks", *this);
        ASSERT_TRUE(info.is_ok()) << info.status().to_string();
        const std::string name = info->name;
        tables_[name] = std::make_shared<cql::TableInfo>(std::move(info).value());
    }
    bool keyspace_exists(const std::string& ks) const override { return ks == "ks"; }
    cql::TablePtr find_table(const std::string& ks, const std::string& name) const override {
        auto it = tables_.find(name);
        return ks == "ks" && it != tables_.end() ? it->second : nullptr;
    }
    TypePtr find_type(const std::string&, const std::string&) const override { return nullptr; }

  private:
    std::map<std::string, cql::TablePtr> tables_;
};

}  // namespace tessel::testing
