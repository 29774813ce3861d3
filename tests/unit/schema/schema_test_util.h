// Helpers that keep the schema tests short: type specs and table specs from text.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "schema/catalog.h"
#include "schema/type_spec.h"

namespace tessel::testing {

inline TypeSpec ts(const std::string& text) {
    auto r = parse_type_spec(text);
    EXPECT_TRUE(r.is_ok()) << text;
    return r.is_ok() ? *r : TypeSpec::simple("blob");
}

// columns: {"name", "type"} pairs; a type ending in " static" makes a static column.
inline TableSpec table_spec(const std::string& ks, const std::string& name,
                            const std::vector<std::pair<std::string, std::string>>& columns,
                            std::vector<std::string> pk, std::vector<std::string> ck = {}) {
    TableSpec spec;
    spec.keyspace = ks;
    spec.name = name;
    for (const auto& [col, type] : columns) {
        bool is_static = type.ends_with(" static");
        spec.columns.push_back(ColumnDeclaration{
            col, ts(is_static ? type.substr(0, type.size() - 7) : type), is_static});
    }
    spec.partition_key = std::move(pk);
    spec.clustering_key = std::move(ck);
    return spec;
}

inline KeyspaceOptions simple_rf(const std::string& rf = "1") {
    KeyspaceOptions o;
    o.replication = StringMap{{"class", "SimpleStrategy"}, {"replication_factor", rf}};
    return o;
}

// Expects `r` to have failed with `code` and exactly `message`.
template <typename R>
void expect_error(const R& r, ErrorCode code, const std::string& message) {
    Status s = tessel::detail::status_of(r);
    ASSERT_FALSE(s.is_ok()) << "expected error: " << message;
    EXPECT_EQ(error_code_name(s.code()), error_code_name(code)) << s.message();
    EXPECT_EQ(s.message(), message);
}

}  // namespace tessel::testing
