#include "statement_splitter.h"

#include <cctype>

namespace tessel::shell {

std::string trim(std::string_view s) {
    size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
        ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
        --e;
    return std::string(s.substr(b, e - b));
}

namespace {

// Upper-cased words of a statement's code (outside literals and comments),
// enough to tell whether a batch is open.
bool starts_batch(std::string_view stmt) {
    std::string head;
    for (char c : stmt) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            if (!head.empty()) break;
            continue;
        }
        head += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    return head == "BEGIN";
}

bool ends_batch(std::string_view stmt) {
    std::string up;
    for (char c : stmt)
        up += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    size_t apply = up.rfind("APPLY");
    if (apply == std::string::npos) return false;
    std::string rest = trim(std::string_view(up).substr(apply + 5));
    return rest == "BATCH";
}

}  // namespace

std::vector<std::string> StatementSplitter::feed(std::string_view input) {
    buffer_.append(input);
    std::vector<std::string> out;
    size_t start = 0;
    size_t i = 0;
    const size_t n = buffer_.size();
    while (i < n) {
        char c = buffer_[i];
        if (c == '\'' || c == '"') {
            // Quoted: a doubled quote is an escaped quote.
            size_t j = i + 1;
            while (j < n) {
                if (buffer_[j] == c) {
                    if (j + 1 < n && buffer_[j + 1] == c) {
                        j += 2;
                        continue;
                    }
                    break;
                }
                ++j;
            }
            if (j >= n) break;  // unterminated: wait for more input
            i = j + 1;
        } else if (c == '$' && i + 1 < n && buffer_[i + 1] == '$') {
            size_t j = buffer_.find("$$", i + 2);
            if (j == std::string::npos) break;
            i = j + 2;
        } else if ((c == '-' && i + 1 < n && buffer_[i + 1] == '-') ||
                   (c == '/' && i + 1 < n && buffer_[i + 1] == '/')) {
            size_t j = buffer_.find('\n', i);
            if (j == std::string::npos) break;
            i = j + 1;
        } else if (c == '/' && i + 1 < n && buffer_[i + 1] == '*') {
            size_t j = buffer_.find("*/", i + 2);
            if (j == std::string::npos) break;
            i = j + 2;
        } else if (c == ';') {
            std::string_view stmt(buffer_.data() + start, i - start);
            if (starts_batch(trim(stmt)) && !ends_batch(trim(stmt))) {
                ++i;  // a statement inside the batch: keep going
                continue;
            }
            std::string t = trim(stmt);
            if (!t.empty()) out.push_back(std::move(t));
            start = ++i;
        } else {
            ++i;
        }
    }
    buffer_.erase(0, start);
    return out;
}

std::string StatementSplitter::pending() const {
    // Comments alone are not a pending statement.
    std::string t = trim(buffer_);
    while (t.rfind("--", 0) == 0 || t.rfind("//", 0) == 0) {
        size_t nl = t.find('\n');
        t = nl == std::string::npos ? std::string() : trim(std::string_view(t).substr(nl + 1));
    }
    return t;
}

}  // namespace tessel::shell
