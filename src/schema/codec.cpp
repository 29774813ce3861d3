#include "schema/codec.h"

#include <fmt/format.h>

#include <bit>
#include <cstring>

namespace tessel {
namespace {

constexpr uint8_t kFormatVersion = 1;
constexpr int kMaxTypeDepth = 64;
constexpr uint64_t kMaxCount = 1 << 20;

class Writer {
  public:
    void u8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
    void varint(uint64_t v) {
        while (v >= 0x80) {
            u8(static_cast<uint8_t>(v | 0x80));
            v >>= 7;
        }
        u8(static_cast<uint8_t>(v));
    }
    void svarint(int64_t v) {
        varint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
    }
    void str(std::string_view s) {
        varint(s.size());
        out_.append(s);
    }
    void f64(double d) {
        uint64_t bits = std::bit_cast<uint64_t>(d);
        for (int i = 7; i >= 0; --i)
            u8(static_cast<uint8_t>(bits >> (8 * i)));
    }
    void raw(std::string_view s) { out_.append(s); }
    void map(const StringMap& m) {
        varint(m.size());
        for (const auto& [k, v] : m) {
            str(k);
            str(v);
        }
    }
    void type(const CqlType& t) {
        varint(static_cast<uint16_t>(t.kind));
        u8(t.frozen ? 1 : 0);
        varint(t.params.size());
        for (const auto& p : t.params)
            type(*p);
        if (t.kind == TypeKind::kUdt) {
            str(t.udt_keyspace);
            str(t.udt_name);
            varint(t.field_names.size());
            for (const auto& f : t.field_names)
                str(f);
        }
    }
    std::string take() { return std::move(out_); }

  private:
    std::string out_;
};

// The native kinds the catalog can hold (every protocol id from ascii to
// duration except the unused 0x000A).
bool is_native_kind(uint64_t kind) {
    return kind >= static_cast<uint64_t>(TypeKind::kAscii) &&
           kind <= static_cast<uint64_t>(TypeKind::kDuration) && kind != 0x000A;
}

class Reader {
  public:
    Reader(std::string_view in, std::string_view what) : in_(in), what_(what) {}

    bool ok() const { return ok_; }
    bool at_end() const { return in_.empty(); }
    Status error(std::string_view why = "truncated or malformed data") const {
        return Status::server(fmt::format("corrupt {} entry: {}", what_, why));
    }
    bool fail() { return ok_ = false; }

    uint8_t u8() {
        if (in_.empty()) return fail(), 0;
        uint8_t v = static_cast<uint8_t>(in_[0]);
        in_.remove_prefix(1);
        return v;
    }
    uint64_t varint() {
        uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (in_.empty()) return fail(), 0;
            uint8_t b = u8();
            v |= static_cast<uint64_t>(b & 0x7F) << shift;
            if (!(b & 0x80)) return v;
        }
        return fail(), 0;
    }
    int64_t svarint() {
        uint64_t z = varint();
        return static_cast<int64_t>((z >> 1) ^ (~(z & 1) + 1));
    }
    uint64_t count() {
        uint64_t n = varint();
        if (n > kMaxCount || n > in_.size()) return fail(), 0;
        return n;
    }
    std::string str() {
        uint64_t n = varint();
        if (!ok_ || n > in_.size()) return fail(), std::string();
        std::string s(in_.substr(0, n));
        in_.remove_prefix(n);
        return s;
    }
    double f64() {
        uint64_t bits = 0;
        for (int i = 0; i < 8; ++i)
            bits = (bits << 8) | u8();
        return std::bit_cast<double>(bits);
    }
    std::string raw(size_t n) {
        if (n > in_.size()) return fail(), std::string();
        std::string s(in_.substr(0, n));
        in_.remove_prefix(n);
        return s;
    }
    StringMap map() {
        StringMap m;
        uint64_t n = count();
        for (uint64_t i = 0; ok_ && i < n; ++i) {
            std::string k = str();
            m[k] = str();
        }
        return m;
    }
    void header(char tag) {
        if (u8() != static_cast<uint8_t>(tag)) fail();
        uint8_t version = u8();
        if (ok_ && version != kFormatVersion) {
            ok_ = false;
            bad_version_ = version;
        }
    }
    Status header_error() const {
        if (bad_version_ != 0) {
            return error(fmt::format("unsupported format version {}", bad_version_));
        }
        return error("wrong entry tag");
    }

    TypePtr type(int depth = 0) {
        if (depth > kMaxTypeDepth) return fail(), nullptr;
        uint64_t kind = varint();
        bool frozen = u8() != 0;
        uint64_t nparams = count();
        std::vector<TypePtr> params;
        for (uint64_t i = 0; ok_ && i < nparams; ++i)
            params.push_back(type(depth + 1));
        if (!ok_) return nullptr;
        auto k = static_cast<TypeKind>(kind);
        switch (k) {
            case TypeKind::kList:
                if (nparams != 1) return fail(), nullptr;
                return list_type(params[0], frozen);
            case TypeKind::kSet:
                if (nparams != 1) return fail(), nullptr;
                return set_type(params[0], frozen);
            case TypeKind::kMap:
                if (nparams != 2) return fail(), nullptr;
                return map_type(params[0], params[1], frozen);
            case TypeKind::kTuple:
                if (nparams == 0) return fail(), nullptr;
                return tuple_type(std::move(params));
            case TypeKind::kUdt: {
                std::string ks = str();
                std::string name = str();
                uint64_t nfields = count();
                std::vector<std::string> fields;
                for (uint64_t i = 0; ok_ && i < nfields; ++i)
                    fields.push_back(str());
                if (!ok_ || nfields != nparams) return fail(), nullptr;
                return udt_type(ks, name, std::move(fields), std::move(params), frozen);
            }
            default:
                if (nparams != 0 || !is_native_kind(kind)) return fail(), nullptr;
                return native_type(k);
        }
    }

  private:
    std::string_view in_;
    std::string_view what_;
    bool ok_ = true;
    uint8_t bad_version_ = 0;
};

void write_options(Writer& w, const TableOptions& o) {
    w.f64(o.bloom_filter_fp_chance);
    w.map(o.caching);
    w.str(o.comment);
    w.map(o.compaction);
    w.map(o.compression);
    w.f64(o.crc_check_chance);
    w.f64(o.dclocal_read_repair_chance);
    w.svarint(o.default_time_to_live);
    w.map(o.extensions);
    w.svarint(o.gc_grace_seconds);
    w.svarint(o.max_index_interval);
    w.svarint(o.memtable_flush_period_in_ms);
    w.svarint(o.min_index_interval);
    w.f64(o.read_repair_chance);
    w.str(o.speculative_retry);
    w.u8(static_cast<uint8_t>(o.distribution));
    w.u8(o.write_sharding ? 1 : 0);
    if (o.write_sharding) {
        w.svarint(o.write_sharding->shards);
        w.u8(static_cast<uint8_t>(o.write_sharding->suffix));
        w.varint(o.write_sharding->columns.size());
        for (const auto& c : o.write_sharding->columns)
            w.str(c);
    }
    w.u8(o.time_bucket ? 1 : 0);
    if (o.time_bucket) {
        w.str(o.time_bucket->column);
        w.svarint(o.time_bucket->width_ms);
    }
}

int32_t to_i32(Reader& r, int64_t v) {
    if (v < INT32_MIN || v > INT32_MAX) r.fail();
    return static_cast<int32_t>(v);
}

TableOptions read_options(Reader& r) {
    TableOptions o;
    o.bloom_filter_fp_chance = r.f64();
    o.caching = r.map();
    o.comment = r.str();
    o.compaction = r.map();
    o.compression = r.map();
    o.crc_check_chance = r.f64();
    o.dclocal_read_repair_chance = r.f64();
    o.default_time_to_live = to_i32(r, r.svarint());
    o.extensions = r.map();
    o.gc_grace_seconds = to_i32(r, r.svarint());
    o.max_index_interval = to_i32(r, r.svarint());
    o.memtable_flush_period_in_ms = to_i32(r, r.svarint());
    o.min_index_interval = to_i32(r, r.svarint());
    o.read_repair_chance = r.f64();
    o.speculative_retry = r.str();
    uint8_t dist = r.u8();
    if (dist > 1) r.fail();
    o.distribution = static_cast<Distribution>(dist);
    if (r.u8()) {
        WriteSharding ws;
        ws.shards = to_i32(r, r.svarint());
        uint8_t suffix = r.u8();
        if (suffix > 1) r.fail();
        ws.suffix = static_cast<ShardSuffix>(suffix);
        uint64_t n = r.count();
        for (uint64_t i = 0; r.ok() && i < n; ++i)
            ws.columns.push_back(r.str());
        o.write_sharding = std::move(ws);
    }
    if (r.u8()) o.time_bucket = TimeBucket{r.str(), r.svarint()};
    return o;
}

}  // namespace

std::string encode_type(const CqlType& type) {
    Writer w;
    w.type(type);
    return w.take();
}

Result<TypePtr> decode_type(std::string_view bytes) {
    Reader r(bytes, "type");
    TypePtr t = r.type();
    if (!r.ok() || !r.at_end()) return r.error();
    return t;
}

std::string encode_keyspace(const KeyspaceDef& ks) {
    Writer w;
    w.u8('K');
    w.u8(kFormatVersion);
    w.str(ks.name);
    w.u8(ks.durable_writes ? 1 : 0);
    w.map(ks.replication);
    return w.take();
}

Result<KeyspaceDef> decode_keyspace(std::string_view bytes) {
    Reader r(bytes, "keyspace");
    r.header('K');
    if (!r.ok()) return r.header_error();
    KeyspaceDef ks;
    ks.name = r.str();
    ks.durable_writes = r.u8() != 0;
    ks.replication = r.map();
    if (!r.ok() || !r.at_end()) return r.error();
    if (ks.name.empty() || !ks.replication.count("class")) return r.error("missing fields");
    return ks;
}

std::string encode_table(const TableDef& t) {
    Writer w;
    w.u8('T');
    w.u8(kFormatVersion);
    w.str(t.keyspace);
    w.str(t.name);
    w.raw(std::string_view(reinterpret_cast<const char*>(t.id.bytes.data()), 16));
    w.varint(t.next_column_id);
    w.u8(t.counter ? 1 : 0);
    w.varint(t.columns.size());
    for (const ColumnDef& c : t.columns) {
        w.varint(c.id);
        w.str(c.name);
        w.u8(static_cast<uint8_t>(c.kind));
        w.svarint(c.position);
        w.u8(static_cast<uint8_t>(c.order));
        w.type(*c.type);
    }
    write_options(w, t.options);
    w.varint(t.dropped_columns.size());
    for (const auto& [name, d] : t.dropped_columns) {
        w.str(name);
        w.svarint(d.dropped_time_micros);
        w.u8(static_cast<uint8_t>(d.kind));
        w.type(*d.type);
    }
    return w.take();
}

Result<TableDef> decode_table(std::string_view bytes) {
    Reader r(bytes, "table");
    r.header('T');
    if (!r.ok()) return r.header_error();
    TableDef t;
    t.keyspace = r.str();
    t.name = r.str();
    std::string id = r.raw(16);
    if (r.ok()) std::memcpy(t.id.bytes.data(), id.data(), 16);
    uint64_t next_id = r.varint();
    if (next_id > UINT32_MAX) r.fail();
    t.next_column_id = static_cast<uint32_t>(next_id);
    t.counter = r.u8() != 0;
    uint64_t ncols = r.count();
    for (uint64_t i = 0; r.ok() && i < ncols; ++i) {
        ColumnDef c;
        uint64_t cid = r.varint();
        c.id = static_cast<uint32_t>(cid);
        c.name = r.str();
        uint8_t kind = r.u8();
        c.position = to_i32(r, r.svarint());
        uint8_t order = r.u8();
        c.type = r.type();
        if (cid >= t.next_column_id || kind > 3 || order > 1) r.fail();
        c.kind = static_cast<ColumnKind>(kind);
        c.order = static_cast<ClusteringOrder>(order);
        t.columns.push_back(std::move(c));
    }
    if (r.ok()) t.options = read_options(r);
    uint64_t ndropped = r.count();
    for (uint64_t i = 0; r.ok() && i < ndropped; ++i) {
        std::string name = r.str();
        DroppedColumn d;
        d.dropped_time_micros = r.svarint();
        uint8_t kind = r.u8();
        d.type = r.type();
        if (kind > 3) r.fail();
        d.kind = static_cast<ColumnKind>(kind);
        t.dropped_columns[name] = std::move(d);
    }
    if (!r.ok() || !r.at_end()) return r.error();
    t.finalize();
    // The invariants every reader relies on: a partition key, positions 0..n-1,
    // unique names and ids.
    if (t.partition_key().empty()) return r.error("table has no partition key");
    for (size_t i = 0; i < t.partition_key().size(); ++i) {
        if (t.partition_key()[i].position != static_cast<int>(i))
            return r.error("bad key positions");
    }
    for (size_t i = 0; i < t.clustering_key().size(); ++i) {
        if (t.clustering_key()[i].position != static_cast<int>(i))
            return r.error("bad key positions");
    }
    for (const ColumnDef& c : t.columns) {
        if (t.column(c.name) != &c || t.column_by_id(c.id) != &c) {
            return r.error("duplicate column name or id");
        }
    }
    return t;
}

std::string encode_user_type(const UserTypeDef& u) {
    Writer w;
    w.u8('U');
    w.u8(kFormatVersion);
    w.str(u.keyspace);
    w.str(u.name);
    w.varint(u.field_names.size());
    for (size_t i = 0; i < u.field_names.size(); ++i) {
        w.str(u.field_names[i]);
        w.type(*u.field_types[i]);
    }
    return w.take();
}

Result<UserTypeDef> decode_user_type(std::string_view bytes) {
    Reader r(bytes, "user type");
    r.header('U');
    if (!r.ok()) return r.header_error();
    UserTypeDef u;
    u.keyspace = r.str();
    u.name = r.str();
    uint64_t n = r.count();
    for (uint64_t i = 0; r.ok() && i < n; ++i) {
        u.field_names.push_back(r.str());
        u.field_types.push_back(r.type());
    }
    if (!r.ok() || !r.at_end()) return r.error();
    return u;
}

}  // namespace tessel
