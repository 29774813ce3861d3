#include "auth/password_hash.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <charconv>
#include <vector>

namespace tessel::auth {
namespace {

constexpr std::string_view kScheme = "$pbkdf2-sha256$";
constexpr size_t kSaltBytes = 16;
constexpr size_t kHashBytes = 32;
constexpr int kMaxIterations = 10'000'000;

std::string base64(std::string_view raw) {
    std::string out(4 * ((raw.size() + 2) / 3) + 1, '\0');
    int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                            reinterpret_cast<const unsigned char*>(raw.data()),
                            static_cast<int>(raw.size()));
    out.resize(static_cast<size_t>(n));
    return out;
}

// Decodes padded base64 of a known decoded length.
bool unbase64(std::string_view text, size_t expected, std::string* out) {
    if (text.empty() || text.size() % 4 != 0) return false;
    std::string buf(text.size() / 4 * 3, '\0');
    int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(buf.data()),
                            reinterpret_cast<const unsigned char*>(text.data()),
                            static_cast<int>(text.size()));
    if (n < 0) return false;
    size_t len = static_cast<size_t>(n);
    for (size_t i = text.size(); i > 0 && text[i - 1] == '='; --i)
        --len;  // EVP_DecodeBlock counts padding as zero bytes
    if (len != expected) return false;
    buf.resize(len);
    *out = std::move(buf);
    return true;
}

bool derive(std::string_view password, std::string_view salt, int iterations, std::string* out) {
    out->assign(kHashBytes, '\0');
    return PKCS5_PBKDF2_HMAC(password.data(), static_cast<int>(password.size()),
                             reinterpret_cast<const unsigned char*>(salt.data()),
                             static_cast<int>(salt.size()), iterations, EVP_sha256(),
                             static_cast<int>(kHashBytes),
                             reinterpret_cast<unsigned char*>(out->data())) == 1;
}

}  // namespace

Result<std::string> hash_password(std::string_view password, int iterations) {
    std::string salt(kSaltBytes, '\0');
    if (RAND_bytes(reinterpret_cast<unsigned char*>(salt.data()), kSaltBytes) != 1) {
        return Status::server("Cannot generate a password salt");
    }
    std::string hash;
    if (!derive(password, salt, iterations, &hash)) {
        return Status::server("Cannot hash the password");
    }
    return std::string(kScheme) + std::to_string(iterations) + "$" + base64(salt) + "$" +
           base64(hash);
}

bool verify_password(std::string_view password, std::string_view stored) {
    if (stored.substr(0, kScheme.size()) != kScheme) return false;
    std::string_view rest = stored.substr(kScheme.size());
    size_t d1 = rest.find('$');
    if (d1 == std::string_view::npos) return false;
    size_t d2 = rest.find('$', d1 + 1);
    if (d2 == std::string_view::npos) return false;
    int iterations = 0;
    auto [p, ec] = std::from_chars(rest.data(), rest.data() + d1, iterations);
    if (ec != std::errc() || p != rest.data() + d1 || iterations < 1 ||
        iterations > kMaxIterations) {
        return false;
    }
    std::string salt, expected, actual;
    if (!unbase64(rest.substr(d1 + 1, d2 - d1 - 1), kSaltBytes, &salt)) return false;
    if (!unbase64(rest.substr(d2 + 1), kHashBytes, &expected)) return false;
    if (!derive(password, salt, iterations, &actual)) return false;
    return CRYPTO_memcmp(actual.data(), expected.data(), kHashBytes) == 0;
}

}  // namespace tessel::auth
