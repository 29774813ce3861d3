// Big-endian fields of the small versioned records kept in the catalog
// family (roles, tablet maps): writers that append, and a Reader that
// consumes a record and says false instead of reading past its end.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tessel::record {

inline void put_u32(std::string* out, uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8)
        out->push_back(static_cast<char>((v >> shift) & 0xff));
}

inline void put_u64(std::string* out, uint64_t v) {
    for (int shift = 56; shift >= 0; shift -= 8)
        out->push_back(static_cast<char>((v >> shift) & 0xff));
}

// A length-prefixed (u32) string.
inline void put_str(std::string* out, std::string_view s) {
    put_u32(out, static_cast<uint32_t>(s.size()));
    out->append(s);
}

class Reader {
  public:
    explicit Reader(std::string_view in) : in_(in) {}
    bool u8(uint8_t* v) {
        if (in_.empty()) return false;
        *v = static_cast<uint8_t>(in_[0]);
        in_.remove_prefix(1);
        return true;
    }
    bool u32(uint32_t* v) { return fixed(4, v); }
    bool u64(uint64_t* v) { return fixed(8, v); }
    bool bytes(size_t n, std::string* out) {
        if (in_.size() < n) return false;
        out->assign(in_.substr(0, n));
        in_.remove_prefix(n);
        return true;
    }
    // A length-prefixed (u32) string.
    bool str(std::string* s) {
        uint32_t n = 0;
        return u32(&n) && bytes(n, s);
    }
    bool done() const { return in_.empty(); }
    size_t remaining() const { return in_.size(); }

  private:
    template <typename T>
    bool fixed(size_t n, T* v) {
        if (in_.size() < n) return false;
        *v = 0;
        for (size_t i = 0; i < n; ++i)
            *v = static_cast<T>((*v << 8) | static_cast<uint8_t>(in_[i]));
        in_.remove_prefix(n);
        return true;
    }
    std::string_view in_;
};

}  // namespace tessel::record
