// Shared helpers for the parser tests.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "cql/parser.h"

namespace tessel::cql::testing {

// Parses one statement and returns its node as T; fails the test (and returns
// a default T) when parsing fails or the statement is of another kind.
template <typename T>
T parse_as(std::string_view text, Statement* whole = nullptr) {
    auto r = parse_statement(text);
    EXPECT_TRUE(r.is_ok()) << text << "\n  -> " << (r.is_ok() ? "" : r.status().message());
    if (!r.is_ok()) return T{};
    EXPECT_TRUE(r->is<T>()) << text << " parsed as " << statement_kind_name(*r);
    if (!r->is<T>()) return T{};
    if (whole) *whole = *r;
    return r->as<T>();
}

// The error message of a statement expected to fail with Syntax_error.
inline std::string syntax_error(std::string_view text) {
    auto r = parse_statement(text);
    EXPECT_FALSE(r.is_ok()) << text << " unexpectedly parsed";
    if (r.is_ok()) return "";
    EXPECT_EQ(r.status().code(), ErrorCode::kSyntaxError) << r.status().message();
    return r.status().message();
}

inline std::string str(const Term& t) {
    return to_string(t);
}
inline std::string str(const std::optional<Term>& t) {
    return t ? to_string(*t) : "<none>";
}

}  // namespace tessel::cql::testing
