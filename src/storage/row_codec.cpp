#include "storage/row_codec.h"

namespace tessel::storage {
namespace {

void put_varint(std::string* out, uint64_t v) {
    while (v >= 0x80) {
        out->push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out->push_back(static_cast<char>(v));
}

uint64_t zigzag(int64_t v) {
    return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
int64_t unzigzag(uint64_t v) {
    return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}

void put_signed(std::string* out, int64_t v) {
    put_varint(out, zigzag(v));
}

void put_bytes(std::string* out, std::string_view b) {
    put_varint(out, b.size());
    out->append(b);
}

// Bounds-checked cursor over an encoded value.
class Reader {
  public:
    explicit Reader(std::string_view in) : in_(in) {}

    bool u8(uint8_t* v) {
        if (pos_ >= in_.size()) return false;
        *v = static_cast<uint8_t>(in_[pos_++]);
        return true;
    }
    bool varint(uint64_t* v) {
        uint64_t result = 0;
        for (int shift = 0; shift <= 63; shift += 7) {
            uint8_t b;
            if (!u8(&b)) return false;
            result |= static_cast<uint64_t>(b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                *v = result;
                return true;
            }
        }
        return false;
    }
    bool u32(uint32_t* v) {
        uint64_t x;
        if (!varint(&x) || x > UINT32_MAX) return false;
        *v = static_cast<uint32_t>(x);
        return true;
    }
    bool i64(int64_t* v) {
        uint64_t x;
        if (!varint(&x)) return false;
        *v = unzigzag(x);
        return true;
    }
    bool i32(int32_t* v) {
        int64_t x;
        if (!i64(&x) || x < INT32_MIN || x > INT32_MAX) return false;
        *v = static_cast<int32_t>(x);
        return true;
    }
    bool bytes(std::string* v) {
        uint64_t n;
        if (!varint(&n) || n > in_.size() - pos_) return false;
        v->assign(in_.substr(pos_, n));
        pos_ += n;
        return true;
    }
    // A count that cannot exceed the remaining bytes (each item takes >= 1
    // byte), so a corrupt count never triggers a huge allocation.
    bool count(uint64_t* n) { return varint(n) && *n <= in_.size() - pos_; }
    bool at_end() const { return pos_ == in_.size(); }

  private:
    std::string_view in_;
    size_t pos_ = 0;
};

void put_prefix(std::string* out, RecordType type, uint32_t pk_length) {
    out->push_back(static_cast<char>(kFormatVersion));
    out->push_back(static_cast<char>(type));
    put_varint(out, pk_length);
}

bool read_prefix(Reader& r, RecordType expected, uint32_t* pk_length) {
    uint8_t version, type;
    return r.u8(&version) && version == kFormatVersion && r.u8(&type) &&
           type == static_cast<uint8_t>(expected) && r.u32(pk_length);
}

void put_deletion(std::string* out, const DeletionTime& d) {
    put_signed(out, d.timestamp);
    put_signed(out, d.local_deletion_time);
}

bool read_deletion(Reader& r, DeletionTime* d) {
    return r.i64(&d->timestamp) && r.i32(&d->local_deletion_time);
}

std::string make_key(std::string_view pk, char marker, std::string_view suffix) {
    std::string k;
    k.reserve(pk.size() + 1 + suffix.size());
    k.append(pk);
    k.push_back(marker);
    k.append(suffix);
    return k;
}

}  // namespace

std::string header_key(std::string_view pk) {
    return make_key(pk, kHeaderMarker, {});
}
std::string static_key(std::string_view pk) {
    return make_key(pk, kStaticMarker, {});
}
std::string row_key(std::string_view pk, std::string_view clustering) {
    return make_key(pk, kRowMarker, clustering);
}

void encode_header(const HeaderValue& v, std::string* out) {
    put_prefix(out, RecordType::kHeader, v.pk_length);
    const bool has_pd = !v.partition_deletion.is_live();
    out->push_back(has_pd ? 1 : 0);
    if (has_pd) put_deletion(out, v.partition_deletion);
    put_varint(out, v.range_tombstones.size());
    for (const auto& rt : v.range_tombstones) {
        put_bytes(out, rt.start.prefix);
        put_bytes(out, rt.end.prefix);
        out->push_back(
            static_cast<char>((rt.start.inclusive ? 1 : 0) | (rt.end.inclusive ? 2 : 0)));
        put_deletion(out, rt.deletion);
    }
}

bool decode_header(std::string_view in, HeaderValue* out) {
    Reader r(in);
    *out = HeaderValue{};
    uint8_t flags;
    if (!read_prefix(r, RecordType::kHeader, &out->pk_length) || !r.u8(&flags)) return false;
    if ((flags & 1) && !read_deletion(r, &out->partition_deletion)) return false;
    uint64_t n;
    if (!r.count(&n)) return false;
    out->range_tombstones.resize(n);
    for (auto& rt : out->range_tombstones) {
        uint8_t incl;
        if (!r.bytes(&rt.start.prefix) || !r.bytes(&rt.end.prefix) || !r.u8(&incl) ||
            !read_deletion(r, &rt.deletion)) {
            return false;
        }
        rt.start.inclusive = (incl & 1) != 0;
        rt.end.inclusive = (incl & 2) != 0;
    }
    return r.at_end();
}

void encode_row(uint32_t pk_length, const RowFragment& row, std::string* out) {
    put_prefix(out, RecordType::kRow, pk_length);
    const bool has_marker = !row.marker.is_empty();
    const bool marker_expiring = has_marker && (row.marker.ttl != 0 || row.marker.expiry != 0);
    const bool has_deletion = !row.deletion.is_live();
    out->push_back(static_cast<char>((has_marker ? 1 : 0) | (marker_expiring ? 2 : 0) |
                                     (has_deletion ? 4 : 0)));
    if (has_marker) {
        put_signed(out, row.marker.timestamp);
        if (marker_expiring) {
            put_signed(out, row.marker.ttl);
            put_signed(out, row.marker.expiry);
        }
    }
    if (has_deletion) put_deletion(out, row.deletion);
    put_varint(out, row.complex_deletions.size());
    for (const auto& cd : row.complex_deletions) {
        put_varint(out, cd.column_id);
        put_deletion(out, cd.deletion);
    }
    put_varint(out, row.cells.size());
    for (const auto& c : row.cells) {
        put_varint(out, c.column_id);
        put_bytes(out, c.path);
        out->push_back(static_cast<char>((static_cast<uint8_t>(c.kind) & 3) | (c.ttl ? 4 : 0) |
                                         (c.expiry ? 8 : 0)));
        put_signed(out, c.timestamp);
        if (c.ttl) put_signed(out, c.ttl);
        if (c.expiry) put_signed(out, c.expiry);
        put_bytes(out, c.value);
    }
}

bool decode_row(std::string_view in, RowValue* out) {
    Reader r(in);
    // Reset field by field: a reused RowValue keeps its vectors' capacity.
    RowFragment& row = out->row;
    row.marker = LivenessInfo{};
    row.deletion = DeletionTime{};
    row.complex_deletions.clear();
    row.cells.clear();
    uint8_t flags;
    if (!read_prefix(r, RecordType::kRow, &out->pk_length) || !r.u8(&flags)) return false;
    if (flags & 1) {
        if (!r.i64(&row.marker.timestamp)) return false;
        if ((flags & 2) && !(r.i32(&row.marker.ttl) && r.i32(&row.marker.expiry))) return false;
    }
    if ((flags & 4) && !read_deletion(r, &row.deletion)) return false;
    uint64_t n;
    if (!r.count(&n)) return false;
    row.complex_deletions.resize(n);
    for (auto& cd : row.complex_deletions) {
        if (!r.u32(&cd.column_id) || !read_deletion(r, &cd.deletion)) return false;
    }
    if (!r.count(&n)) return false;
    row.cells.resize(n);
    for (auto& c : row.cells) {
        uint8_t cflags;
        if (!r.u32(&c.column_id) || !r.bytes(&c.path) || !r.u8(&cflags)) return false;
        c.kind = static_cast<Cell::Kind>(cflags & 3);
        if (!r.i64(&c.timestamp)) return false;
        if ((cflags & 4) && !r.i32(&c.ttl)) return false;
        if ((cflags & 8) && !r.i32(&c.expiry)) return false;
        if (!r.bytes(&c.value)) return false;
    }
    return r.at_end();
}

std::optional<RecordPrefix> peek_record(std::string_view in) {
    Reader r(in);
    uint8_t version, type;
    uint32_t pk_length;
    if (!r.u8(&version) || version != kFormatVersion || !r.u8(&type) || !r.u32(&pk_length)) {
        return std::nullopt;
    }
    if (type != static_cast<uint8_t>(RecordType::kHeader) &&
        type != static_cast<uint8_t>(RecordType::kRow)) {
        return std::nullopt;
    }
    return RecordPrefix{static_cast<RecordType>(type), pk_length};
}

size_t estimated_row_size(const RowFragment& row) {
    size_t n = 8 + row.complex_deletions.size() * 12;
    if (!row.marker.is_empty()) n += 8;
    if (!row.deletion.is_live()) n += 12;
    for (const auto& c : row.cells)
        n += 12 + c.path.size() + c.value.size();
    return n;
}

int64_t decode_counter(std::string_view v) {
    uint64_t x = 0;
    for (size_t i = 0; i < 8 && i < v.size(); ++i)
        x = (x << 8) | static_cast<uint8_t>(v[i]);
    return static_cast<int64_t>(x);
}

std::string encode_counter(int64_t v) {
    std::string out(8, '\0');
    auto x = static_cast<uint64_t>(v);
    for (int i = 7; i >= 0; --i) {
        out[i] = static_cast<char>(x & 0xff);
        x >>= 8;
    }
    return out;
}

}  // namespace tessel::storage
