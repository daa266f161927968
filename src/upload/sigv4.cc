// SPDX-License-Identifier: Apache-2.0
#include "upload/sigv4.h"

#include <algorithm>
#include <ctime>
#include <map>

#include "common/strings.h"
#include "upload/crypto.h"

namespace gsys::upload {
namespace {

constexpr char kAlgorithm[] = "AWS4-HMAC-SHA256";

// Header value as SigV4 canonicalizes it: outer whitespace trimmed, inner runs of spaces
// collapsed to one.
std::string CanonicalHeaderValue(const std::string& value) {
  std::string out;
  bool space = false;
  for (char c : Trim(value)) {
    if (c == ' ' || c == '\t') {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

// Lowercase name -> values joined with ',' in the order given.
std::map<std::string, std::string> CanonicalHeaders(const HeaderList& headers) {
  std::map<std::string, std::string> out;
  for (const auto& [name, value] : headers) {
    std::string key = ToLower(Trim(name));
    std::string v = CanonicalHeaderValue(value);
    auto it = out.find(key);
    if (it == out.end()) {
      out.emplace(key, v);
    } else {
      it->second += "," + v;
    }
  }
  return out;
}

std::string Scope(const SigV4Scope& scope) {
  return scope.amz_date.substr(0, 8) + "/" + scope.region + "/" + scope.service + "/aws4_request";
}

}  // namespace

std::string UriEncode(const std::string& text, bool encode_slash) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                c == '-' || c == '.' || c == '_' || c == '~' || (c == '/' && !encode_slash);
    if (keep) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string CanonicalQueryString(const std::vector<std::pair<std::string, std::string>>& query) {
  std::vector<std::pair<std::string, std::string>> enc;
  enc.reserve(query.size());
  for (const auto& [k, v] : query) enc.emplace_back(UriEncode(k, true), UriEncode(v, true));
  std::sort(enc.begin(), enc.end());
  std::string out;
  for (const auto& [k, v] : enc) {
    if (!out.empty()) out += '&';
    out += k + "=" + v;
  }
  return out;
}

std::string SignedHeaderNames(const HeaderList& headers) {
  std::string out;
  for (const auto& [name, value] : CanonicalHeaders(headers)) {
    if (!out.empty()) out += ';';
    out += name;
  }
  return out;
}

std::string CanonicalRequest(const SigV4Request& request) {
  std::string out = request.method + "\n" + request.canonical_uri + "\n" +
                    CanonicalQueryString(request.query) + "\n";
  for (const auto& [name, value] : CanonicalHeaders(request.headers))
    out += name + ":" + value + "\n";
  out += "\n" + SignedHeaderNames(request.headers) + "\n" + request.payload_hash;
  return out;
}

std::string StringToSign(const std::string& canonical_request, const SigV4Scope& scope) {
  return std::string(kAlgorithm) + "\n" + scope.amz_date + "\n" + Scope(scope) + "\n" +
         Sha256Hex(canonical_request);
}

std::string SigningKey(const std::string& secret, const std::string& date,
                       const std::string& region, const std::string& service) {
  std::string k = HmacSha256("AWS4" + secret, date);
  k = HmacSha256(k, region);
  k = HmacSha256(k, service);
  return HmacSha256(k, "aws4_request");
}

std::string AuthorizationHeader(const SigV4Request& request, const AwsCredentials& credentials,
                                const SigV4Scope& scope) {
  std::string key = SigningKey(credentials.secret_access_key, scope.amz_date.substr(0, 8),
                               scope.region, scope.service);
  std::string signature =
      HexEncode(HmacSha256(key, StringToSign(CanonicalRequest(request), scope)));
  return std::string(kAlgorithm) + " Credential=" + credentials.access_key_id + "/" + Scope(scope) +
         ", SignedHeaders=" + SignedHeaderNames(request.headers) + ", Signature=" + signature;
}

void SignRequest(SigV4Request* request, const AwsCredentials& credentials, const SigV4Scope& scope,
                 bool add_content_sha256) {
  request->headers.emplace_back("x-amz-date", scope.amz_date);
  if (add_content_sha256)
    request->headers.emplace_back("x-amz-content-sha256", request->payload_hash);
  if (!credentials.session_token.empty()) {
    request->headers.emplace_back("x-amz-security-token", credentials.session_token);
  }
  std::string auth = AuthorizationHeader(*request, credentials, scope);
  request->headers.emplace_back("Authorization", std::move(auth));
}

std::string AmzDate(int64_t unix_seconds) {
  time_t t = static_cast<time_t>(unix_seconds);
  struct tm tm {};
  gmtime_r(&t, &tm);
  char buf[32];
  strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

}  // namespace gsys::upload
