#include "cql/lexer.h"

#include "types/utf8.h"

#include <cctype>
#include <string>

namespace tessel::cql {

namespace {

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}
bool is_hex(char c) {
    return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}
bool is_letter(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) != 0;
}
bool is_ident_char(char c) {
    return is_letter(c) || is_digit(c) || c == '_';
}
char lower(char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

std::string to_lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        c = lower(c);
    return out;
}

// Length of a uuid (8-4-4-4-12 hex digits) starting at s[0], or 0.
std::size_t match_uuid(std::string_view s) {
    static constexpr int kGroups[] = {8, 4, 4, 4, 12};
    std::size_t i = 0;
    for (int g = 0; g < 5; ++g) {
        if (g > 0) {
            if (i >= s.size() || s[i] != '-') return 0;
            ++i;
        }
        for (int k = 0; k < kGroups[g]; ++k, ++i) {
            if (i >= s.size() || !is_hex(s[i])) return 0;
        }
    }
    // A uuid glued to more word characters is something else (an identifier).
    if (i < s.size() && is_ident_char(s[i])) return 0;
    return i;
}

// Length of a duration unit at the start of s (case-insensitive), or 0.
// Two-letter units are tried first so "ms" is not read as "m" then "s".
std::size_t match_duration_unit(std::string_view s) {
    auto at = [&](std::size_t i) { return i < s.size() ? lower(s[i]) : '\0'; };
    char a = at(0);
    char b = at(1);
    if ((a == 'm' && (b == 'o' || b == 's')) || (a == 'u' && b == 's') || (a == 'n' && b == 's'))
        return 2;
    // "µs": the micro sign is two bytes in UTF-8 (0xC2 0xB5).
    if (s.size() >= 3 && static_cast<unsigned char>(s[0]) == 0xC2 &&
        static_cast<unsigned char>(s[1]) == 0xB5 && at(2) == 's')
        return 3;
    if (a == 'y' || a == 'w' || a == 'd' || a == 'h' || a == 'm' || a == 's') return 1;
    return 0;
}

// Length of a "1h30m"-style duration (one or more digits+unit groups), or 0.
std::size_t match_unit_duration(std::string_view s) {
    std::size_t i = 0;
    std::size_t groups = 0;
    while (i < s.size() && is_digit(s[i])) {
        std::size_t j = i;
        while (j < s.size() && is_digit(s[j]))
            ++j;
        std::size_t u = match_duration_unit(s.substr(j));
        if (u == 0) break;
        i = j + u;
        ++groups;
    }
    if (groups == 0) return 0;
    if (i < s.size() && is_ident_char(s[i])) return 0;
    return i;
}

// Reads digits then one of the letters in `designators` (in order, each at
// most once). Returns false if something other than that pattern follows.
bool match_designators(std::string_view s, std::size_t& i, std::string_view designators,
                       int& count) {
    std::size_t next = 0;
    while (i < s.size() && is_digit(s[i])) {
        std::size_t j = i;
        while (j < s.size() && is_digit(s[j]))
            ++j;
        if (j >= s.size()) return false;
        std::size_t d = designators.find(lower(s[j]), next);
        if (d == std::string_view::npos) return false;
        next = d + 1;
        i = j + 1;
        ++count;
    }
    return true;
}

// Length of an ISO 8601 duration (P1Y2M3DT4H5M6S, P2W, P0001-02-03T04:05:06)
// starting at s[0] ('P' or 'p'), or 0 when the word is an identifier.
std::size_t match_iso_duration(std::string_view s) {
    if (s.empty() || lower(s[0]) != 'p') return 0;
    auto digits = [&](std::size_t at, std::size_t n) {
        for (std::size_t k = 0; k < n; ++k)
            if (at + k >= s.size() || !is_digit(s[at + k])) return false;
        return true;
    };
    // Alternative format: PYYYY-MM-DDThh:mm:ss
    if (digits(1, 4) && s.size() >= 20 && s[5] == '-' && digits(6, 2) && s[8] == '-' &&
        digits(9, 2) && lower(s[11]) == 't' && digits(12, 2) && s[14] == ':' && digits(15, 2) &&
        s[17] == ':' && digits(18, 2)) {
        return (s.size() > 20 && is_ident_char(s[20])) ? 0 : 20;
    }
    std::size_t i = 1;
    int count = 0;
    // Weeks: P2W
    {
        std::size_t j = 1;
        while (j < s.size() && is_digit(s[j]))
            ++j;
        if (j > 1 && j < s.size() && lower(s[j]) == 'w' &&
            !(j + 1 < s.size() && is_ident_char(s[j + 1])))
            return j + 1;
    }
    if (!match_designators(s, i, "ymd", count)) return 0;
    if (i < s.size() && lower(s[i]) == 't') {
        ++i;
        int time_count = 0;
        if (!match_designators(s, i, "hms", time_count) || time_count == 0) return 0;
        count += time_count;
    }
    if (count == 0) return 0;
    if (i < s.size() && is_ident_char(s[i])) return 0;
    return i;
}

class Lexer {
  public:
    explicit Lexer(std::string_view text) : src_(text) {}

    Result<std::vector<Token>> run() {
        std::vector<Token> out;
        while (true) {
            TESSEL_RETURN_IF_ERROR(skip_space_and_comments());
            if (pos_ >= src_.size()) break;
            auto tok = next();
            if (!tok.is_ok()) return tok.status();
            out.push_back(std::move(*tok));
        }
        Token eof;
        eof.kind = TokenKind::kEof;
        eof.text = "<EOF>";
        eof.line = line_;
        eof.column = static_cast<int>(pos_ - line_start_);
        eof.offset = src_.size();
        out.push_back(std::move(eof));
        return out;
    }

  private:
    Status error_at(std::size_t at, const std::string& what) const {
        int line = 1;
        std::size_t ls = 0;
        for (std::size_t i = 0; i < at && i < src_.size(); ++i) {
            if (src_[i] == '\n') {
                ++line;
                ls = i + 1;
            }
        }
        return Status::syntax("line " + std::to_string(line) + ":" + std::to_string(at - ls) + " " +
                              what);
    }

    void advance(std::size_t n) {
        for (std::size_t k = 0; k < n && pos_ < src_.size(); ++k, ++pos_) {
            if (src_[pos_] == '\n') {
                ++line_;
                line_start_ = pos_ + 1;
            }
        }
    }

    Status skip_space_and_comments() {
        while (pos_ < src_.size()) {
            char c = src_[pos_];
            if (std::isspace(static_cast<unsigned char>(c))) {
                advance(1);
            } else if ((c == '-' && peek(1) == '-') || (c == '/' && peek(1) == '/')) {
                while (pos_ < src_.size() && src_[pos_] != '\n')
                    advance(1);
            } else if (c == '/' && peek(1) == '*') {
                std::size_t start = pos_;
                std::size_t end = src_.find("*/", pos_ + 2);
                if (end == std::string_view::npos)
                    return error_at(start, "unterminated comment: missing '*/'");
                advance(end + 2 - pos_);
            } else {
                break;
            }
        }
        return Status::ok();
    }

    char peek(std::size_t ahead) const {
        return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0';
    }

    Token make(TokenKind kind, std::string text, std::size_t length) {
        Token t;
        t.kind = kind;
        t.text = std::move(text);
        t.line = line_;
        t.column = static_cast<int>(pos_ - line_start_);
        t.offset = pos_;
        t.length = length;
        advance(length);
        return t;
    }

    // The character `rest` starts with, whole: a multi-byte UTF-8 sequence
    // is quoted complete (a lone invalid byte as U+FFFD).
    static std::string character_at(std::string_view rest) {
        const std::size_t n = utf8::sequence_length(rest, 0);
        return n == 0 ? std::string("\uFFFD") : std::string(rest.substr(0, n));
    }

    Result<Token> next() {
        std::string_view rest = src_.substr(pos_);
        char c = rest[0];

        // Uuids first: they may start with digits or hex letters.
        if (is_hex(c)) {
            if (std::size_t n = match_uuid(rest)) {
                return make(TokenKind::kUuid, std::string(rest.substr(0, n)), n);
            }
        }
        if (is_digit(c) || (c == '.' && is_digit(peek(1)))) return number(rest);
        if (is_letter(c)) return word(rest);
        if (c == '\'') return quoted(rest, '\'', TokenKind::kString);
        if (c == '"') return quoted(rest, '"', TokenKind::kQuotedIdentifier);
        if (c == '$' && peek(1) == '$') {
            std::size_t end = rest.find("$$", 2);
            if (end == std::string_view::npos)
                return error_at(pos_, "unterminated string literal: missing closing '$$'");
            return make(TokenKind::kString, std::string(rest.substr(2, end - 2)), end + 2);
        }
        static constexpr std::string_view kTwo[] = {"!=", "<=", ">=", "+=", "-="};
        for (std::string_view op : kTwo) {
            if (rest.substr(0, 2) == op) return make(TokenKind::kPunct, std::string(op), 2);
        }
        static constexpr std::string_view kOne = "=<>+-()[]{},;.:?*";
        if (kOne.find(c) != std::string_view::npos) {
            return make(TokenKind::kPunct, std::string(1, c), 1);
        }
        return error_at(pos_, "no viable alternative at character '" + character_at(rest) + "'");
    }

    Result<Token> number(std::string_view rest) {
        if (rest.size() >= 2 && rest[0] == '0' && (rest[1] == 'x' || rest[1] == 'X')) {
            std::size_t n = 2;
            while (n < rest.size() && is_hex(rest[n]))
                ++n;
            if (n < rest.size() && is_ident_char(rest[n]))
                return error_at(pos_ + n, "invalid character '" + character_at(rest.substr(n)) +
                                              "' in hexadecimal blob literal");
            return make(TokenKind::kHex, std::string(rest.substr(0, n)), n);
        }
        if (std::size_t n = match_unit_duration(rest)) {
            return make(TokenKind::kDuration, std::string(rest.substr(0, n)), n);
        }
        std::size_t i = 0;
        while (i < rest.size() && is_digit(rest[i]))
            ++i;
        bool is_float = false;
        // A '.' after digits makes a float ("1.", "1.5", "1.e5") unless a word
        // follows that is not an exponent: "1.x" is left to the parser to reject.
        auto exponent_at = [&](std::size_t k) {
            if (k >= rest.size() || (rest[k] != 'e' && rest[k] != 'E')) return false;
            if (k + 1 < rest.size() && (rest[k + 1] == '+' || rest[k + 1] == '-')) ++k;
            return k + 1 < rest.size() && is_digit(rest[k + 1]);
        };
        if (i < rest.size() && rest[i] == '.' &&
            !(i + 1 < rest.size() && is_letter(rest[i + 1]) && !exponent_at(i + 1))) {
            is_float = true;
            ++i;
            while (i < rest.size() && is_digit(rest[i]))
                ++i;
        }
        if (i < rest.size() && (rest[i] == 'e' || rest[i] == 'E')) {
            std::size_t j = i + 1;
            if (j < rest.size() && (rest[j] == '+' || rest[j] == '-')) ++j;
            if (j < rest.size() && is_digit(rest[j])) {
                while (j < rest.size() && is_digit(rest[j]))
                    ++j;
                i = j;
                is_float = true;
            }
        }
        return make(is_float ? TokenKind::kFloat : TokenKind::kInteger,
                    std::string(rest.substr(0, i)), i);
    }

    Result<Token> word(std::string_view rest) {
        if (std::size_t n = match_iso_duration(rest)) {
            return make(TokenKind::kDuration, std::string(rest.substr(0, n)), n);
        }
        std::size_t n = 0;
        while (n < rest.size() && is_ident_char(rest[n]))
            ++n;
        std::string text = to_lower(rest.substr(0, n));
        TokenKind kind =
            (text == "true" || text == "false") ? TokenKind::kBoolean : TokenKind::kIdentifier;
        return make(kind, std::move(text), n);
    }

    // 'it''s' and "Quoted""Name": the quote character doubled is itself.
    Result<Token> quoted(std::string_view rest, char q, TokenKind kind) {
        std::string out;
        std::size_t i = 1;
        while (true) {
            if (i >= rest.size()) {
                return error_at(pos_, kind == TokenKind::kString
                                          ? "unterminated string literal: missing closing '''"
                                          : "unterminated quoted identifier: missing closing '\"'");
            }
            if (rest[i] == q) {
                if (i + 1 < rest.size() && rest[i + 1] == q) {
                    out.push_back(q);
                    i += 2;
                    continue;
                }
                ++i;
                break;
            }
            out.push_back(rest[i++]);
        }
        if (kind == TokenKind::kQuotedIdentifier && out.empty()) {
            return error_at(pos_, "empty quoted identifier \"\" is not allowed");
        }
        return make(kind, std::move(out), i);
    }

    std::string_view src_;
    std::size_t pos_ = 0;
    int line_ = 1;
    std::size_t line_start_ = 0;
};

}  // namespace

Result<std::vector<Token>> tokenize(std::string_view text) {
    return Lexer(text).run();
}

const char* token_kind_name(TokenKind kind) {
    switch (kind) {
        case TokenKind::kIdentifier:
            return "IDENT";
        case TokenKind::kQuotedIdentifier:
            return "QUOTED_NAME";
        case TokenKind::kString:
            return "STRING_LITERAL";
        case TokenKind::kInteger:
            return "INTEGER";
        case TokenKind::kFloat:
            return "FLOAT";
        case TokenKind::kUuid:
            return "UUID";
        case TokenKind::kHex:
            return "HEXNUMBER";
        case TokenKind::kDuration:
            return "DURATION";
        case TokenKind::kBoolean:
            return "BOOLEAN";
        case TokenKind::kPunct:
            return "PUNCTUATION";
        case TokenKind::kEof:
            return "EOF";
    }
    return "?";
}

}  // namespace tessel::cql
