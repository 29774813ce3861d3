#include "query/numbers.h"

#include <cstring>

#include "types/bytes_util.h"

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

}  // namespace tessel::query::numbers
