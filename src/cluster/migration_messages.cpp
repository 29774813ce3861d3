#include "cluster/migration_messages.h"

#include <bit>

#include "common/record_codec.h"

namespace tessel::cluster {
namespace {

constexpr uint8_t kFormat = 1;

Status malformed(const char* what) {
    return Status(ErrorCode::kProtocolError, std::string("malformed ") + what + " message");
}

void put_double(std::string* out, double v) {
    record::put_u64(out, std::bit_cast<uint64_t>(v));
}

bool get_double(record::Reader& r, double* v) {
    uint64_t u = 0;
    if (!r.u64(&u)) return false;
    *v = std::bit_cast<double>(u);
    return true;
}

bool get_format(record::Reader& r) {
    uint8_t f = 0;
    return r.u8(&f) && f == kFormat;
}

}  // namespace

std::string encode(const TabletBarrier& m) {
    std::string out(1, static_cast<char>(kFormat));
    record::put_str(&out, m.table_id);
    record::put_u64(&out, static_cast<uint64_t>(m.revision));
    record::put_u32(&out, m.timeout_ms);
    return out;
}

Status decode(std::string_view in, TabletBarrier* out) {
    record::Reader r(in);
    uint64_t revision = 0;
    if (!get_format(r) || !r.str(&out->table_id) || !r.u64(&revision) || !r.u32(&out->timeout_ms) ||
        !r.done()) {
        return malformed("tablet barrier");
    }
    out->revision = static_cast<int64_t>(revision);
    return Status::ok();
}

std::string encode(const TabletLoadReport& m) {
    std::string out(1, static_cast<char>(kFormat));
    record::put_str(&out, m.host);
    record::put_u32(&out, static_cast<uint32_t>(m.tablets.size()));
    for (const auto& t : m.tablets) {
        record::put_str(&out, t.table_id);
        record::put_str(&out, t.start);
        record::put_u64(&out, t.size_bytes);
        put_double(&out, t.reads_per_sec);
        put_double(&out, t.writes_per_sec);
        put_double(&out, t.bytes_per_sec);
    }
    return out;
}

Status decode(std::string_view in, TabletLoadReport* out) {
    record::Reader r(in);
    uint32_t n = 0;
    // Each entry takes at least 40 bytes: no huge allocation from a bad count.
    if (!get_format(r) || !r.str(&out->host) || !r.u32(&n) || n > r.remaining() / 40)
        return malformed("tablet load");
    out->tablets.resize(n);
    for (auto& t : out->tablets) {
        if (!r.str(&t.table_id) || !r.str(&t.start) || !r.u64(&t.size_bytes) ||
            !get_double(r, &t.reads_per_sec) || !get_double(r, &t.writes_per_sec) ||
            !get_double(r, &t.bytes_per_sec)) {
            return malformed("tablet load");
        }
    }
    if (!r.done()) return malformed("tablet load");
    return Status::ok();
}

}  // namespace tessel::cluster
