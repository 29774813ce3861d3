#include "shell.h"

#include <algorithm>
#include <cctype>
#include <iostream>
#include <sstream>

#include "result_printer.h"
#include "statement_splitter.h"

namespace tessel::shell {

namespace {

class EmbeddedBackend : public Backend {
  public:
    explicit EmbeddedBackend(std::unique_ptr<Database> db)
        : db_(std::move(db)), session_(db_->new_session()) {}

    Result<ResultSet> execute(const std::string& cql, int32_t page_size,
                              const std::string& paging_state) override {
        QueryOptions options;
        options.page_size = page_size;
        options.paging_state = paging_state;
        return session_->execute(cql, options);
    }
    std::string keyspace() const override { return session_->keyspace(); }

  private:
    std::unique_ptr<Database> db_;
    std::unique_ptr<Session> session_;
};

std::string upper_words(const std::string& s) {
    std::string out;
    bool space = false;
    for (char c : s) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    return out;
}

int column_index(const std::vector<ColumnSpec>& columns, const std::string& name) {
    for (size_t i = 0; i < columns.size(); ++i) {
        if (columns[i].name == name) return static_cast<int>(i);
    }
    return -1;
}

}  // namespace

std::unique_ptr<Backend> make_embedded_backend(std::unique_ptr<Database> db) {
    return std::make_unique<EmbeddedBackend>(std::move(db));
}

int Shell::run(std::istream& in) {
    StatementSplitter splitter;
    int failures = 0;
    std::string line;
    while (!quit_) {
        if (options_.interactive) {
            std::string ks = backend_.keyspace();
            out_ << (splitter.has_pending() ? "   ... "
                                            : (ks.empty() ? "tessel> " : "tessel:" + ks + "> "))
                 << std::flush;
        }
        if (!std::getline(in, line)) break;
        // Shell commands (EXIT, PAGING ...) need no ';' when typed alone.
        if (!splitter.has_pending()) {
            std::string word = upper_words(trim(line));
            while (!word.empty() && word.back() == ';')
                word.pop_back();
            if (word == "EXIT" || word == "QUIT") break;
        }
        for (const std::string& stmt : splitter.feed(line + "\n")) {
            if (!run_statement(stmt, in)) ++failures;
            if (quit_) break;
        }
    }
    if (splitter.has_pending()) {
        // A last statement without ';' still runs, as cqlsh -f does at EOF.
        if (!run_statement(splitter.pending(), in)) ++failures;
    }
    return failures;
}

bool Shell::run_shell_command(const std::string& statement) {
    std::string words = upper_words(statement);
    if (words == "EXIT" || words == "QUIT") {
        quit_ = true;
        return true;
    }
    if (words.rfind("PAGING", 0) == 0) {
        std::string arg = trim(std::string_view(words).substr(6));
        if (arg == "OFF") {
            paging_enabled_ = false;
            out_ << "Disabled Query paging.\n";
        } else if (arg == "ON" || arg.empty()) {
            paging_enabled_ = true;
            out_ << "Now Query paging is enabled\nPage size: " << options_.page_size << "\n";
        } else if (std::all_of(arg.begin(), arg.end(), ::isdigit)) {
            paging_enabled_ = true;
            options_.page_size = std::max(1, std::stoi(arg));
            out_ << "Page size: " << options_.page_size << "\n";
        } else {
            out_ << "Improper paging command.\n";
        }
        return true;
    }
    return false;
}

bool Shell::run_statement(const std::string& text, std::istream& in) {
    // Comment lines before a statement are shown as they are, not as part of it.
    std::string statement = text;
    while (statement.rfind("--", 0) == 0 || statement.rfind("//", 0) == 0) {
        size_t nl = statement.find('\n');
        if (options_.echo) out_ << statement.substr(0, nl) << "\n";
        statement = nl == std::string::npos ? std::string() : trim(statement.substr(nl + 1));
    }
    if (statement.empty()) return true;
    if (options_.echo) {
        std::istringstream lines(statement);
        std::string l;
        bool first = true;
        while (std::getline(lines, l)) {
            out_ << (first ? "> " : "  ") << l << (lines.peek() == EOF ? ";" : "") << "\n";
            first = false;
        }
    }
    if (run_shell_command(statement)) return true;
    // PAGING OFF asks for unpaged results, as cqlsh does.
    const int32_t page_size = paging_enabled_ ? options_.page_size : -1;
    auto result = backend_.execute(statement, page_size, "");
    if (!result) {
        out_ << format_error(result.status()) << "\n";
        if (options_.echo) out_ << "\n";
        return false;
    }
    if (result->kind == ResultSet::Kind::kRows) {
        print_rows(statement, std::move(result).value(), in);
    }
    for (const auto& w : result->warnings)
        out_ << "Warnings :\n" << w << "\n";
    if (options_.echo) out_ << "\n";
    return true;
}

void Shell::print_rows(const std::string& statement, ResultSet rs, std::istream& in) {
    // DESCRIBE results carry CQL text to print as it is.
    int create_col = column_index(rs.columns, "create_statement");
    std::vector<TextRow> rows;
    size_t shown = 0;  // rows of earlier pages printed at the ---MORE--- prompt
    bool more = true;
    while (more) {
        if (create_col >= 0) {
            for (const auto& r : rs.rows) {
                if (r[create_col]) out_ << "\n" << *r[create_col] << "\n";
            }
        } else {
            for (const auto& r : rs.rows)
                rows.push_back(format_row(rs.columns, r));
        }
        more = !rs.paging_state.empty();
        if (!more) break;
        if (options_.interactive && paging_enabled_ && create_col < 0) {
            print_page(out_, rs.columns, rows, shown == 0);
            shown += rows.size();
            rows.clear();
            out_ << "---MORE---" << std::flush;
            std::string dummy;
            if (!std::getline(in, dummy)) break;
        }
        auto next =
            backend_.execute(statement, paging_enabled_ ? options_.page_size : -1, rs.paging_state);
        if (!next) {
            out_ << format_error(next.status()) << "\n";
            return;
        }
        rs = std::move(next).value();
    }
    if (create_col < 0 && shown == 0) print_table(out_, rs.columns, rows);
    if (create_col < 0 && shown > 0) {
        if (!rows.empty()) print_page(out_, rs.columns, rows, false);
        out_ << "(" << shown + rows.size() << " rows)\n";
    }
}

}  // namespace tessel::shell
