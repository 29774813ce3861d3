#include "query/paging_state.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

namespace tessel::query {
namespace {

constexpr uint8_t kVersion = 2;  // 2: result columns digest
constexpr size_t kMacSize = 32;

void put_u32(std::string* out, uint32_t v) {
    for (int s = 24; s >= 0; s -= 8)
        out->push_back(static_cast<char>((v >> s) & 0xFF));
}
void put_i64(std::string* out, int64_t v) {
    const auto u = static_cast<uint64_t>(v);
    for (int s = 56; s >= 0; s -= 8)
        out->push_back(static_cast<char>((u >> s) & 0xFF));
}
void put_bytes(std::string* out, std::string_view b) {
    put_u32(out, static_cast<uint32_t>(b.size()));
    out->append(b);
}

struct Reader {
    std::string_view in;
    bool ok = true;
    uint64_t take(int n) {
        if (in.size() < static_cast<size_t>(n)) {
            ok = false;
            return 0;
        }
        uint64_t v = 0;
        for (int i = 0; i < n; ++i)
            v = (v << 8) | static_cast<unsigned char>(in[i]);
        in.remove_prefix(n);
        return v;
    }
    std::string bytes() {
        const uint64_t n = take(4);
        if (!ok || in.size() < n) {
            ok = false;
            return {};
        }
        std::string s(in.substr(0, n));
        in.remove_prefix(n);
        return s;
    }
};

Status bad_state() {
    return Status::invalid("Invalid paging state");
}

}  // namespace

std::string hmac_sha256(std::string_view key, std::string_view data) {
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
         reinterpret_cast<const unsigned char*>(data.data()), data.size(), mac, &len);
    return std::string(reinterpret_cast<const char*>(mac), len);
}

std::string random_bytes(size_t n) {
    std::string out(n, '\0');
    RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(n));
    return out;
}

std::string encode_paging_state(const PagingState& s, std::string_view secret) {
    std::string out;
    out.push_back(static_cast<char>(kVersion));
    put_bytes(&out, s.table_id);
    put_bytes(&out, s.fingerprint);
    put_bytes(&out, s.columns);
    put_bytes(&out, s.partition_key);
    put_bytes(&out, s.clustering);
    out.push_back(s.partition_done ? 1 : 0);
    put_i64(&out, s.remaining);
    put_i64(&out, s.remaining_in_partition);
    out += hmac_sha256(secret, out);
    return out;
}

Result<PagingState> decode_paging_state(std::string_view bytes, std::string_view secret) {
    if (bytes.size() < 1 + kMacSize) return bad_state();
    const std::string_view body = bytes.substr(0, bytes.size() - kMacSize);
    const std::string expected = hmac_sha256(secret, body);
    if (CRYPTO_memcmp(expected.data(), bytes.data() + body.size(), kMacSize) != 0) {
        return bad_state();
    }
    Reader r{body};
    if (r.take(1) != kVersion) return bad_state();
    PagingState s;
    s.table_id = r.bytes();
    s.fingerprint = r.bytes();
    s.columns = r.bytes();
    s.partition_key = r.bytes();
    s.clustering = r.bytes();
    s.partition_done = r.take(1) != 0;
    s.remaining = static_cast<int64_t>(r.take(8));
    s.remaining_in_partition = static_cast<int64_t>(r.take(8));
    if (!r.ok || !r.in.empty()) return bad_state();
    return s;
}

void Fingerprint::add(std::string_view part) {
    put_bytes(&buf_, part);
}

void Fingerprint::add_int(int64_t v) {
    put_i64(&buf_, v);
}

std::string Fingerprint::finish() const {
    unsigned char md[SHA256_DIGEST_LENGTH];
    SHA256(reinterpret_cast<const unsigned char*>(buf_.data()), buf_.size(), md);
    return std::string(reinterpret_cast<const char*>(md), SHA256_DIGEST_LENGTH);
}

}  // namespace tessel::query
