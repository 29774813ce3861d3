#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "admin.h"
#include "types/value.h"

namespace tessel::admin {

int ResultSet::column(std::initializer_list<std::string_view> names) const {
    for (std::string_view n : names) {
        for (size_t i = 0; i < columns.size(); ++i) {
            if (columns[i].name == n) return static_cast<int>(i);
        }
    }
    return -1;
}

std::string ResultSet::text(const protocol::Row& row, int col) const {
    if (col < 0 || static_cast<size_t>(col) >= row.size()) return "";
    const auto& cell = row[static_cast<size_t>(col)];
    if (!cell) return "null";
    const auto& type = columns[static_cast<size_t>(col)].type;
    if (!type || !validate_value(*type, *cell).is_ok()) {
        std::string hex = "0x";
        for (unsigned char ch : *cell)
            hex += fmt::format("{:02x}", ch);
        return hex;
    }
    return format_value(*type, *cell);
}

std::optional<double> ResultSet::number(const protocol::Row& row, int col) const {
    if (col < 0 || static_cast<size_t>(col) >= row.size()) return std::nullopt;
    const auto& cell = row[static_cast<size_t>(col)];
    const auto& type = columns[static_cast<size_t>(col)].type;
    if (!cell || !type || !validate_value(*type, *cell).is_ok()) return std::nullopt;
    switch (type->kind) {
        case TypeKind::kTimestamp: {
            uint64_t v = 0;
            for (unsigned char ch : *cell)
                v = (v << 8) | ch;
            return static_cast<double>(static_cast<int64_t>(v));
        }
        case TypeKind::kInt:
        case TypeKind::kBigint:
        case TypeKind::kCounter:
        case TypeKind::kSmallint:
        case TypeKind::kTinyint:
        case TypeKind::kVarint:
        case TypeKind::kDecimal:
        case TypeKind::kFloat:
        case TypeKind::kDouble: {
            std::string s = format_value(*type, *cell);
            char* end = nullptr;
            double v = std::strtod(s.c_str(), &end);
            if (end == s.c_str()) return std::nullopt;
            return v;
        }
        default:
            return std::nullopt;
    }
}

Result<ResultSet> fetch(client::Client& client, const std::string& cql) {
    ResultSet rs;
    client::QueryParameters params;
    params.page_size = 5000;
    Status st = client.for_each_page(cql, params, [&](const client::QueryResult& page) {
        if (rs.columns.empty()) rs.columns = page.columns;
        rs.rows.insert(rs.rows.end(), page.rows.begin(), page.rows.end());
        return true;
    });
    if (!st.is_ok()) return st;
    return rs;
}

std::string cql_string(std::string_view s) {
    std::string out = "'";
    for (char c : s) {
        out += c;
        if (c == '\'') out += '\'';
    }
    return out + "'";
}

std::string human_bytes(double bytes) {
    static const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
    if (bytes < 1024) return fmt::format("{:.0f} bytes", bytes);
    int unit = -1;
    while (bytes >= 1024 && unit < 3) {
        bytes /= 1024;
        ++unit;
    }
    return fmt::format("{:.2f} {}", bytes, kUnits[unit]);
}

std::string rate_text(double v) {
    if (v >= 100 || v == 0) return fmt::format("{:.0f}", v);
    if (v >= 10) return fmt::format("{:.1f}", v);
    return fmt::format("{:.2f}", v);
}

std::optional<int64_t> parse_duration_ms(std::string_view text) {
    size_t i = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
        ++i;
    if (i == 0 || i > 12) return std::nullopt;
    int64_t n = std::stoll(std::string(text.substr(0, i)));
    std::string_view unit = text.substr(i);
    if (unit.empty() || unit == "ms") return n;
    if (unit == "s") return n * 1000;
    if (unit == "m") return n * 60000;
    if (unit == "h") return n * 3600000;
    return std::nullopt;
}

std::optional<TableRef> parse_table_ref(std::string_view text) {
    TableRef ref;
    size_t dot = text.find('.');
    ref.keyspace = std::string(text.substr(0, dot));
    if (dot != std::string_view::npos) ref.table = std::string(text.substr(dot + 1));
    if (ref.keyspace.empty() || (dot != std::string_view::npos && ref.table.empty()) ||
        ref.table.find('.') != std::string::npos) {
        return std::nullopt;
    }
    return ref;
}

}  // namespace tessel::admin
