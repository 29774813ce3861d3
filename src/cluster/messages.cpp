#include "cluster/messages.h"

#include <xxhash.h>

#include "common/record_codec.h"
#include "storage/row_codec.h"

namespace tessel::cluster {
namespace {

// Every message starts with its format version, so a node can refuse what
// it does not understand instead of misreading it.
constexpr uint8_t kMessageFormat = 1;

Status malformed(const char* what) {
    return Status::protocol(std::string("Malformed internode message: ") + what);
}

class Writer {
  public:
    Writer() { out_.push_back(static_cast<char>(kMessageFormat)); }
    void u8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
    void flag(bool v) { u8(v ? 1 : 0); }
    void u32(uint32_t v) { record::put_u32(&out_, v); }
    void i64(int64_t v) { record::put_u64(&out_, static_cast<uint64_t>(v)); }
    void u64(uint64_t v) { record::put_u64(&out_, v); }
    void str(std::string_view s) { record::put_str(&out_, s); }
    void bound(const storage::ClusteringBound& b) {
        str(b.prefix);
        flag(b.inclusive);
    }
    void slice(const storage::SliceSpec& s) {
        bound(s.start);
        bound(s.end);
        flag(s.reversed);
        flag(s.include_static);
        flag(s.single_row);
        flag(s.fill_cache);
    }
    void range(const storage::KeyRange& r) {
        str(r.start_key);
        flag(r.start_inclusive);
        str(r.end_key);
        flag(r.end_inclusive);
    }
    void fragment(const storage::RowFragment& f) {
        scratch_.clear();
        storage::encode_row(0, f, &scratch_);
        str(scratch_);
    }
    void row(const storage::Row& r) {
        str(r.clustering);
        storage::RowFragment f;
        f.marker = r.marker;
        f.cells = r.cells;
        fragment(f);
    }
    void optional_row(const std::optional<storage::Row>& r) {
        flag(r.has_value());
        if (r) row(*r);
    }
    void rows(const std::vector<storage::Row>& rs) {
        u32(static_cast<uint32_t>(rs.size()));
        for (const auto& r : rs)
            row(r);
    }
    void mutation(const storage::PartitionMutation& m) {
        str(m.partition_key);
        storage::HeaderValue h;
        h.partition_deletion = m.partition_deletion;
        h.range_tombstones = m.range_tombstones;
        scratch_.clear();
        storage::encode_header(h, &scratch_);
        str(scratch_);
        flag(m.static_row.has_value());
        if (m.static_row) fragment(*m.static_row);
        u32(static_cast<uint32_t>(m.rows.size()));
        for (const auto& [clustering, f] : m.rows) {
            str(clustering);
            fragment(f);
        }
    }
    std::string take() { return std::move(out_); }

  private:
    std::string out_;
    std::string scratch_;
};

class Reader {
  public:
    explicit Reader(std::string_view in) : r_(in) {
        uint8_t format = 0;
        ok_ = r_.u8(&format) && format == kMessageFormat;
    }
    bool ok() const { return ok_; }
    bool u8(uint8_t* v) { return ok_ = ok_ && r_.u8(v); }
    bool flag(bool* v) {
        uint8_t b = 0;
        if (!u8(&b) || b > 1) return ok_ = false;
        *v = b == 1;
        return true;
    }
    bool u32(uint32_t* v) { return ok_ = ok_ && r_.u32(v); }
    bool u64(uint64_t* v) { return ok_ = ok_ && r_.u64(v); }
    bool i64(int64_t* v) {
        uint64_t u = 0;
        if (!u64(&u)) return false;
        *v = static_cast<int64_t>(u);
        return true;
    }
    bool str(std::string* s) { return ok_ = ok_ && r_.str(s); }
    // A count of items that each take at least `min_bytes`: refuses counts
    // the remaining input cannot hold (no huge allocation from a bad count).
    bool count(uint32_t* n, size_t min_bytes) {
        if (!u32(n)) return false;
        return ok_ = *n <= remaining() / std::max<size_t>(min_bytes, 1);
    }
    bool bound(storage::ClusteringBound* b) { return str(&b->prefix) && flag(&b->inclusive); }
    bool slice(storage::SliceSpec* s) {
        return bound(&s->start) && bound(&s->end) && flag(&s->reversed) &&
               flag(&s->include_static) && flag(&s->single_row) && flag(&s->fill_cache);
    }
    bool range(storage::KeyRange* r) {
        return str(&r->start_key) && flag(&r->start_inclusive) && str(&r->end_key) &&
               flag(&r->end_inclusive);
    }
    bool fragment(storage::RowFragment* f) {
        std::string bytes;
        storage::RowValue v;
        if (!str(&bytes) || !storage::decode_row(bytes, &v)) return ok_ = false;
        *f = std::move(v.row);
        return true;
    }
    bool row(storage::Row* r) {
        storage::RowFragment f;
        if (!str(&r->clustering) || !fragment(&f)) return false;
        r->marker = f.marker;
        r->cells = std::move(f.cells);
        return true;
    }
    bool optional_row(std::optional<storage::Row>* r) {
        bool has = false;
        if (!flag(&has)) return false;
        if (!has) return true;
        r->emplace();
        return row(&**r);
    }
    bool rows(std::vector<storage::Row>* rs) {
        uint32_t n = 0;
        if (!count(&n, 8)) return false;
        rs->resize(n);
        for (auto& r : *rs) {
            if (!row(&r)) return false;
        }
        return true;
    }
    bool mutation(storage::PartitionMutation* m) {
        std::string header_bytes;
        storage::HeaderValue h;
        if (!str(&m->partition_key) || !str(&header_bytes) ||
            !storage::decode_header(header_bytes, &h)) {
            return ok_ = false;
        }
        m->partition_deletion = h.partition_deletion;
        m->range_tombstones = std::move(h.range_tombstones);
        bool has_static = false;
        if (!flag(&has_static)) return false;
        if (has_static) {
            m->static_row.emplace();
            if (!fragment(&*m->static_row)) return false;
        }
        uint32_t n = 0;
        if (!count(&n, 8)) return false;
        m->rows.resize(n);
        for (auto& [clustering, f] : m->rows) {
            if (!str(&clustering) || !fragment(&f)) return false;
        }
        return true;
    }
    Status finish(const char* what) const {
        if (!ok_ || !done()) return malformed(what);
        return Status::ok();
    }

    size_t remaining() const { return r_.remaining(); }

  private:
    bool done() const { return r_.done(); }

    record::Reader r_;
    bool ok_ = true;
};

}  // namespace

std::string encode(const MutationMessage& m) {
    Writer w;
    w.str(m.table_id);
    w.mutation(m.mutation);
    return w.take();
}

Status decode(std::string_view in, MutationMessage* out) {
    Reader r(in);
    r.str(&out->table_id) && r.mutation(&out->mutation);
    return r.finish("mutation");
}

std::string encode(const CounterLeaderMessage& m) {
    Writer w;
    w.str(m.table_id);
    w.mutation(m.mutation);
    w.u32(static_cast<uint32_t>(m.replicas.size()));
    for (const auto& r : m.replicas)
        w.str(r);
    w.flag(m.replication.network_topology);
    w.u32(static_cast<uint32_t>(m.replication.replication_factor));
    w.u32(static_cast<uint32_t>(m.replication.per_dc.size()));
    for (const auto& [dc, rf] : m.replication.per_dc) {
        w.str(dc);
        w.u32(static_cast<uint32_t>(rf));
    }
    w.flag(m.replication.local);
    w.u32(m.consistency);
    w.u32(m.timeout_ms);
    // Added with tablet migration: absent when empty, so a leader that
    // predates it reads every message that does not need it.
    if (!m.pending.empty()) {
        w.u32(static_cast<uint32_t>(m.pending.size()));
        for (const auto& p : m.pending)
            w.str(p);
    }
    return w.take();
}

Status decode(std::string_view in, CounterLeaderMessage* out) {
    Reader r(in);
    uint32_t n = 0, rf = 0, consistency = 0;
    r.str(&out->table_id) && r.mutation(&out->mutation) && r.count(&n, 4);
    out->replicas.resize(r.ok() ? n : 0);
    for (auto& h : out->replicas)
        r.str(&h);
    r.flag(&out->replication.network_topology) && r.u32(&rf) && r.count(&n, 8);
    out->replication.replication_factor = static_cast<int>(rf);
    for (uint32_t i = 0; r.ok() && i < n; ++i) {
        std::string dc;
        uint32_t dc_rf = 0;
        if (r.str(&dc) && r.u32(&dc_rf)) out->replication.per_dc[dc] = static_cast<int>(dc_rf);
    }
    r.flag(&out->replication.local) && r.u32(&consistency) && r.u32(&out->timeout_ms);
    if (r.ok() && r.remaining() > 0 && r.count(&n, 4)) {
        out->pending.resize(n);
        for (auto& h : out->pending)
            r.str(&h);
    }
    if (consistency > 0xFFFF || rf > 255) return malformed("counter write");
    out->consistency = static_cast<uint16_t>(consistency);
    return r.finish("counter write");
}

std::string encode_status(const Status& st) {
    Writer w;
    w.flag(!st.is_ok());
    if (st.is_ok()) return w.take();
    w.u32(static_cast<uint32_t>(st.code()));
    w.str(st.message());
    w.str(st.detail1);
    w.str(st.detail2);
    w.flag(st.replicas.has_value());
    if (st.replicas) {
        w.u32(st.replicas->consistency);
        w.u32(static_cast<uint32_t>(st.replicas->received));
        w.u32(static_cast<uint32_t>(st.replicas->block_for));
        w.u32(static_cast<uint32_t>(st.replicas->failures));
        w.flag(st.replicas->data_present);
    }
    return w.take();
}

Status decode_status(std::string_view in) {
    Reader r(in);
    bool failed = false;
    if (!r.flag(&failed)) return malformed("status");
    if (!failed) {
        TESSEL_RETURN_IF_ERROR(r.finish("status"));
        return Status::ok();
    }
    uint32_t code = 0;
    std::string message, d1, d2;
    bool has_replicas = false;
    r.u32(&code) && r.str(&message) && r.str(&d1) && r.str(&d2) && r.flag(&has_replicas);
    std::optional<Status::Replicas> replicas;
    if (has_replicas) {
        uint32_t c = 0, received = 0, block_for = 0, failures = 0;
        Status::Replicas rep;
        r.u32(&c) && r.u32(&received) && r.u32(&block_for) && r.u32(&failures) &&
            r.flag(&rep.data_present);
        rep.consistency = static_cast<uint16_t>(c);
        rep.received = static_cast<int32_t>(received);
        rep.block_for = static_cast<int32_t>(block_for);
        rep.failures = static_cast<int32_t>(failures);
        replicas = rep;
    }
    TESSEL_RETURN_IF_ERROR(r.finish("status"));
    // An OK code would read as success: a peer never sends one as an error.
    if (code == 0 && message.empty()) return malformed("status");
    Status st(static_cast<ErrorCode>(code), std::move(message));
    st.detail1 = std::move(d1);
    st.detail2 = std::move(d2);
    st.replicas = replicas;
    return st;
}

std::string encode(const TruncateMessage& m) {
    Writer w;
    w.str(m.table_id);
    return w.take();
}

Status decode(std::string_view in, TruncateMessage* out) {
    Reader r(in);
    r.str(&out->table_id);
    return r.finish("truncate");
}

std::string encode(const ReadCommand& m) {
    Writer w;
    w.str(m.table_id);
    w.str(m.partition_key);
    w.slice(m.slice);
    w.i64(m.now_seconds);
    w.u32(m.row_limit);
    w.flag(m.digest_only);
    return w.take();
}

Status decode(std::string_view in, ReadCommand* out) {
    Reader r(in);
    r.str(&out->table_id) && r.str(&out->partition_key) && r.slice(&out->slice) &&
        r.i64(&out->now_seconds) && r.u32(&out->row_limit) && r.flag(&out->digest_only);
    return r.finish("read");
}

std::string encode(const ReadResponse& m) {
    Writer w;
    w.optional_row(m.static_row);
    w.rows(m.rows);
    w.flag(m.exhausted);
    w.str(m.last_clustering);
    w.u64(m.tombstones);
    w.str(m.digest);
    return w.take();
}

Status decode(std::string_view in, ReadResponse* out) {
    Reader r(in);
    r.optional_row(&out->static_row) && r.rows(&out->rows) && r.flag(&out->exhausted) &&
        r.str(&out->last_clustering) && r.u64(&out->tombstones) && r.str(&out->digest);
    return r.finish("read response");
}

std::string encode(const ScanCommand& m) {
    Writer w;
    w.str(m.table_id);
    w.range(m.range);
    w.slice(m.slice);
    w.i64(m.now_seconds);
    w.u32(m.partition_limit);
    w.u32(m.row_limit);
    w.flag(m.digest_only);
    return w.take();
}

Status decode(std::string_view in, ScanCommand* out) {
    Reader r(in);
    r.str(&out->table_id) && r.range(&out->range) && r.slice(&out->slice) &&
        r.i64(&out->now_seconds) && r.u32(&out->partition_limit) && r.u32(&out->row_limit) &&
        r.flag(&out->digest_only);
    return r.finish("scan");
}

std::string encode(const ScanResponse& m) {
    Writer w;
    w.u32(static_cast<uint32_t>(m.partitions.size()));
    for (const auto& p : m.partitions) {
        w.str(p.key);
        w.optional_row(p.static_row);
        w.rows(p.rows);
        w.flag(p.exhausted);
    }
    w.flag(m.exhausted);
    w.str(m.last_key);
    w.u64(m.tombstones);
    w.str(m.digest);
    return w.take();
}

Status decode(std::string_view in, ScanResponse* out) {
    Reader r(in);
    uint32_t n = 0;
    if (r.count(&n, 10)) {
        out->partitions.resize(n);
        for (auto& p : out->partitions) {
            if (!(r.str(&p.key) && r.optional_row(&p.static_row) && r.rows(&p.rows) &&
                  r.flag(&p.exhausted))) {
                break;
            }
        }
    }
    r.flag(&out->exhausted) && r.str(&out->last_key) && r.u64(&out->tombstones) &&
        r.str(&out->digest);
    return r.finish("scan response");
}

std::string encode(const RawReadCommand& m) {
    Writer w;
    w.str(m.table_id);
    w.str(m.partition_key);
    w.bound(m.start);
    w.bound(m.end);
    w.flag(m.include_static);
    return w.take();
}

Status decode(std::string_view in, RawReadCommand* out) {
    Reader r(in);
    r.str(&out->table_id) && r.str(&out->partition_key) && r.bound(&out->start) &&
        r.bound(&out->end) && r.flag(&out->include_static);
    return r.finish("raw read");
}

std::string encode(const storage::PartitionMutation& m) {
    Writer w;
    w.mutation(m);
    return w.take();
}

Status decode(std::string_view in, storage::PartitionMutation* out) {
    Reader r(in);
    r.mutation(out);
    return r.finish("partition");
}

std::string encode(const RawScanCommand& m) {
    Writer w;
    w.str(m.table_id);
    w.range(m.range);
    w.u32(m.max_bytes);
    return w.take();
}

Status decode(std::string_view in, RawScanCommand* out) {
    Reader r(in);
    r.str(&out->table_id) && r.range(&out->range) && r.u32(&out->max_bytes);
    return r.finish("raw scan");
}

std::string encode(const RawScanResponse& m) {
    Writer w;
    w.u32(static_cast<uint32_t>(m.partitions.size()));
    for (const auto& p : m.partitions)
        w.mutation(p);
    w.flag(m.exhausted);
    w.str(m.last_key);
    return w.take();
}

Status decode(std::string_view in, RawScanResponse* out) {
    Reader r(in);
    uint32_t n = 0;
    if (r.count(&n, 13)) {
        out->partitions.resize(n);
        for (auto& p : out->partitions) {
            if (!r.mutation(&p)) break;
        }
    }
    r.flag(&out->exhausted) && r.str(&out->last_key);
    return r.finish("raw scan response");
}

std::string encode(const RangeDigestCommand& m) {
    Writer w;
    w.str(m.table_id);
    w.range(m.range);
    w.u32(static_cast<uint32_t>(m.boundaries.size()));
    for (const auto& b : m.boundaries)
        w.str(b);
    return w.take();
}

Status decode(std::string_view in, RangeDigestCommand* out) {
    Reader r(in);
    uint32_t n = 0;
    if (r.str(&out->table_id) && r.range(&out->range) && r.count(&n, 4)) {
        out->boundaries.resize(n);
        for (auto& b : out->boundaries) {
            if (!r.str(&b)) break;
        }
    }
    return r.finish("range digest");
}

std::string encode(const RangeDigestResponse& m) {
    Writer w;
    w.u32(static_cast<uint32_t>(m.digests.size()));
    for (size_t i = 0; i < m.digests.size(); ++i) {
        w.str(m.digests[i]);
        w.u64(i < m.partitions.size() ? m.partitions[i] : 0);
    }
    return w.take();
}

Status decode(std::string_view in, RangeDigestResponse* out) {
    Reader r(in);
    uint32_t n = 0;
    if (r.count(&n, 12)) {
        out->digests.resize(n);
        out->partitions.resize(n);
        for (uint32_t i = 0; i < n; ++i) {
            if (!(r.str(&out->digests[i]) && r.u64(&out->partitions[i]))) break;
        }
    }
    return r.finish("range digest response");
}

// --- digests ----------------------------------------------------------------

RowDigest::RowDigest() : state_(XXH3_createState()) {
    XXH3_128bits_reset(static_cast<XXH3_state_t*>(state_));
}

RowDigest::~RowDigest() {
    XXH3_freeState(static_cast<XXH3_state_t*>(state_));
}

void RowDigest::add_bytes(std::string_view bytes) {
    std::string len;
    record::put_u32(&len, static_cast<uint32_t>(bytes.size()));
    XXH3_128bits_update(static_cast<XXH3_state_t*>(state_), len.data(), len.size());
    XXH3_128bits_update(static_cast<XXH3_state_t*>(state_), bytes.data(), bytes.size());
}

void RowDigest::add_partition(std::string_view key) {
    add_bytes("P");
    add_bytes(key);
}

void RowDigest::add_row(const storage::Row& row, bool is_static) {
    storage::RowFragment f;
    f.marker = row.marker;
    f.cells = row.cells;
    std::string bytes;
    storage::encode_row(0, f, &bytes);
    add_bytes(is_static ? "S" : "R");
    add_bytes(row.clustering);
    add_bytes(bytes);
}

std::string RowDigest::finish() {
    XXH128_hash_t h = XXH3_128bits_digest(static_cast<XXH3_state_t*>(state_));
    std::string out;
    record::put_u64(&out, h.high64);
    record::put_u64(&out, h.low64);
    return out;
}

}  // namespace tessel::cluster
