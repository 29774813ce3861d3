#include "types/json.h"

#include <cctype>

#include <fmt/format.h>

namespace tessel::json {
namespace {

class Parser {
  public:
    explicit Parser(std::string_view s) : s_(s) {}

    Status parse_value(Value* out, int depth) {
        if (depth > kMaxDepth) return error("nesting too deep");
        skip_ws();
        if (pos_ >= s_.size()) return error("unexpected end of input");
        char c = s_[pos_];
        if (c == '{') return parse_object(out, depth);
        if (c == '[') return parse_array(out, depth);
        if (c == '"') {
            out->kind = Value::Kind::kString;
            return parse_string(&out->text);
        }
        if (c == '-' || (c >= '0' && c <= '9')) return parse_number(out);
        if (consume_word("true")) {
            out->kind = Value::Kind::kBool;
            out->boolean = true;
            return Status::ok();
        }
        if (consume_word("false")) {
            out->kind = Value::Kind::kBool;
            return Status::ok();
        }
        if (consume_word("null")) {
            out->kind = Value::Kind::kNull;
            return Status::ok();
        }
        return error("unexpected character");
    }

    // Parses a value and returns the raw text it spans.
    Status parse_raw(std::string* raw, int depth) {
        skip_ws();
        size_t start = pos_;
        Value ignored;
        TESSEL_RETURN_IF_ERROR(parse_value(&ignored, depth));
        *raw = std::string(s_.substr(start, pos_ - start));
        return Status::ok();
    }

    Status parse_object_members(std::vector<std::pair<std::string, std::string>>* raw_out,
                                Value* out, int depth) {
        ++pos_;  // '{'
        skip_ws();
        if (peek('}')) {
            ++pos_;
            return Status::ok();
        }
        while (true) {
            skip_ws();
            if (!peek('"')) return error("expected a string key");
            std::string key;
            TESSEL_RETURN_IF_ERROR(parse_string(&key));
            skip_ws();
            if (!peek(':')) return error("expected ':'");
            ++pos_;
            if (raw_out) {
                std::string raw;
                TESSEL_RETURN_IF_ERROR(parse_raw(&raw, depth + 1));
                raw_out->emplace_back(std::move(key), std::move(raw));
            } else {
                Value v;
                TESSEL_RETURN_IF_ERROR(parse_value(&v, depth + 1));
                out->members.emplace_back(std::move(key), std::move(v));
            }
            skip_ws();
            if (peek(',')) {
                ++pos_;
                continue;
            }
            if (peek('}')) {
                ++pos_;
                return Status::ok();
            }
            return error("expected ',' or '}'");
        }
    }

    void skip_ws() {
        while (pos_ < s_.size() &&
               (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) {
            ++pos_;
        }
    }
    bool at_end() const { return pos_ >= s_.size(); }
    bool peek(char c) const { return pos_ < s_.size() && s_[pos_] == c; }
    Status error(const char* what) const {
        return Status::invalid(fmt::format("Could not decode JSON string '{}': {} at offset {}",
                                           s_.substr(0, 200), what, pos_));
    }

  private:
    bool consume_word(std::string_view w) {
        if (s_.substr(pos_, w.size()) != w) return false;
        pos_ += w.size();
        return true;
    }

    Status parse_object(Value* out, int depth) {
        out->kind = Value::Kind::kObject;
        return parse_object_members(nullptr, out, depth);
    }

    Status parse_array(Value* out, int depth) {
        out->kind = Value::Kind::kArray;
        ++pos_;
        skip_ws();
        if (peek(']')) {
            ++pos_;
            return Status::ok();
        }
        while (true) {
            Value v;
            TESSEL_RETURN_IF_ERROR(parse_value(&v, depth + 1));
            out->items.push_back(std::move(v));
            skip_ws();
            if (peek(',')) {
                ++pos_;
                continue;
            }
            if (peek(']')) {
                ++pos_;
                return Status::ok();
            }
            return error("expected ',' or ']'");
        }
    }

    Status parse_number(Value* out) {
        size_t start = pos_;
        if (peek('-')) ++pos_;
        if (peek('0')) {
            ++pos_;
        } else if (pos_ < s_.size() && s_[pos_] >= '1' && s_[pos_] <= '9') {
            while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_])))
                ++pos_;
        } else {
            return error("invalid number");
        }
        if (peek('.')) {
            ++pos_;
            if (!digits()) return error("invalid number");
        }
        if (peek('e') || peek('E')) {
            ++pos_;
            if (peek('+') || peek('-')) ++pos_;
            if (!digits()) return error("invalid number");
        }
        out->kind = Value::Kind::kNumber;
        out->text = std::string(s_.substr(start, pos_ - start));
        return Status::ok();
    }

    bool digits() {
        size_t start = pos_;
        while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_])))
            ++pos_;
        return pos_ > start;
    }

    bool hex4(uint32_t* v) {
        if (pos_ + 4 > s_.size()) return false;
        *v = 0;
        for (int i = 0; i < 4; ++i) {
            char c = s_[pos_++];
            int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                    : (c >= 'a' && c <= 'f')                    ? c - 'a' + 10
                    : (c >= 'A' && c <= 'F')                    ? c - 'A' + 10
                                                                : -1;
            if (d < 0) return false;
            *v = *v * 16 + static_cast<uint32_t>(d);
        }
        return true;
    }

    static void append_utf8(std::string* out, uint32_t cp) {
        if (cp < 0x80) {
            out->push_back(static_cast<char>(cp));
        } else if (cp < 0x800) {
            out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
            out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        } else if (cp < 0x10000) {
            out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
            out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
            out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        } else {
            out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
            out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
            out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
            out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        }
    }

    Status parse_string(std::string* out) {
        ++pos_;  // opening quote
        while (true) {
            if (pos_ >= s_.size()) return error("unterminated string");
            char c = s_[pos_++];
            if (c == '"') return Status::ok();
            if (static_cast<unsigned char>(c) < 0x20) return error("control character in string");
            if (c != '\\') {
                out->push_back(c);
                continue;
            }
            if (pos_ >= s_.size()) return error("unterminated string");
            char e = s_[pos_++];
            switch (e) {
                case '"':
                    out->push_back('"');
                    break;
                case '\\':
                    out->push_back('\\');
                    break;
                case '/':
                    out->push_back('/');
                    break;
                case 'b':
                    out->push_back('\b');
                    break;
                case 'f':
                    out->push_back('\f');
                    break;
                case 'n':
                    out->push_back('\n');
                    break;
                case 'r':
                    out->push_back('\r');
                    break;
                case 't':
                    out->push_back('\t');
                    break;
                case 'u': {
                    uint32_t cp = 0;
                    if (!hex4(&cp)) return error("invalid \\u escape");
                    if (cp >= 0xD800 && cp <= 0xDBFF) {
                        uint32_t lo = 0;
                        if (s_.substr(pos_, 2) != "\\u") return error("unpaired surrogate");
                        pos_ += 2;
                        if (!hex4(&lo) || lo < 0xDC00 || lo > 0xDFFF) {
                            return error("unpaired surrogate");
                        }
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                        return error("unpaired surrogate");
                    }
                    append_utf8(out, cp);
                    break;
                }
                default:
                    return error("invalid escape");
            }
        }
    }

    std::string_view s_;
    size_t pos_ = 0;
};

}  // namespace

Result<Value> parse(std::string_view text) {
    Parser p(text);
    Value v;
    TESSEL_RETURN_IF_ERROR(p.parse_value(&v, 0));
    p.skip_ws();
    if (!p.at_end()) return p.error("trailing characters");
    return v;
}

Result<std::vector<std::pair<std::string, std::string>>> parse_object_raw(std::string_view text) {
    Parser p(text);
    p.skip_ws();
    if (!p.peek('{')) return p.error("expected a JSON object");
    std::vector<std::pair<std::string, std::string>> out;
    TESSEL_RETURN_IF_ERROR(p.parse_object_members(&out, nullptr, 0));
    p.skip_ws();
    if (!p.at_end()) return p.error("trailing characters");
    return out;
}

std::string quote(std::string_view s) {
    std::string out = "\"";
    for (char c : s) {
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\t':
                out += "\\t";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\b':
                out += "\\b";
                break;
            case '\f':
                out += "\\f";
                break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    out += fmt::format("\\u{:04X}", static_cast<unsigned>(c));
                } else {
                    out.push_back(c);
                }
        }
    }
    out.push_back('"');
    return out;
}

bool is_null(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
        text.remove_prefix(1);
    }
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
        text.remove_suffix(1);
    }
    return text == "null";
}

std::string serialize(const Value& v) {
    switch (v.kind) {
        case Value::Kind::kNull:
            return "null";
        case Value::Kind::kBool:
            return v.boolean ? "true" : "false";
        case Value::Kind::kNumber:
            return v.text;
        case Value::Kind::kString:
            return quote(v.text);
        case Value::Kind::kArray: {
            std::string out = "[";
            for (size_t i = 0; i < v.items.size(); ++i) {
                if (i > 0) out += ",";
                out += serialize(v.items[i]);
            }
            return out + "]";
        }
        case Value::Kind::kObject: {
            std::string out = "{";
            for (size_t i = 0; i < v.members.size(); ++i) {
                if (i > 0) out += ",";
                out += quote(v.members[i].first) + ":" + serialize(v.members[i].second);
            }
            return out + "}";
        }
    }
    return "null";
}

}  // namespace tessel::json
