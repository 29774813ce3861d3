#include "schema/type_spec.h"

#include <fmt/format.h>

#include <cctype>

namespace tessel {
namespace {

class Parser {
  public:
    explicit Parser(std::string_view text) : text_(text) {}

    Result<TypeSpec> parse_all() {
        TESSEL_ASSIGN_OR_RETURN(TypeSpec t, parse_type());
        skip_ws();
        if (pos_ != text_.size()) return error();
        return t;
    }

  private:
    Status error() const { return Status::syntax(fmt::format("Invalid type '{}'", text_)); }

    void skip_ws() {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])))
            ++pos_;
    }

    bool consume(char c) {
        skip_ws();
        if (pos_ < text_.size() && text_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }

    Result<std::string> identifier() {
        skip_ws();
        if (pos_ < text_.size() && text_[pos_] == '"') {
            std::string out;
            ++pos_;
            while (pos_ < text_.size()) {
                char c = text_[pos_++];
                if (c == '"') {
                    if (pos_ < text_.size() && text_[pos_] == '"') {
                        out.push_back('"');
                        ++pos_;
                        continue;
                    }
                    if (out.empty()) return error();
                    return out;
                }
                out.push_back(c);
            }
            return error();
        }
        std::string out;
        while (pos_ < text_.size() &&
               (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
            out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(text_[pos_]))));
            ++pos_;
        }
        if (out.empty()) return error();
        return out;
    }

    Result<TypeSpec> parse_type() {
        if (++depth_ > 64) return error();  // bounded recursion on hostile input
        TESSEL_ASSIGN_OR_RETURN(std::string name, identifier());
        TypeSpec t;
        if (name == "frozen") {
            if (!consume('<')) return error();
            TESSEL_ASSIGN_OR_RETURN(t, parse_type());
            if (!consume('>')) return error();
            t.frozen = true;
            --depth_;
            return t;
        }
        if (consume('.')) {
            t.keyspace = std::move(name);
            TESSEL_ASSIGN_OR_RETURN(name, identifier());
        }
        t.name = std::move(name);
        if (t.keyspace.empty() &&
            (t.name == "list" || t.name == "set" || t.name == "map" || t.name == "tuple")) {
            if (!consume('<')) return error();
            do {
                TESSEL_ASSIGN_OR_RETURN(TypeSpec p, parse_type());
                t.params.push_back(std::move(p));
            } while (consume(','));
            if (!consume('>')) return error();
        }
        --depth_;
        return t;
    }

    std::string_view text_;
    size_t pos_ = 0;
    int depth_ = 0;
};

}  // namespace

std::string TypeSpec::to_string() const {
    std::string out = keyspace.empty() ? name : keyspace + "." + name;
    if (!params.empty()) {
        out += "<";
        for (size_t i = 0; i < params.size(); ++i) {
            if (i > 0) out += ", ";
            out += params[i].to_string();
        }
        out += ">";
    }
    return frozen ? "frozen<" + out + ">" : out;
}

Result<TypeSpec> parse_type_spec(std::string_view text) {
    return Parser(text).parse_all();
}

}  // namespace tessel
