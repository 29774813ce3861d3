// format_cql_literal output, read back by a small CQL-literal reader (the forms
// the CQL lexer produces), converts to the same value for random values of every type.
#include <gtest/gtest.h>

#include <cctype>

#include "random_values.h"
#include "types_test_util.h"

namespace tessel {
namespace {

using namespace tessel::testing;
using K = Literal::Kind;

class MiniReader {
  public:
    explicit MiniReader(std::string_view s) : s_(s) {}

    bool read(Literal* out) {
        skip();
        if (pos_ >= s_.size()) return false;
        char c = s_[pos_];
        if (c == '\'') return read_string(out);
        if (c == '[') return read_seq(out, K::kList, ']');
        if (c == '(') return read_seq(out, K::kTuple, ')');
        if (c == '{') return read_braces(out);
        size_t start = pos_;
        while (pos_ < s_.size() && !std::strchr(",:]}) ", s_[pos_]))
            ++pos_;
        std::string tok(s_.substr(start, pos_ - start));
        *out = Literal::scalar(classify(tok), tok);
        return !tok.empty();
    }
    bool at_end() {
        skip();
        return pos_ == s_.size();
    }

  private:
    static K classify(const std::string& t) {
        if (t == "null") return K::kNull;
        if (t == "true" || t == "false") return K::kBoolean;
        if (t.rfind("0x", 0) == 0) return K::kHex;
        if (t.size() == 36 && t[8] == '-' && t[13] == '-') return K::kUuid;
        if (t == "NaN" || t == "Infinity" || t == "-Infinity") return K::kFloat;
        bool digits = true, floaty = false, letters = false;
        for (size_t i = 0; i < t.size(); ++i) {
            char c = t[i];
            if (std::isdigit(static_cast<unsigned char>(c)) || (c == '-' && i == 0)) continue;
            digits = false;
            if (c == '.' || c == 'E' || c == 'e' || c == '+' || c == '-') {
                floaty = true;
            } else {
                letters = true;
            }
        }
        if (digits) return K::kInteger;
        if (floaty && !letters) return K::kFloat;
        return K::kDuration;
    }
    void skip() {
        while (pos_ < s_.size() && s_[pos_] == ' ')
            ++pos_;
    }
    bool expect(char c) {
        skip();
        if (pos_ < s_.size() && s_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    bool read_string(Literal* out) {
        std::string text;
        ++pos_;
        while (pos_ < s_.size()) {
            if (s_[pos_] == '\'') {
                if (pos_ + 1 < s_.size() && s_[pos_ + 1] == '\'') {
                    text.push_back('\'');
                    pos_ += 2;
                    continue;
                }
                ++pos_;
                *out = Literal::scalar(K::kString, text);
                return true;
            }
            text.push_back(s_[pos_++]);
        }
        return false;
    }
    bool read_seq(Literal* out, K kind, char close) {
        out->kind = kind;
        ++pos_;
        if (expect(close)) return true;
        do {
            Literal e;
            if (!read(&e)) return false;
            out->elements.push_back(std::move(e));
        } while (expect(','));
        return expect(close);
    }
    bool read_braces(Literal* out) {
        ++pos_;
        out->kind = K::kSet;
        if (expect('}')) return true;
        do {
            skip();
            size_t save = pos_;
            // A bare identifier followed by ':' is a UDT field name.
            size_t p = pos_;
            while (p < s_.size() &&
                   (std::isalnum(static_cast<unsigned char>(s_[p])) || s_[p] == '_'))
                ++p;
            if (p > pos_ && p < s_.size() && s_[p] == ':' &&
                std::isalpha(static_cast<unsigned char>(s_[pos_]))) {
                out->kind = K::kUdt;
                std::string name(s_.substr(pos_, p - pos_));
                pos_ = p + 1;
                Literal v;
                if (!read(&v)) return false;
                out->fields.emplace_back(name, std::move(v));
                continue;
            }
            pos_ = save;
            Literal k;
            if (!read(&k)) return false;
            if (expect(':')) {
                out->kind = K::kMap;
                Literal v;
                if (!read(&v)) return false;
                out->entries.emplace_back(std::move(k), std::move(v));
            } else {
                out->elements.push_back(std::move(k));
            }
        } while (expect(','));
        return expect('}');
    }

    std::string_view s_;
    size_t pos_ = 0;
};

bool has_float(const CqlType& t) {
    if (t.kind == TypeKind::kFloat || t.kind == TypeKind::kDouble) return true;
    for (const auto& p : t.params) {
        if (has_float(*p)) return true;
    }
    return false;
}

std::vector<TypePtr> literal_types() {
    std::vector<TypePtr> out = scalar_types();
    auto i = native_type(TypeKind::kInt);
    auto txt = native_type(TypeKind::kVarchar);
    out.push_back(list_type(txt, false));
    out.push_back(set_type(native_type(TypeKind::kDouble), false));
    out.push_back(map_type(txt, list_type(i, true), false));
    out.push_back(tuple_type({i, txt, native_type(TypeKind::kTimestamp)}));
    out.push_back(
        udt_type("ks", "addr", {"street", "zip"}, {txt, native_type(TypeKind::kDecimal)}, false));
    return out;
}

TEST(LiteralRoundTripTest, FormattedLiteralsParseBackToTheSameValue) {
    Rng rng(2024);
    for (const auto& t : literal_types()) {
        SCOPED_TRACE(t->cql_name());
        for (int n = 0; n < 300; ++n) {
            // Empty values of non-string types have no literal form.
            std::string v = random_value(*t, rng, false);
            if (t->kind == TypeKind::kVarchar || t->kind == TypeKind::kAscii) {
                // Literal text is printed raw; keep it to printable characters for the reader.
                for (auto& c : v) {
                    if (c == '\0') c = ' ';
                }
            }
            std::string text = format_cql_literal(*t, v);
            MiniReader reader(text);
            Literal lit;
            ASSERT_TRUE(reader.read(&lit) && reader.at_end()) << text;
            auto back = value_from_literal(*t, lit);
            ASSERT_TRUE(back.is_ok()) << text << ": " << back.status().message();
            EXPECT_EQ(compare_values(*t, *back, v), 0) << text;
            // Exact bytes, except where CQL order has several encodings of one value
            // (NaN payloads, boolean bytes other than 1, non-minimal varints).
            if (!has_float(*t) && t->kind != TypeKind::kBoolean && t->kind != TypeKind::kVarint) {
                EXPECT_EQ(bytes::to_hex(*back), bytes::to_hex(v)) << text;
            }
        }
    }
}

}  // namespace
}  // namespace tessel
