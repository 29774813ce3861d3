#include "result_printer.h"

#include <fmt/format.h>

#include <algorithm>

#include "types/value.h"

namespace tessel::shell {

size_t display_width(const std::string& s) {
    size_t w = 0;
    for (unsigned char c : s) {
        if ((c & 0xC0) != 0x80) ++w;
    }
    return w;
}

TextRow format_row(const std::vector<ColumnSpec>& columns,
                   const std::vector<std::optional<std::string>>& row) {
    TextRow out;
    out.reserve(columns.size());
    for (size_t i = 0; i < columns.size(); ++i) {
        if (i >= row.size() || !row[i]) {
            out.emplace_back("null");
        } else {
            out.push_back(format_value(*columns[i].type, *row[i]));
        }
    }
    return out;
}

namespace {

std::string pad_left(const std::string& s, size_t width) {
    size_t w = display_width(s);
    return w >= width ? s : std::string(width - w, ' ') + s;
}

std::string pad_right(const std::string& s, size_t width) {
    size_t w = display_width(s);
    return w >= width ? s : s + std::string(width - w, ' ');
}

std::string rstrip(std::string s) {
    while (!s.empty() && s.back() == ' ')
        s.pop_back();
    return s;
}

}  // namespace

void print_table(std::ostream& out, const std::vector<ColumnSpec>& columns,
                 const std::vector<TextRow>& rows) {
    print_page(out, columns, rows, true);
    out << "(" << rows.size() << " rows)\n";
}

void print_page(std::ostream& out, const std::vector<ColumnSpec>& columns,
                const std::vector<TextRow>& rows, bool first) {
    std::vector<size_t> widths;
    for (const auto& c : columns)
        widths.push_back(display_width(c.name));
    for (const auto& r : rows) {
        for (size_t i = 0; i < r.size() && i < widths.size(); ++i) {
            widths[i] = std::max(widths[i], display_width(r[i]));
        }
    }
    std::string header;
    std::string rule;
    for (size_t i = 0; i < columns.size(); ++i) {
        if (i > 0) {
            header += " | ";
            rule += "-+-";
        }
        header += pad_right(columns[i].name, widths[i]);
        rule += std::string(widths[i], '-');
    }
    out << (first ? "\n " : " ") << rstrip(header) << "\n-" << rule << "-\n";
    for (const auto& r : rows) {
        std::string line;
        for (size_t i = 0; i < r.size(); ++i) {
            if (i > 0) line += " | ";
            line += pad_left(r[i], widths[i]);
        }
        out << ' ' << line << '\n';
    }
    out << "\n";
}

std::string format_error(const Status& status) {
    const char* cls = "ServerError";
    const char* what = "Server error";
    switch (status.code()) {
        case ErrorCode::kSyntaxError:
            cls = "SyntaxException";
            what = "Syntax error in CQL query";
            break;
        case ErrorCode::kInvalid:
            cls = "InvalidRequest";
            what = "Invalid query";
            break;
        case ErrorCode::kAlreadyExists:
            cls = "AlreadyExists";
            what = "Query invalid because of configuration issue";
            break;
        case ErrorCode::kConfigError:
            cls = "ConfigurationException";
            what = "Query invalid because of configuration issue";
            break;
        case ErrorCode::kUnauthorized:
            cls = "Unauthorized";
            what = "Unauthorized";
            break;
        case ErrorCode::kUnprepared:
            cls = "Unprepared";
            what = "Unprepared";
            break;
        case ErrorCode::kOverloaded:
            cls = "Overloaded";
            what = "Request overloaded";
            break;
        case ErrorCode::kProtocolError:
            cls = "ProtocolException";
            what = "Protocol error";
            break;
        default:
            break;
    }
    return fmt::format("{}: Error from server: code={:04x} [{}] message=\"{}\"", cls,
                       static_cast<int32_t>(status.code()), what, status.message());
}

}  // namespace tessel::shell
