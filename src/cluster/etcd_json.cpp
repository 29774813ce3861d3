#include "cluster/etcd_json.h"

#include <array>
#include <charconv>
#include <limits>

namespace tessel::cluster::etcd_json {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<int8_t, 256> decode_table() {
    std::array<int8_t, 256> t{};
    for (auto& v : t)
        v = -1;
    for (int i = 0; i < 64; ++i)
        t[static_cast<unsigned char>(kAlphabet[i])] = static_cast<int8_t>(i);
    return t;
}
constexpr auto kDecode = decode_table();

}  // namespace

std::string base64_encode(std::string_view bytes) {
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    size_t i = 0;
    for (; i + 3 <= bytes.size(); i += 3) {
        uint32_t n = (uint32_t(uint8_t(bytes[i])) << 16) | (uint32_t(uint8_t(bytes[i + 1])) << 8) |
                     uint8_t(bytes[i + 2]);
        out += kAlphabet[(n >> 18) & 63];
        out += kAlphabet[(n >> 12) & 63];
        out += kAlphabet[(n >> 6) & 63];
        out += kAlphabet[n & 63];
    }
    size_t rest = bytes.size() - i;
    if (rest > 0) {
        uint32_t n = uint32_t(uint8_t(bytes[i])) << 16;
        if (rest == 2) n |= uint32_t(uint8_t(bytes[i + 1])) << 8;
        out += kAlphabet[(n >> 18) & 63];
        out += kAlphabet[(n >> 12) & 63];
        out += rest == 2 ? kAlphabet[(n >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
    if (text.size() % 4 != 0) return std::nullopt;
    std::string out;
    out.reserve(text.size() / 4 * 3);
    for (size_t i = 0; i < text.size(); i += 4) {
        bool last = i + 4 == text.size();
        int pad = 0;
        if (last && text[i + 3] == '=') pad = text[i + 2] == '=' ? 2 : 1;
        uint32_t n = 0;
        for (int j = 0; j < 4; ++j) {
            int v = 0;
            if (j < 4 - pad) {
                v = kDecode[static_cast<unsigned char>(text[i + j])];
                if (v < 0) return std::nullopt;
            }
            n = (n << 6) | uint32_t(v);
        }
        out += char((n >> 16) & 0xff);
        if (pad < 2) out += char((n >> 8) & 0xff);
        if (pad < 1) out += char(n & 0xff);
    }
    return out;
}

std::string prefix_range_end(std::string_view prefix) {
    std::string end(prefix);
    while (!end.empty()) {
        auto last = static_cast<unsigned char>(end.back());
        if (last < 0xff) {
            end.back() = static_cast<char>(last + 1);
            return end;
        }
        end.pop_back();
    }
    return std::string(1, '\0');
}

const Json* member(const Json& obj, std::string_view name) {
    if (!obj.is_object()) return nullptr;
    auto it = obj.find(name);
    return it == obj.end() ? nullptr : &*it;
}

bool read_int64(const Json& obj, std::string_view name, int64_t* out) {
    *out = 0;
    const Json* v = member(obj, name);
    if (!v || v->is_null()) return true;
    if (v->is_number_integer()) {
        if (v->is_number_unsigned()) {
            auto u = v->get<uint64_t>();
            if (u > uint64_t(std::numeric_limits<int64_t>::max())) return false;
            *out = int64_t(u);
        } else {
            *out = v->get<int64_t>();
        }
        return true;
    }
    if (!v->is_string()) return false;
    const auto& s = v->get_ref<const std::string&>();
    const char* end = s.data() + s.size();
    auto [p, ec] = std::from_chars(s.data(), end, *out);
    if (ec != std::errc() || p != end || s.empty()) {
        *out = 0;
        return false;
    }
    return true;
}

bool read_bytes(const Json& obj, std::string_view name, std::string* out) {
    out->clear();
    const Json* v = member(obj, name);
    if (!v || v->is_null()) return true;
    if (!v->is_string()) return false;
    auto decoded = base64_decode(v->get_ref<const std::string&>());
    if (!decoded) return false;
    *out = std::move(*decoded);
    return true;
}

bool read_bool(const Json& obj, std::string_view name, bool* out) {
    *out = false;
    const Json* v = member(obj, name);
    if (!v || v->is_null()) return true;
    if (!v->is_boolean()) return false;
    *out = v->get<bool>();
    return true;
}

bool read_header_revision(const Json& obj, int64_t* out) {
    *out = 0;
    const Json* header = member(obj, "header");
    if (!header || header->is_null()) return true;
    if (!header->is_object()) return false;
    return read_int64(*header, "revision", out);
}

std::optional<KeyValue> read_key_value(const Json& obj) {
    if (!obj.is_object()) return std::nullopt;
    KeyValue kv;
    if (!read_bytes(obj, "key", &kv.key) || !read_bytes(obj, "value", &kv.value) ||
        !read_int64(obj, "create_revision", &kv.create_revision) ||
        !read_int64(obj, "mod_revision", &kv.mod_revision) ||
        !read_int64(obj, "version", &kv.version) || !read_int64(obj, "lease", &kv.lease)) {
        return std::nullopt;
    }
    return kv;
}

std::optional<RangePage> read_range_page(const Json& obj, std::string* what) {
    RangePage page;
    if (!obj.is_object()) {
        *what = "a range reply is not an object";
        return std::nullopt;
    }
    if (!read_header_revision(obj, &page.result.revision)) {
        *what = "bad header revision";
        return std::nullopt;
    }
    if (!read_bool(obj, "more", &page.more)) {
        *what = "bad \"more\"";
        return std::nullopt;
    }
    if (const Json* kvs = member(obj, "kvs"); kvs && !kvs->is_null()) {
        if (!kvs->is_array()) {
            *what = "\"kvs\" is not a list";
            return std::nullopt;
        }
        page.result.kvs.reserve(kvs->size());
        for (const Json& item : *kvs) {
            auto kv = read_key_value(item);
            if (!kv) {
                *what = "bad key-value entry";
                return std::nullopt;
            }
            page.result.kvs.push_back(std::move(*kv));
        }
    }
    return page;
}

std::optional<ErrorReply> read_error(const Json& obj) {
    const Json* err = member(obj, "error");
    if (!err || err->is_null()) return std::nullopt;
    ErrorReply reply;
    const Json* from = &obj;
    if (err->is_object()) {  // streaming form
        from = err;
        if (!read_int64(*err, "grpc_code", &reply.code)) reply.code = 0;
    } else {
        if (!read_int64(obj, "code", &reply.code)) reply.code = 0;
        // A gateway error always carries a non-zero code; a reply whose
        // "error" is an empty string is not an error.
        if (err->is_string() && err->get_ref<const std::string&>().empty() && reply.code == 0) {
            return std::nullopt;
        }
    }
    const Json* message = member(*from, "message");
    if (message && message->is_string() && !message->get_ref<const std::string&>().empty()) {
        reply.message = message->get<std::string>();
    } else if (err->is_string()) {
        reply.message = err->get<std::string>();
    } else {
        reply.message = "unspecified error";
    }
    return reply;
}

bool ObjectSplitter::feed(std::string_view bytes) {
    if (failed_) return false;
    for (char c : bytes) {
        if (depth_ == 0) {
            if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
            if (c != '{') {
                failed_ = true;
                return false;
            }
            buf_.clear();
            buf_ += c;
            depth_ = 1;
            continue;
        }
        if (buf_.size() >= max_object_bytes_) {
            failed_ = true;
            return false;
        }
        buf_ += c;
        if (in_string_) {
            if (escape_) {
                escape_ = false;
            } else if (c == '\\') {
                escape_ = true;
            } else if (c == '"') {
                in_string_ = false;
            }
            continue;
        }
        if (c == '"') {
            in_string_ = true;
        } else if (c == '{' || c == '[') {
            ++depth_;
        } else if (c == '}' || c == ']') {
            if (--depth_ == 0) {
                ready_.push_back(std::move(buf_));
                buf_.clear();
            }
        }
    }
    return true;
}

std::optional<std::string> ObjectSplitter::next() {
    if (ready_.empty()) return std::nullopt;
    std::string out = std::move(ready_.front());
    ready_.pop_front();
    return out;
}

void ObjectSplitter::reset() {
    buf_.clear();
    depth_ = 0;
    in_string_ = false;
    escape_ = false;
    failed_ = false;
    ready_.clear();
}

}  // namespace tessel::cluster::etcd_json
