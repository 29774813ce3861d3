// encode_key / decode_key: the order-preserving, self-delimiting key encoding.
//
// Layout per type (ascending; descending complements every byte):
//   text, ascii, blob, inet, duration: bytes with 0x00 escaped as 0x00 0xFF, then 0x00 0x00.
//   every other type: a tag byte (0x00 empty value, 0x01 present) then
//     integers, timestamp, time: big-endian with the sign bit flipped;  date: as is;
//     boolean: 0x00/0x01;  float/double: IEEE bits, sign flipped for positives and all
//     bits flipped for negatives (NaN canonical, so all NaNs are one key, as in Java);
//     uuid: version byte, the 8 high bytes (time-reordered for version 1), 8 low bytes;
//     timeuuid: reordered high bytes (sign flipped) and low bytes with each sign bit flipped;
//     varint: class (0 negative, 1 zero, 2 positive), then magnitude length (4 bytes)
//       and magnitude, both complemented for negatives;
//     decimal: class, then for non-zero the exponent (8 bytes, sign flipped), the
//       digits two per byte (value+1) and a 0x00 terminator, complemented for
//       negatives; then the original scale (4 bytes, sign flipped) so bytes round-trip;
//     list/set: 0x01 before each element, 0x00 at the end; map: 0x01 key value ...;
//     tuple: one presence byte per declared component (0x00 null, 0x01 value);
//     UDT: 0x01 null or 0x02 value per field, trailing nulls left out, then 0x00
//       (ALTER TYPE ADD appends fields: older keys stay decodable and equal).
#include <fmt/format.h>

#include <algorithm>

#include "types/bytes_util.h"
#include "types/collection.h"
#include "types/uuid.h"
#include "types/value.h"
#include "types/varint.h"

namespace tessel {
namespace {

constexpr char kEmpty = 0x00;
constexpr char kPresent = 0x01;
// A user type's fields (see encode_asc): null, present; 0 ends the value.
constexpr char kUdtNull = 0x01;
constexpr char kUdtPresent = 0x02;
// A key is at most 64 KiB, so an unscaled value has at most ~160k decimal
// digits; more trailing zeros than that mean a corrupt key (and would make
// the quadratic digits-to-magnitude conversion run for minutes).
constexpr int64_t kMaxTrailingZeros = 160000;
// |exponent| of any real decimal is below 2^31 + its digit count.
constexpr int64_t kMaxExponent = int64_t{1} << 40;

bool escaped_kind(TypeKind k) {
    return k == TypeKind::kAscii || k == TypeKind::kVarchar || k == TypeKind::kBlob ||
           k == TypeKind::kCustom || k == TypeKind::kDuration || k == TypeKind::kInet;
}

int fixed_width(TypeKind k) {
    switch (k) {
        case TypeKind::kBoolean:
        case TypeKind::kTinyint:
            return 1;
        case TypeKind::kSmallint:
            return 2;
        case TypeKind::kInt:
        case TypeKind::kDate:
        case TypeKind::kFloat:
            return 4;
        case TypeKind::kBigint:
        case TypeKind::kCounter:
        case TypeKind::kTimestamp:
        case TypeKind::kTime:
        case TypeKind::kDouble:
            return 8;
        default:
            return 0;
    }
}

// The value's bytes as an n-byte big-endian integer (zero-padded on the left if short;
// callers pass valid values so this only keeps malformed input from reading out of bounds).
uint64_t fixed_bits(std::string_view b, int n) {
    if (b.size() > static_cast<size_t>(n)) b = b.substr(b.size() - static_cast<size_t>(n));
    return bytes::read_be(b, b.size());
}

void encode_escaped(std::string_view b, std::string* out) {
    for (char c : b) {
        out->push_back(c);
        if (c == 0) out->push_back(static_cast<char>(0xFF));
    }
    out->push_back(0);
    out->push_back(0);
}

void encode_varint(std::string_view b, std::string* out) {
    int s = varint::sign(b);
    out->push_back(static_cast<char>(s + 1));
    if (s == 0) return;
    std::string mag = varint::magnitude(b);
    uint8_t mask = s < 0 ? 0xFF : 0x00;
    size_t start = out->size();
    bytes::append_be(out, mag.size(), 4);
    out->append(mag);
    for (size_t i = start; i < out->size(); ++i)
        (*out)[i] = static_cast<char>((*out)[i] ^ mask);
}

void encode_decimal(std::string_view b, std::string* out) {
    decimal::Normalized n = decimal::normalize(b);
    out->push_back(static_cast<char>(n.sign + 1));
    if (n.sign != 0) {
        size_t start = out->size();
        bytes::append_be(out, static_cast<uint64_t>(n.exponent) ^ (uint64_t{1} << 63), 8);
        for (size_t i = 0; i < n.digits.size(); i += 2) {
            int hi = n.digits[i] - '0';
            int lo = i + 1 < n.digits.size() ? n.digits[i + 1] - '0' : 0;
            out->push_back(static_cast<char>(hi * 10 + lo + 1));
        }
        out->push_back(0);
        if (n.sign < 0) {
            for (size_t i = start; i < out->size(); ++i)
                (*out)[i] = static_cast<char>(~(*out)[i]);
        }
    }
    bytes::append_be(out, static_cast<uint32_t>(decimal::scale_of(b)) ^ 0x80000000u, 4);
}

uint64_t float_key_bits(uint64_t bits, int width) {
    uint64_t sign = uint64_t{1} << (width * 8 - 1);
    uint64_t all = width == 8 ? ~uint64_t{0} : (uint64_t{1} << (width * 8)) - 1;
    uint64_t exp_mask = width == 8 ? 0x7FF0000000000000ULL : 0x7F800000ULL;
    uint64_t frac_mask = width == 8 ? 0x000FFFFFFFFFFFFFULL : 0x007FFFFFULL;
    if ((bits & exp_mask) == exp_mask && (bits & frac_mask) != 0) {
        bits = width == 8 ? 0x7FF8000000000000ULL : 0x7FC00000ULL;  // canonical NaN
    }
    return (bits & sign) ? (~bits & all) : (bits | sign);
}

void encode_asc(const CqlType& type, std::string_view b, std::string* out) {
    if (escaped_kind(type.kind)) {
        encode_escaped(b, out);
        return;
    }
    if (b.empty()) {
        out->push_back(kEmpty);
        return;
    }
    out->push_back(kPresent);
    switch (type.kind) {
        case TypeKind::kBoolean:
            out->push_back(b[0] != 0 ? 1 : 0);
            return;
        case TypeKind::kDate:
            bytes::append_be(out, fixed_bits(b, 4), 4);
            return;
        case TypeKind::kFloat:
        case TypeKind::kDouble: {
            int w = fixed_width(type.kind);
            bytes::append_be(out, float_key_bits(fixed_bits(b, w), w), static_cast<size_t>(w));
            return;
        }
        case TypeKind::kTinyint:
        case TypeKind::kSmallint:
        case TypeKind::kInt:
        case TypeKind::kBigint:
        case TypeKind::kCounter:
        case TypeKind::kTimestamp:
        case TypeKind::kTime: {
            int w = fixed_width(type.kind);
            uint64_t flip = uint64_t{1} << (w * 8 - 1);
            bytes::append_be(out, fixed_bits(b, w) ^ flip, static_cast<size_t>(w));
            return;
        }
        case TypeKind::kUuid: {
            std::string u(b.substr(0, 16));
            u.resize(16, '\0');
            int v = uuid::version(u);
            out->push_back(static_cast<char>(v));
            bytes::append_be(out, v == 1 ? uuid::reordered_msb(u) : bytes::read_u64(u), 8);
            out->append(u, 8, 8);
            return;
        }
        case TypeKind::kTimeuuid: {
            std::string u(b.substr(0, 16));
            u.resize(16, '\0');
            bytes::append_be(out, uuid::reordered_msb(u) ^ (uint64_t{1} << 63), 8);
            bytes::append_be(
                out, bytes::read_u64(std::string_view(u).substr(8)) ^ 0x8080808080808080ULL, 8);
            return;
        }
        case TypeKind::kVarint:
            encode_varint(b, out);
            return;
        case TypeKind::kDecimal: {
            std::string d(b);
            if (d.size() < 4) d.resize(4, '\0');
            encode_decimal(d, out);
            return;
        }
        case TypeKind::kList:
        case TypeKind::kSet:
        case TypeKind::kMap: {
            bool is_map = type.kind == TypeKind::kMap;
            size_t stride = is_map ? 2 : 1;
            auto elems = collection::read_elements(b, is_map);
            if (elems.is_ok() && type.params.size() >= stride) {
                for (size_t i = 0; i < elems->size(); i += stride) {
                    out->push_back(kPresent);
                    for (size_t j = 0; j < stride; ++j) {
                        encode_asc(*type.params[j], (*elems)[i + j], out);
                    }
                }
            }
            out->push_back(0);
            return;
        }
        case TypeKind::kUdt: {
            // ALTER TYPE ADD appends fields, so a stored key may have fewer
            // than the type: fields are [1] null or [2][value], trailing nulls
            // are left out and [0] ends the value. A missing field compares
            // as null, as in Cassandra, and the bytes say the same.
            auto fields = collection::read_fields(b);
            size_t n = fields.is_ok() ? std::min(fields->size(), type.params.size()) : 0;
            while (n > 0 && !(*fields)[n - 1])
                --n;
            for (size_t i = 0; i < n; ++i) {
                if (!(*fields)[i]) {
                    out->push_back(kUdtNull);
                } else {
                    out->push_back(kUdtPresent);
                    encode_asc(*type.params[i], *(*fields)[i], out);
                }
            }
            out->push_back(0);
            return;
        }
        case TypeKind::kTuple: {
            auto fields = collection::read_fields(b);
            for (size_t i = 0; i < type.params.size(); ++i) {
                std::optional<std::string_view> f;
                if (fields.is_ok() && i < fields->size()) f = (*fields)[i];
                if (!f) {
                    out->push_back(0);
                } else {
                    out->push_back(kPresent);
                    encode_asc(*type.params[i], *f, out);
                }
            }
            return;
        }
        default:
            encode_escaped(b, out);
            return;
    }
}

// Reads key bytes from the front of a view, undoing the descending complement.
class Reader {
  public:
    Reader(std::string_view* in, bool descending) : in_(in), mask_(descending ? 0xFF : 0) {}
    bool get(uint8_t* c) {
        if (in_->empty()) return false;
        *c = static_cast<uint8_t>((*in_)[0]) ^ mask_;
        in_->remove_prefix(1);
        return true;
    }
    bool get(size_t n, std::string* s) {
        if (in_->size() < n) return false;
        s->resize(n);
        for (size_t i = 0; i < n; ++i)
            (*s)[i] = static_cast<char>(static_cast<uint8_t>((*in_)[i]) ^ mask_);
        in_->remove_prefix(n);
        return true;
    }
    bool get_be(size_t n, uint64_t* v) {
        std::string s;
        if (!get(n, &s)) return false;
        *v = bytes::read_be(s, n);
        return true;
    }

  private:
    std::string_view* in_;
    uint8_t mask_;
};

Status corrupt(const CqlType& type) {
    return Status::server(fmt::format("Corrupt key component of type {}", type.cql_name()));
}

Result<std::string> decode_asc(const CqlType& type, Reader& r);

Result<std::string> decode_escaped(const CqlType& type, Reader& r) {
    std::string out;
    uint8_t c = 0;
    while (true) {
        if (!r.get(&c)) return corrupt(type);
        if (c != 0) {
            out.push_back(static_cast<char>(c));
            continue;
        }
        if (!r.get(&c)) return corrupt(type);
        if (c == 0) return out;
        if (c != 0xFF) return corrupt(type);
        out.push_back('\0');
    }
}

Result<std::string> decode_varint(const CqlType& type, Reader& r) {
    uint8_t cls = 0;
    if (!r.get(&cls) || cls > 2) return corrupt(type);
    if (cls == 1) return std::string(1, '\0');
    uint8_t mask = cls == 0 ? 0xFF : 0;
    uint64_t len = 0;
    if (!r.get_be(4, &len)) return corrupt(type);
    len ^= mask == 0xFF ? 0xFFFFFFFFu : 0;
    std::string mag;
    if (!r.get(len, &mag)) return corrupt(type);
    for (char& ch : mag)
        ch = static_cast<char>(ch ^ mask);
    return varint::from_magnitude(cls == 0, mag);
}

Result<std::string> decode_decimal(const CqlType& type, Reader& r) {
    uint8_t cls = 0;
    if (!r.get(&cls) || cls > 2) return corrupt(type);
    uint8_t mask = cls == 0 ? 0xFF : 0;
    int64_t exponent = 0;
    std::string digits;
    if (cls != 1) {
        uint64_t e = 0;
        if (!r.get_be(8, &e)) return corrupt(type);
        if (mask) e = ~e;
        exponent = static_cast<int64_t>(e ^ (uint64_t{1} << 63));
        if (exponent > kMaxExponent || exponent < -kMaxExponent) return corrupt(type);
        uint8_t c = 0;
        while (true) {
            if (!r.get(&c)) return corrupt(type);
            c ^= mask;
            if (c == 0) break;
            if (c > 100) return corrupt(type);
            digits.push_back(static_cast<char>('0' + (c - 1) / 10));
            digits.push_back(static_cast<char>('0' + (c - 1) % 10));
        }
        if (!digits.empty() && digits.back() == '0') digits.pop_back();
        if (digits.empty()) return corrupt(type);
    }
    uint64_t s = 0;
    if (!r.get_be(4, &s)) return corrupt(type);
    int32_t scale = static_cast<int32_t>(static_cast<uint32_t>(s) ^ 0x80000000u);
    if (cls == 1) return decimal::make(false, "0", scale);
    int64_t trailing = exponent - static_cast<int64_t>(digits.size()) + scale;
    if (trailing < 0 || trailing > kMaxTrailingZeros) return corrupt(type);
    digits.append(static_cast<size_t>(trailing), '0');
    return decimal::make(cls == 0, digits, scale);
}

Result<std::string> decode_asc(const CqlType& type, Reader& r) {
    if (escaped_kind(type.kind)) return decode_escaped(type, r);
    uint8_t tag = 0;
    if (!r.get(&tag) || tag > 1) return corrupt(type);
    if (tag == 0) return std::string();
    switch (type.kind) {
        case TypeKind::kBoolean: {
            uint8_t c = 0;
            if (!r.get(&c) || c > 1) return corrupt(type);
            return std::string(1, static_cast<char>(c));
        }
        case TypeKind::kDate: {
            std::string s;
            if (!r.get(4, &s)) return corrupt(type);
            return s;
        }
        case TypeKind::kFloat:
        case TypeKind::kDouble: {
            size_t w = static_cast<size_t>(fixed_width(type.kind));
            uint64_t v = 0;
            if (!r.get_be(w, &v)) return corrupt(type);
            uint64_t sign = uint64_t{1} << (w * 8 - 1);
            uint64_t all = w == 8 ? ~uint64_t{0} : (uint64_t{1} << (w * 8)) - 1;
            uint64_t bits = (v & sign) ? (v & ~sign) : (~v & all);
            return bytes::be_bytes(bits, w);
        }
        case TypeKind::kTinyint:
        case TypeKind::kSmallint:
        case TypeKind::kInt:
        case TypeKind::kBigint:
        case TypeKind::kCounter:
        case TypeKind::kTimestamp:
        case TypeKind::kTime: {
            size_t w = static_cast<size_t>(fixed_width(type.kind));
            uint64_t v = 0;
            if (!r.get_be(w, &v)) return corrupt(type);
            return bytes::be_bytes(v ^ (uint64_t{1} << (w * 8 - 1)), w);
        }
        case TypeKind::kUuid: {
            uint8_t version = 0;
            uint64_t msb = 0;
            std::string lsb;
            if (!r.get(&version) || !r.get_be(8, &msb) || !r.get(8, &lsb)) return corrupt(type);
            if (version == 1) msb = uuid::msb_from_reordered(msb);
            return bytes::be_bytes(msb, 8) + lsb;
        }
        case TypeKind::kTimeuuid: {
            uint64_t msb = 0, lsb = 0;
            if (!r.get_be(8, &msb) || !r.get_be(8, &lsb)) return corrupt(type);
            return bytes::be_bytes(uuid::msb_from_reordered(msb ^ (uint64_t{1} << 63)), 8) +
                   bytes::be_bytes(lsb ^ 0x8080808080808080ULL, 8);
        }
        case TypeKind::kVarint:
            return decode_varint(type, r);
        case TypeKind::kDecimal:
            return decode_decimal(type, r);
        case TypeKind::kList:
        case TypeKind::kSet:
        case TypeKind::kMap: {
            size_t stride = type.kind == TypeKind::kMap ? 2 : 1;
            if (type.params.size() < stride) return corrupt(type);
            std::vector<std::string> items;
            uint8_t more = 0;
            while (true) {
                if (!r.get(&more) || more > 1) return corrupt(type);
                if (more == 0) break;
                for (size_t j = 0; j < stride; ++j) {
                    TESSEL_ASSIGN_OR_RETURN(std::string v, decode_asc(*type.params[j], r));
                    items.push_back(std::move(v));
                }
            }
            return collection::write_elements(items, stride == 2);
        }
        case TypeKind::kUdt: {
            std::vector<std::optional<std::string>> fields;
            while (true) {
                uint8_t tag = 0;
                if (!r.get(&tag) || tag > kUdtPresent) return corrupt(type);
                if (tag == 0) break;
                if (fields.size() >= type.params.size()) return corrupt(type);
                if (tag == kUdtNull) {
                    fields.emplace_back(std::nullopt);
                    continue;
                }
                TESSEL_ASSIGN_OR_RETURN(std::string v, decode_asc(*type.params[fields.size()], r));
                fields.emplace_back(std::move(v));
            }
            // Fields added since the key was written read as null.
            fields.resize(type.params.size());
            return collection::write_fields(fields);
        }
        case TypeKind::kTuple: {
            std::vector<std::optional<std::string>> fields;
            for (const auto& p : type.params) {
                uint8_t present = 0;
                if (!r.get(&present) || present > 1) return corrupt(type);
                if (present == 0) {
                    fields.emplace_back(std::nullopt);
                    continue;
                }
                TESSEL_ASSIGN_OR_RETURN(std::string v, decode_asc(*p, r));
                fields.emplace_back(std::move(v));
            }
            return collection::write_fields(fields);
        }
        default:
            return corrupt(type);
    }
}

}  // namespace

void encode_key(const CqlType& type, std::string_view bytes, bool descending, std::string* out) {
    size_t start = out->size();
    encode_asc(type, bytes, out);
    if (descending) {
        for (size_t i = start; i < out->size(); ++i)
            (*out)[i] = static_cast<char>(~(*out)[i]);
    }
}

Result<std::string> decode_key(const CqlType& type, std::string_view* in, bool descending) {
    std::string_view work = *in;
    Reader r(&work, descending);
    auto v = decode_asc(type, r);
    if (v.is_ok()) *in = work;
    return v;
}

}  // namespace tessel
