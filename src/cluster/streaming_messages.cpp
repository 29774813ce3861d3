#include "cluster/streaming_messages.h"

#include "common/record_codec.h"

namespace tessel::cluster {
namespace {

// Every message starts with its format version.
constexpr uint8_t kStreamingFormat = 1;

class Writer {
  public:
    Writer() { out_.push_back(static_cast<char>(kStreamingFormat)); }
    void flag(bool v) { out_.push_back(v ? '\1' : '\0'); }
    void u32(uint32_t v) { record::put_u32(&out_, v); }
    void u64(uint64_t v) { record::put_u64(&out_, v); }
    void str(std::string_view s) { record::put_str(&out_, s); }
    void range(const storage::RecordRange& r) {
        str(r.start);
        str(r.end);
    }
    std::string take() { return std::move(out_); }

  private:
    std::string out_;
};

class Reader {
  public:
    explicit Reader(std::string_view in) : r_(in) {
        uint8_t format = 0;
        ok_ = r_.u8(&format) && format == kStreamingFormat;
    }
    bool flag(bool* v) {
        uint8_t b = 0;
        if (!(ok_ = ok_ && r_.u8(&b)) || b > 1) return ok_ = false;
        *v = b == 1;
        return true;
    }
    bool u32(uint32_t* v) { return ok_ = ok_ && r_.u32(v); }
    bool u64(uint64_t* v) { return ok_ = ok_ && r_.u64(v); }
    bool str(std::string* s) { return ok_ = ok_ && r_.str(s); }
    bool range(storage::RecordRange* r) { return str(&r->start) && str(&r->end); }
    // A count of items of at least `min_bytes` each that the input can hold.
    bool count(uint32_t* n, size_t min_bytes) {
        return u32(n) && (ok_ = *n <= r_.remaining() / min_bytes);
    }
    Status finish(const char* what) const {
        if (!ok_ || !r_.done()) {
            return Status::protocol(std::string("Malformed streaming message: ") + what);
        }
        return Status::ok();
    }

  private:
    record::Reader r_;
    bool ok_ = true;
};

}  // namespace

std::string encode(const StreamRangeRequest& m) {
    Writer w;
    w.str(m.table_id);
    w.range(m.range);
    w.str(m.target);
    w.u32(m.timeout_ms);
    return w.take();
}

std::string encode(const StreamSummary& m) {
    Writer w;
    w.u64(m.files);
    w.u64(m.bytes);
    w.u64(m.records);
    return w.take();
}

std::string encode(const StreamManifest& m) {
    Writer w;
    w.str(m.session_id);
    w.str(m.table_id);
    w.u32(static_cast<uint32_t>(m.files.size()));
    for (const auto& f : m.files) {
        w.flag(f.stats);
        w.u64(f.size);
    }
    return w.take();
}

std::string encode(const StreamChunk& m) {
    Writer w;
    w.str(m.session_id);
    w.u32(m.file);
    w.u64(m.offset);
    w.u64(m.checksum);
    w.str(m.data);
    return w.take();
}

std::string encode(const StreamEnd& m) {
    Writer w;
    w.str(m.session_id);
    w.flag(m.commit);
    w.u32(static_cast<uint32_t>(m.checksums.size()));
    for (uint64_t c : m.checksums)
        w.u64(c);
    return w.take();
}

std::string encode(const DropRangeRequest& m) {
    Writer w;
    w.str(m.table_id);
    w.range(m.range);
    return w.take();
}

Status decode(std::string_view in, StreamRangeRequest* out) {
    Reader r(in);
    (void)(r.str(&out->table_id) && r.range(&out->range) && r.str(&out->target) &&
           r.u32(&out->timeout_ms));
    return r.finish("stream range request");
}

Status decode(std::string_view in, StreamSummary* out) {
    Reader r(in);
    (void)(r.u64(&out->files) && r.u64(&out->bytes) && r.u64(&out->records));
    return r.finish("stream summary");
}

Status decode(std::string_view in, StreamManifest* out) {
    Reader r(in);
    uint32_t n = 0;
    if (r.str(&out->session_id) && r.str(&out->table_id) && r.count(&n, 9)) {
        out->files.resize(n);
        for (auto& f : out->files) {
            if (!r.flag(&f.stats) || !r.u64(&f.size)) break;
        }
    }
    return r.finish("stream manifest");
}

Status decode(std::string_view in, StreamChunk* out) {
    Reader r(in);
    (void)(r.str(&out->session_id) && r.u32(&out->file) && r.u64(&out->offset) &&
           r.u64(&out->checksum) && r.str(&out->data));
    return r.finish("stream chunk");
}

Status decode(std::string_view in, StreamEnd* out) {
    Reader r(in);
    uint32_t n = 0;
    if (r.str(&out->session_id) && r.flag(&out->commit) && r.count(&n, 8)) {
        out->checksums.resize(n);
        for (auto& c : out->checksums) {
            if (!r.u64(&c)) break;
        }
    }
    return r.finish("stream end");
}

Status decode(std::string_view in, DropRangeRequest* out) {
    Reader r(in);
    (void)(r.str(&out->table_id) && r.range(&out->range));
    return r.finish("drop range request");
}

}  // namespace tessel::cluster
