#include "types/number_format.h"

#include <cfloat>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <string_view>

namespace tessel::numfmt {
namespace {

// Shortest round-trip decimal digits of v (> 0, finite) and the decimal
// exponent: v = 0.DIGITS * 10^point.
struct Shortest {
    std::string digits;
    int point;
};

Shortest shortest(double v, bool is_float32) {
    // A double outside float range cannot be printed as a float; print it as a double.
    if (is_float32 && std::isinf(static_cast<float>(v))) is_float32 = false;
    char buf[64];
    std::to_chars_result r =
        is_float32 ? std::to_chars(buf, buf + sizeof(buf), static_cast<float>(v),
                                   std::chars_format::scientific)
                   : std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
    std::string s(buf, r.ptr);
    size_t e = s.find('e');
    std::string mant = s.substr(0, e == std::string::npos ? s.size() : e);
    int exp = 0;
    if (e != std::string::npos) {
        std::string_view ex = std::string_view(s).substr(e + 1);
        if (!ex.empty() && ex[0] == '+') ex.remove_prefix(1);
        std::from_chars(ex.data(), ex.data() + ex.size(), exp);
    }
    std::string digits;
    for (char c : mant) {
        if (c >= '0' && c <= '9') digits.push_back(c);
    }
    while (digits.size() > 1 && digits.back() == '0')
        digits.pop_back();
    return Shortest{digits, exp + 1};
}

bool special(double v, std::string* out) {
    if (std::isnan(v)) {
        *out = "NaN";
        return true;
    }
    if (std::isinf(v)) {
        *out = v > 0 ? "Infinity" : "-Infinity";
        return true;
    }
    return false;
}

}  // namespace

std::string cqlsh_float(double v, int precision) {
    std::string out;
    if (special(v, &out)) return out;
    double a = std::fabs(v);
    long long exponent = a > DBL_EPSILON ? static_cast<long long>(std::log10(a)) : LLONG_MIN;
    if (exponent >= -4 && exponent < precision)
        precision = precision + static_cast<int>(exponent) + 1;
    char buf[512];
    std::snprintf(buf, sizeof(buf), "%.*g", precision, v);
    return buf;
}

std::string python_repr(double v, bool is_float32) {
    std::string out;
    if (special(v, &out)) return out;
    if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
    std::string sign = v < 0 ? "-" : "";
    Shortest s = shortest(std::fabs(v), is_float32);
    int n = static_cast<int>(s.digits.size());
    if (s.point > -4 && s.point <= 16) {
        if (s.point <= 0)
            return sign + "0." + std::string(static_cast<size_t>(-s.point), '0') + s.digits;
        if (s.point >= n)
            return sign + s.digits + std::string(static_cast<size_t>(s.point - n), '0') + ".0";
        return sign + s.digits.substr(0, static_cast<size_t>(s.point)) + "." +
               s.digits.substr(static_cast<size_t>(s.point));
    }
    int exp = s.point - 1;
    out = sign + s.digits.substr(0, 1);
    if (n > 1) out += "." + s.digits.substr(1);
    char buf[16];
    std::snprintf(buf, sizeof(buf), "e%c%02d", exp < 0 ? '-' : '+', std::abs(exp));
    return out + buf;
}

std::string java_to_string(double v, bool is_float32) {
    std::string out;
    if (special(v, &out)) return out;
    if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
    std::string sign = v < 0 ? "-" : "";
    double a = std::fabs(v);
    Shortest s = shortest(a, is_float32);
    int n = static_cast<int>(s.digits.size());
    if (a >= 1e-3 && a < 1e7) {
        if (s.point <= 0)
            return sign + "0." + std::string(static_cast<size_t>(-s.point), '0') + s.digits;
        if (s.point >= n)
            return sign + s.digits + std::string(static_cast<size_t>(s.point - n), '0') + ".0";
        return sign + s.digits.substr(0, static_cast<size_t>(s.point)) + "." +
               s.digits.substr(static_cast<size_t>(s.point));
    }
    out = sign + s.digits.substr(0, 1) + "." + (n > 1 ? s.digits.substr(1) : "0");
    return out + "E" + std::to_string(s.point - 1);
}

}  // namespace tessel::numfmt
