// SPDX-License-Identifier: Apache-2.0
// Where S3 requests for a bucket go: AWS (virtual-hosted style,
// https://BUCKET.s3.REGION.amazonaws.com) or a custom endpoint from AWS_ENDPOINT_URL_S3 /
// AWS_ENDPOINT_URL (path style, ENDPOINT/BUCKET, as MinIO, Ceph and s3rver expect).
#pragma once

#include <string>

#include "common/status.h"
#include "upload/environment.h"

namespace gsys::upload {

struct S3Location {
  std::string base_url;     // "https://examplebucket.s3.us-east-1.amazonaws.com"
  std::string host;         // the Host header: host, plus ":port" when not the scheme's default
  std::string path_prefix;  // "" (virtual-hosted) or "/bucket" (path style), no trailing '/'
  std::string region;
};

// Resolves the location of `bucket` in `region` under `env`'s endpoint variables. Errors
// name the variable whose value is not an http(s) URL.
Result<S3Location> ResolveS3Location(const std::string& bucket, const std::string& region,
                                     const Environment& env);

// The URL path of `key` ("/bucket/a%20b.txt" or "/a%20b.txt").
std::string ObjectPath(const S3Location& location, const std::string& key);

struct ParsedUrl {
  std::string scheme;     // "http" or "https"
  std::string host;       // Host header form (port only when not the default)
  std::string authority;  // host[:port] as written
  std::string path;       // "" or "/..." without a trailing '/'
};

// Parses "http(s)://host[:port][/path]"; kInvalidArgument naming `what` otherwise.
Result<ParsedUrl> ParseHttpUrl(const std::string& url, const std::string& what);

}  // namespace gsys::upload
