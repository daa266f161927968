// SPDX-License-Identifier: Apache-2.0
// Hashes for S3 requests: SHA-256 (payload hashes, SigV4), HMAC-SHA256 (SigV4 signing
// keys), MD5 (Content-MD5), from OpenSSL's libcrypto linked statically, plus hex/base64.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace gsys::upload {

// Raw 32-byte SHA-256 of `data`.
std::string Sha256(std::string_view data);
// Lowercase hex SHA-256 of `data` (the form SigV4 uses).
std::string Sha256Hex(std::string_view data);
// Raw 32-byte HMAC-SHA256 of `data` under `key`.
std::string HmacSha256(std::string_view key, std::string_view data);
// Raw 16-byte MD5 of `data`.
std::string Md5(std::string_view data);

std::string HexEncode(std::string_view bytes);
std::string Base64Encode(std::string_view bytes);

// Incremental SHA-256 and MD5 over one stream of bytes (a file part read in blocks).
class StreamHasher {
 public:
  StreamHasher();
  ~StreamHasher();
  StreamHasher(const StreamHasher&) = delete;
  StreamHasher& operator=(const StreamHasher&) = delete;
  void Update(const void* data, size_t n);
  // Finishes both digests (raw bytes); the hasher cannot be updated afterwards.
  void Finish(std::string* sha256, std::string* md5);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gsys::upload
