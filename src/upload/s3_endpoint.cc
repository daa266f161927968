// SPDX-License-Identifier: Apache-2.0
#include "upload/s3_endpoint.h"

#include "common/strings.h"
#include "upload/sigv4.h"

namespace gsys::upload {

Result<ParsedUrl> ParseHttpUrl(const std::string& url, const std::string& what) {
  ParsedUrl out;
  std::string rest;
  if (StartsWith(ToLower(url), "https://")) {
    out.scheme = "https";
    rest = url.substr(8);
  } else if (StartsWith(ToLower(url), "http://")) {
    out.scheme = "http";
    rest = url.substr(7);
  } else {
    return Error(StatusCode::kInvalidArgument,
                 "upload: " + what + "='" + url + "' is not an http:// or https:// URL");
  }
  size_t slash = rest.find('/');
  out.authority = rest.substr(0, slash);
  out.path = slash == std::string::npos ? "" : rest.substr(slash);
  size_t q = out.path.find_first_of("?#");
  if (q != std::string::npos) out.path.resize(q);
  while (EndsWith(out.path, "/")) out.path.pop_back();
  if (out.authority.empty() || out.authority.find('@') != std::string::npos) {
    return Error(StatusCode::kInvalidArgument,
                 "upload: " + what + "='" + url + "' has no usable host");
  }
  out.host = out.authority;
  std::string default_port = out.scheme == "https" ? ":443" : ":80";
  if (EndsWith(out.host, default_port)) out.host.resize(out.host.size() - default_port.size());
  return out;
}

Result<S3Location> ResolveS3Location(const std::string& bucket, const std::string& region,
                                     const Environment& env) {
  S3Location loc;
  loc.region = region;
  for (const char* var : {"AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"}) {
    std::optional<std::string> endpoint = NonEmpty(env, var);
    if (!endpoint) continue;
    GSYS_ASSIGN_OR_RETURN(ParsedUrl url, ParseHttpUrl(*endpoint, var));
    loc.base_url = url.scheme + "://" + url.authority;
    loc.host = url.host;
    loc.path_prefix = url.path + "/" + UriEncode(bucket, true);
    return loc;
  }
  std::string suffix = ".amazonaws.com";
  if (StartsWith(region, "cn-")) suffix += ".cn";
  // Buckets with dots do not match the wildcard certificate; they go path style.
  if (bucket.find('.') != std::string::npos) {
    loc.host = "s3." + region + suffix;
    loc.path_prefix = "/" + bucket;
  } else {
    loc.host = bucket + ".s3." + region + suffix;
  }
  loc.base_url = "https://" + loc.host;
  return loc;
}

std::string ObjectPath(const S3Location& location, const std::string& key) {
  return location.path_prefix + "/" + UriEncode(key, false);
}

}  // namespace gsys::upload
