#include <algorithm>

#include "admin.h"

namespace tessel::admin {

namespace {

// Display width of UTF-8 text: code points (wide characters are rare here).
size_t width(const std::string& s) {
    size_t n = 0;
    for (unsigned char c : s)
        n += (c & 0xC0) != 0x80;
    return n;
}

}  // namespace

TextTable::TextTable(std::vector<std::string> headers, std::vector<bool> numeric)
    : headers_(std::move(headers)), numeric_(std::move(numeric)) {
    numeric_.resize(headers_.size(), false);
}

void TextTable::add(std::vector<std::string> row) {
    row.resize(headers_.size());
    rows_.push_back(std::move(row));
}

void TextTable::print(std::ostream& out, std::string_view indent) const {
    std::vector<size_t> w(headers_.size());
    for (size_t i = 0; i < headers_.size(); ++i) {
        w[i] = width(headers_[i]);
        for (const auto& r : rows_)
            w[i] = std::max(w[i], width(r[i]));
    }
    auto line = [&](const std::vector<std::string>& cells, bool header) {
        std::string s(indent);
        for (size_t i = 0; i < cells.size(); ++i) {
            std::string pad(w[i] - width(cells[i]), ' ');
            bool right = numeric_[i] && !header;
            s += right ? pad + cells[i] : cells[i] + (i + 1 < cells.size() ? pad : "");
            if (i + 1 < cells.size()) s += "  ";
        }
        while (!s.empty() && s.back() == ' ')
            s.pop_back();
        out << s << "\n";
    };
    line(headers_, true);
    std::vector<std::string> rule;
    for (size_t x : w)
        rule.emplace_back(x, '-');
    line(rule, true);
    for (const auto& r : rows_)
        line(r, false);
}

}  // namespace tessel::admin
