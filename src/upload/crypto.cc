// SPDX-License-Identifier: Apache-2.0
#include "upload/crypto.h"

// The low-level digest functions (deprecated in OpenSSL 3 in favour of EVP, still shipped)
// pull ~40 KB of libcrypto.a into gsys; EVP pulls the provider machinery, ~3.8 MB. HMAC is
// RFC 2104 over them, checked against RFC 4231 and AWS's signing-key example.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/md5.h>
#include <openssl/sha.h>

namespace gsys::upload {
namespace {

constexpr size_t kSha256Block = 64;

}  // namespace

std::string Sha256(std::string_view data) {
  unsigned char out[SHA256_DIGEST_LENGTH];
  SHA256_CTX ctx;
  SHA256_Init(&ctx);
  SHA256_Update(&ctx, data.data(), data.size());
  SHA256_Final(out, &ctx);
  return std::string(reinterpret_cast<const char*>(out), sizeof out);
}

std::string Sha256Hex(std::string_view data) { return HexEncode(Sha256(data)); }

std::string Md5(std::string_view data) {
  unsigned char out[MD5_DIGEST_LENGTH];
  MD5_CTX ctx;
  MD5_Init(&ctx);
  MD5_Update(&ctx, data.data(), data.size());
  MD5_Final(out, &ctx);
  return std::string(reinterpret_cast<const char*>(out), sizeof out);
}

std::string HmacSha256(std::string_view key, std::string_view data) {
  std::string k = key.size() > kSha256Block ? Sha256(key) : std::string(key);
  k.resize(kSha256Block, '\0');
  std::string inner(kSha256Block, '\0'), outer(kSha256Block, '\0');
  for (size_t i = 0; i < kSha256Block; ++i) {
    inner[i] = static_cast<char>(k[i] ^ 0x36);
    outer[i] = static_cast<char>(k[i] ^ 0x5c);
  }
  inner.append(data);
  outer.append(Sha256(inner));
  return Sha256(outer);
}

std::string HexEncode(std::string_view bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

std::string Base64Encode(std::string_view bytes) {
  static const char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  auto at = [&](size_t k) { return static_cast<uint32_t>(static_cast<unsigned char>(bytes[k])); };
  for (; i + 3 <= bytes.size(); i += 3) {
    uint32_t v = (at(i) << 16) | (at(i + 1) << 8) | at(i + 2);
    for (int s = 18; s >= 0; s -= 6) out += kAlphabet[(v >> s) & 63];
  }
  size_t rest = bytes.size() - i;
  if (rest > 0) {
    uint32_t v = at(i) << 16;
    if (rest == 2) v |= at(i + 1) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

struct StreamHasher::Impl {
  SHA256_CTX sha;
  MD5_CTX md5;
};

StreamHasher::StreamHasher() : impl_(std::make_unique<Impl>()) {
  SHA256_Init(&impl_->sha);
  MD5_Init(&impl_->md5);
}

StreamHasher::~StreamHasher() = default;

void StreamHasher::Update(const void* data, size_t n) {
  SHA256_Update(&impl_->sha, data, n);
  MD5_Update(&impl_->md5, data, n);
}

void StreamHasher::Finish(std::string* sha256, std::string* md5) {
  unsigned char s[SHA256_DIGEST_LENGTH];
  unsigned char m[MD5_DIGEST_LENGTH];
  SHA256_Final(s, &impl_->sha);
  MD5_Final(m, &impl_->md5);
  if (sha256) sha256->assign(reinterpret_cast<const char*>(s), sizeof s);
  if (md5) md5->assign(reinterpret_cast<const char*>(m), sizeof m);
}

}  // namespace gsys::upload
