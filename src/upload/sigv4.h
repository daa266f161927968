// SPDX-License-Identifier: Apache-2.0
// AWS Signature Version 4 (header form): canonical request, string to sign, signing key,
// Authorization header. Pure functions of their inputs (the clock is an argument), tested
// against AWS's published examples (sigv4_test.cc).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "upload/credentials.h"

namespace gsys::upload {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

// The hex SHA-256 of an empty payload.
inline constexpr char kEmptyPayloadSha256[] =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

struct SigV4Request {
  std::string method;         // "PUT"
  std::string canonical_uri;  // the path as sent, already URI-encoded ("/b/k%24.txt")
  // Decoded query parameters; the signer encodes and sorts them (also use
  // CanonicalQueryString for the URL, so the two always agree).
  std::vector<std::pair<std::string, std::string>> query;
  // Headers to sign and send, including "host". Names in any case; duplicates are joined.
  HeaderList headers;
  // Hex SHA-256 of the payload, or "UNSIGNED-PAYLOAD" / "STREAMING-..." literals.
  std::string payload_hash;
};

struct SigV4Scope {
  std::string amz_date;  // "20150830T123600Z" (UTC)
  std::string region;    // "us-east-1"
  std::string service;   // "s3"
};

// RFC 3986 encoding as SigV4 wants it: unreserved characters (A-Z a-z 0-9 - . _ ~) kept,
// every other byte as %XY (uppercase); '/' kept unless `encode_slash`.
std::string UriEncode(const std::string& text, bool encode_slash);

// "a=1&b=" from `query`: names and values encoded, sorted by name then value.
std::string CanonicalQueryString(const std::vector<std::pair<std::string, std::string>>& query);

// The canonical request of `request` (method, URI, query, headers, signed headers, hash).
std::string CanonicalRequest(const SigV4Request& request);

// "host;x-amz-date": lowercase header names, sorted, unique.
std::string SignedHeaderNames(const HeaderList& headers);

// "AWS4-HMAC-SHA256\n<date>\n<scope>\n<hex sha256 of canonical request>".
std::string StringToSign(const std::string& canonical_request, const SigV4Scope& scope);

// The raw 32-byte signing key: HMAC chain over date (first 8 characters of amz_date),
// region, service and "aws4_request", keyed by "AWS4" + secret.
std::string SigningKey(const std::string& secret, const std::string& date,
                       const std::string& region, const std::string& service);

// The value of the Authorization header for `request` as it stands.
std::string AuthorizationHeader(const SigV4Request& request, const AwsCredentials& credentials,
                                const SigV4Scope& scope);

// Adds x-amz-date, x-amz-content-sha256 (when `add_content_sha256`, as S3 requires) and
// x-amz-security-token (when the credentials have a session token) to `request`, then
// appends the Authorization header. Call once, after every other header is in place.
void SignRequest(SigV4Request* request, const AwsCredentials& credentials, const SigV4Scope& scope,
                 bool add_content_sha256);

// "20150830T123600Z" for a Unix time.
std::string AmzDate(int64_t unix_seconds);

}  // namespace gsys::upload
