#include "query/numbers.h"

#include <cstring>

#include "types/bytes_util.h"
#include "types/varint.h"

namespace tessel::query::numbers {

bool is_fixed_integer(TypeKind k) {
    return k == TypeKind::kInt || k == TypeKind::kBigint || k == TypeKind::kSmallint ||
           k == TypeKind::kTinyint || k == TypeKind::kCounter;
}

int64_t read_integer(std::string_view b) {
    if (b.empty()) return 0;
    int64_t v = static_cast<int8_t>(b[0]);  // sign-extend the first byte
    for (size_t i = 1; i < b.size(); ++i)
        v = (v << 8) | static_cast<uint8_t>(b[i]);
    return v;
}

std::string write_integer(TypeKind k, int64_t v) {
    switch (k) {
        case TypeKind::kTinyint:
            return bytes::be_bytes(static_cast<uint8_t>(v), 1);
        case TypeKind::kSmallint:
            return bytes::be_bytes(static_cast<uint16_t>(v), 2);
        case TypeKind::kInt:
            return bytes::i32_bytes(static_cast<int32_t>(v));
        default:
            return bytes::i64_bytes(v);
    }
}

double read_floating(TypeKind k, std::string_view b) {
    if (k == TypeKind::kFloat && b.size() == 4) {
        const uint32_t u = bytes::read_u32(b);
        float f;
        std::memcpy(&f, &u, 4);
        return f;
    }
    if (k == TypeKind::kDouble && b.size() == 8) {
        const uint64_t u = bytes::read_u64(b);
        double d;
        std::memcpy(&d, &u, 8);
        return d;
    }
    return static_cast<double>(read_integer(b));
}

std::string write_floating(TypeKind k, double v) {
    if (k == TypeKind::kFloat) {
        const float f = static_cast<float>(v);
        uint32_t u;
        std::memcpy(&u, &f, 4);
        return bytes::be_bytes(u, 4);
    }
    uint64_t u;
    std::memcpy(&u, &v, 8);
    return bytes::be_bytes(u, 8);
}

namespace {

std::string strip_zeros(std::string d) {
    const size_t nz = d.find_first_not_of('0');
    return nz == std::string::npos ? "0" : d.substr(nz);
}

int compare_digits(const std::string& a, const std::string& b) {
    if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
    return a.compare(b) < 0 ? -1 : (a == b ? 0 : 1);
}

std::string add_digits(const std::string& a, const std::string& b) {
    std::string out;
    int carry = 0;
    for (size_t i = 0; i < std::max(a.size(), b.size()) || carry; ++i) {
        int d = carry;
        if (i < a.size()) d += a[a.size() - 1 - i] - '0';
        if (i < b.size()) d += b[b.size() - 1 - i] - '0';
        out.push_back(static_cast<char>('0' + d % 10));
        carry = d / 10;
    }
    return strip_zeros(std::string(out.rbegin(), out.rend()));
}

// a - b for a >= b.
std::string sub_digits(const std::string& a, const std::string& b) {
    std::string out;
    int borrow = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        int d = (a[a.size() - 1 - i] - '0') - borrow;
        if (i < b.size()) d -= b[b.size() - 1 - i] - '0';
        borrow = d < 0 ? 1 : 0;
        out.push_back(static_cast<char>('0' + d + 10 * borrow));
    }
    return strip_zeros(std::string(out.rbegin(), out.rend()));
}

// Quotient and remainder of a digit string by n > 0.
std::pair<std::string, int64_t> div_digits(const std::string& a, int64_t n) {
    std::string q;
    __int128 rem = 0;
    for (char c : a) {
        rem = rem * 10 + (c - '0');
        q.push_back(static_cast<char>('0' + static_cast<int>(rem / n)));
        rem %= n;
    }
    return {strip_zeros(q), static_cast<int64_t>(rem)};
}

BigDecimal rescaled(BigDecimal a, int32_t scale) {
    if (scale > a.scale && a.digits != "0")
        a.digits.append(static_cast<size_t>(scale - a.scale), '0');
    a.scale = scale;
    return a;
}

}  // namespace

BigDecimal BigDecimal::from_varint(std::string_view bytes) {
    BigDecimal d;
    d.negative = varint::sign(bytes) < 0;
    d.digits = strip_zeros(varint::magnitude_to_digits(varint::magnitude(bytes)));
    return d;
}

BigDecimal BigDecimal::from_decimal(std::string_view bytes) {
    BigDecimal d = from_varint(bytes.substr(4));
    d.scale = static_cast<int32_t>(bytes::read_u32(bytes));
    return d;
}

std::string BigDecimal::to_varint() const {
    return varint::from_magnitude(negative && digits != "0", varint::digits_to_magnitude(digits));
}

std::string BigDecimal::to_decimal() const {
    return bytes::be_bytes(static_cast<uint32_t>(scale), 4) + to_varint();
}

BigDecimal negate(BigDecimal a) {
    a.negative = !a.negative;
    return a;
}

BigDecimal add(const BigDecimal& x, const BigDecimal& y) {
    const int32_t scale = std::max(x.scale, y.scale);
    const BigDecimal a = rescaled(x, scale), b = rescaled(y, scale);
    BigDecimal out;
    out.scale = scale;
    if (a.negative == b.negative) {
        out.negative = a.negative;
        out.digits = add_digits(a.digits, b.digits);
    } else if (compare_digits(a.digits, b.digits) >= 0) {
        out.negative = a.negative;
        out.digits = sub_digits(a.digits, b.digits);
    } else {
        out.negative = b.negative;
        out.digits = sub_digits(b.digits, a.digits);
    }
    if (out.digits == "0") out.negative = false;
    return out;
}

BigDecimal divide_truncated(const BigDecimal& a, int64_t n) {
    BigDecimal out = a;
    out.digits = div_digits(a.digits, n).first;
    if (out.digits == "0") out.negative = false;
    return out;
}

BigDecimal divide_half_even(const BigDecimal& a, int64_t n) {
    auto [q, rem] = div_digits(a.digits, n);
    const __int128 twice = static_cast<__int128>(rem) * 2;
    const bool odd = (q.back() - '0') % 2 == 1;
    if (twice > n || (twice == n && odd)) q = add_digits(q, "1");
    BigDecimal out = a;
    out.digits = q;
    if (out.digits == "0") out.negative = false;
    return out;
}

}  // namespace tessel::query::numbers
