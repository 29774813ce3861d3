#include "types/varint.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "types/bytes_util.h"

namespace tessel::varint {
namespace {

bool negative(std::string_view twos) {
    return !twos.empty() && (static_cast<uint8_t>(twos[0]) & 0x80) != 0;
}

std::string strip_leading_zero_bytes(std::string s) {
    size_t i = 0;
    while (i < s.size() && s[i] == 0)
        ++i;
    return s.substr(i);
}

// Little-endian base-2^32 limbs of an unsigned big-endian magnitude.
std::vector<uint32_t> to_limbs(std::string_view mag) {
    std::vector<uint32_t> limbs((mag.size() + 3) / 4, 0);
    for (size_t i = 0; i < mag.size(); ++i) {
        size_t bit = (mag.size() - 1 - i) * 8;
        limbs[bit / 32] |= static_cast<uint32_t>(static_cast<uint8_t>(mag[i])) << (bit % 32);
    }
    while (!limbs.empty() && limbs.back() == 0)
        limbs.pop_back();
    return limbs;
}

std::string from_limbs(const std::vector<uint32_t>& limbs) {
    std::string out;
    for (size_t i = limbs.size(); i-- > 0;)
        bytes::append_be(&out, limbs[i], 4);
    return strip_leading_zero_bytes(std::move(out));
}

}  // namespace

std::string minimal(std::string_view twos) {
    size_t i = 0;
    while (i + 1 < twos.size()) {
        uint8_t b = static_cast<uint8_t>(twos[i]);
        uint8_t next_top = static_cast<uint8_t>(twos[i + 1]) & 0x80;
        if ((b == 0x00 && next_top == 0) || (b == 0xFF && next_top != 0)) {
            ++i;
        } else {
            break;
        }
    }
    return std::string(twos.substr(i));
}

int sign(std::string_view twos) {
    if (negative(twos)) return -1;
    for (char c : twos) {
        if (c != 0) return 1;
    }
    return 0;
}

std::string magnitude(std::string_view twos) {
    std::string m(twos);
    if (negative(twos)) {
        // Negate: invert every bit and add one.
        for (char& c : m)
            c = static_cast<char>(~static_cast<uint8_t>(c));
        for (size_t i = m.size(); i-- > 0;) {
            uint8_t b = static_cast<uint8_t>(m[i]);
            m[i] = static_cast<char>(b + 1);
            if (b != 0xFF) break;
        }
    }
    return strip_leading_zero_bytes(std::move(m));
}

std::string from_magnitude(bool neg, std::string_view mag) {
    std::string m = strip_leading_zero_bytes(std::string(mag));
    if (m.empty()) return std::string(1, '\0');
    m.insert(m.begin(), '\0');
    if (neg) {
        for (char& c : m)
            c = static_cast<char>(~static_cast<uint8_t>(c));
        for (size_t i = m.size(); i-- > 0;) {
            uint8_t b = static_cast<uint8_t>(m[i]);
            m[i] = static_cast<char>(b + 1);
            if (b != 0xFF) break;
        }
    }
    return minimal(m);
}

std::string magnitude_to_digits(std::string_view mag) {
    std::vector<uint32_t> limbs = to_limbs(mag);
    if (limbs.empty()) return "0";
    std::string digits;
    while (!limbs.empty()) {
        uint64_t rem = 0;
        for (size_t i = limbs.size(); i-- > 0;) {
            uint64_t cur = (rem << 32) | limbs[i];
            limbs[i] = static_cast<uint32_t>(cur / 1000000000u);
            rem = cur % 1000000000u;
        }
        while (!limbs.empty() && limbs.back() == 0)
            limbs.pop_back();
        for (int k = 0; k < 9; ++k) {
            digits.push_back(static_cast<char>('0' + rem % 10));
            rem /= 10;
            if (limbs.empty() && rem == 0) break;
        }
    }
    std::reverse(digits.begin(), digits.end());
    size_t nz = digits.find_first_not_of('0');
    return nz == std::string::npos ? "0" : digits.substr(nz);
}

std::string digits_to_magnitude(std::string_view digits) {
    std::vector<uint32_t> limbs;
    size_t pos = 0;
    while (pos < digits.size()) {
        size_t take = std::min<size_t>(9, digits.size() - pos);
        uint64_t mul = 1, add = 0;
        for (size_t k = 0; k < take; ++k) {
            mul *= 10;
            add = add * 10 + static_cast<uint64_t>(digits[pos + k] - '0');
        }
        pos += take;
        uint64_t carry = add;
        for (auto& limb : limbs) {
            uint64_t cur = static_cast<uint64_t>(limb) * mul + carry;
            limb = static_cast<uint32_t>(cur);
            carry = cur >> 32;
        }
        if (carry != 0) limbs.push_back(static_cast<uint32_t>(carry));
    }
    return from_limbs(limbs);
}

std::optional<std::string> from_decimal_string(std::string_view text) {
    bool neg = false;
    if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
        neg = text[0] == '-';
        text.remove_prefix(1);
    }
    if (text.empty()) return std::nullopt;
    for (char c : text) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    }
    return from_magnitude(neg, digits_to_magnitude(text));
}

std::string to_decimal_string(std::string_view twos) {
    std::string digits = magnitude_to_digits(magnitude(twos));
    return negative(twos) && digits != "0" ? "-" + digits : digits;
}

int compare(std::string_view a, std::string_view b) {
    if (a.empty() || b.empty()) return a.empty() == b.empty() ? 0 : (a.empty() ? -1 : 1);
    std::string ma = minimal(a), mb = minimal(b);
    int sa = sign(ma), sb = sign(mb);
    if (sa != sb) return sa < sb ? -1 : 1;
    if (ma.size() != mb.size()) {
        bool a_longer = ma.size() > mb.size();
        return (a_longer == (sa >= 0)) ? 1 : -1;
    }
    // Same sign and length: two's complement bytes order like unsigned bytes.
    return bytes::compare_bytes(ma, mb);
}

std::optional<int64_t> to_int64(std::string_view twos) {
    std::string m = minimal(twos);
    if (m.empty() || m.size() > 8) return std::nullopt;
    uint64_t v = negative(m) ? ~uint64_t{0} : 0;
    for (char c : m)
        v = (v << 8) | static_cast<uint8_t>(c);
    return static_cast<int64_t>(v);
}

std::string from_int64(int64_t v) {
    return minimal(bytes::i64_bytes(v));
}

}  // namespace tessel::varint

namespace tessel::decimal {

int32_t scale_of(std::string_view b) {
    return bytes::read_i32(b);
}

Normalized normalize(std::string_view b) {
    Normalized n;
    std::string_view unscaled = b.substr(4);
    n.sign = varint::sign(unscaled);
    if (n.sign == 0) return n;
    std::string digits = varint::magnitude_to_digits(varint::magnitude(unscaled));
    size_t last = digits.find_last_not_of('0');
    int64_t trailing = static_cast<int64_t>(digits.size() - 1 - last);
    digits.resize(last + 1);
    n.exponent = static_cast<int64_t>(digits.size()) + trailing - scale_of(b);
    n.digits = std::move(digits);
    return n;
}

int compare(std::string_view a, std::string_view b) {
    if (a.empty() || b.empty()) return a.empty() == b.empty() ? 0 : (a.empty() ? -1 : 1);
    Normalized na = normalize(a), nb = normalize(b);
    if (na.sign != nb.sign) return na.sign < nb.sign ? -1 : 1;
    if (na.sign == 0) return 0;
    int c = 0;
    if (na.exponent != nb.exponent) {
        c = na.exponent < nb.exponent ? -1 : 1;
    } else {
        c = bytes::compare_bytes(na.digits, nb.digits);
    }
    return na.sign < 0 ? -c : c;
}

std::string make(bool negative, std::string_view digits, int32_t scale) {
    std::string out = bytes::i32_bytes(scale);
    out += varint::from_magnitude(negative, varint::digits_to_magnitude(digits));
    return out;
}

std::optional<std::string> from_string(std::string_view text) {
    bool neg = false;
    if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
        neg = text[0] == '-';
        text.remove_prefix(1);
    }
    std::string digits;
    int64_t frac_digits = 0;
    size_t i = 0;
    bool seen_point = false;
    for (; i < text.size(); ++i) {
        char c = text[i];
        if (std::isdigit(static_cast<unsigned char>(c))) {
            digits.push_back(c);
            if (seen_point) ++frac_digits;
        } else if (c == '.' && !seen_point) {
            seen_point = true;
        } else {
            break;
        }
    }
    if (digits.empty()) return std::nullopt;
    int64_t exponent = 0;
    if (i < text.size()) {
        if (text[i] != 'e' && text[i] != 'E') return std::nullopt;
        ++i;
        bool exp_neg = false;
        if (i < text.size() && (text[i] == '+' || text[i] == '-')) exp_neg = text[i++] == '-';
        if (i >= text.size()) return std::nullopt;
        for (; i < text.size(); ++i) {
            if (!std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
            exponent = exponent * 10 + (text[i] - '0');
            if (exponent > (int64_t{1} << 40)) return std::nullopt;
        }
        if (exp_neg) exponent = -exponent;
    }
    int64_t scale = frac_digits - exponent;
    if (scale < INT32_MIN || scale > INT32_MAX) return std::nullopt;
    return make(neg, digits, static_cast<int32_t>(scale));
}

std::string to_string(std::string_view b) {
    std::string_view unscaled = b.substr(4);
    int64_t scale = scale_of(b);
    std::string digits = varint::magnitude_to_digits(varint::magnitude(unscaled));
    std::string sign = varint::sign(unscaled) < 0 ? "-" : "";
    int64_t n = static_cast<int64_t>(digits.size());
    int64_t adjusted = -scale + (n - 1);
    if (scale == 0) return sign + digits;
    if (scale > 0 && adjusted >= -6) {
        if (scale >= n) {
            return sign + "0." + std::string(static_cast<size_t>(scale - n), '0') + digits;
        }
        size_t point = static_cast<size_t>(n - scale);
        return sign + digits.substr(0, point) + "." + digits.substr(point);
    }
    std::string out = sign + digits.substr(0, 1);
    if (n > 1) out += "." + digits.substr(1);
    out += "E";
    if (adjusted > 0) out += "+";
    out += std::to_string(adjusted);
    return out;
}

}  // namespace tessel::decimal
