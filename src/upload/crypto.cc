// SPDX-License-Identifier: Apache-2.0
#include "upload/crypto.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <mutex>

namespace gsys::upload {
namespace {

// The static libcrypto must not read the host's openssl.cnf: it may name providers or
// modules this build does not have (FIPS images), and digests need none of it.
void InitCrypto() {
  static std::once_flag once;
  std::call_once(once, [] { OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG, nullptr); });
}

std::string Digest(const EVP_MD* md, std::string_view data) {
  InitCrypto();
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(data.data(), data.size(), out, &n, md, nullptr);
  return std::string(reinterpret_cast<const char*>(out), n);
}

}  // namespace

std::string Sha256(std::string_view data) { return Digest(EVP_sha256(), data); }
std::string Sha256Hex(std::string_view data) { return HexEncode(Sha256(data)); }
std::string Md5(std::string_view data) { return Digest(EVP_md5(), data); }

std::string HmacSha256(std::string_view key, std::string_view data) {
  InitCrypto();
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out, &n);
  return std::string(reinterpret_cast<const char*>(out), n);
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
  EVP_MD_CTX* sha = EVP_MD_CTX_new();
  EVP_MD_CTX* md5 = EVP_MD_CTX_new();
};

StreamHasher::StreamHasher() : impl_((InitCrypto(), std::make_unique<Impl>())) {
  EVP_DigestInit_ex(impl_->sha, EVP_sha256(), nullptr);
  EVP_DigestInit_ex(impl_->md5, EVP_md5(), nullptr);
}

StreamHasher::~StreamHasher() {
  EVP_MD_CTX_free(impl_->sha);
  EVP_MD_CTX_free(impl_->md5);
}

void StreamHasher::Update(const void* data, size_t n) {
  EVP_DigestUpdate(impl_->sha, data, n);
  EVP_DigestUpdate(impl_->md5, data, n);
}

void StreamHasher::Finish(std::string* sha256, std::string* md5) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_DigestFinal_ex(impl_->sha, out, &n);
  if (sha256) sha256->assign(reinterpret_cast<const char*>(out), n);
  EVP_DigestFinal_ex(impl_->md5, out, &n);
  if (md5) md5->assign(reinterpret_cast<const char*>(out), n);
}

}  // namespace gsys::upload
