// SPDX-License-Identifier: Apache-2.0
#include "upload/destination.h"

#include "common/strings.h"

namespace gsys::upload {
namespace {

Status BadDest(const std::string& dest, const std::string& why) {
  return Error(StatusCode::kInvalidArgument, "upload: bad destination '" + dest + "': " + why +
                                                 " (expected s3://bucket/prefix/ or file:///dir/)");
}

// S3 bucket names: 3-63 characters of lowercase letters, digits, '.', '-' (and '_' for
// old buckets); the rest is left for the store to reject.
bool PlausibleBucket(const std::string& b) {
  if (b.size() < 3 || b.size() > 63) return false;
  for (char c : b) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-' ||
              c == '_' || (c >= 'A' && c <= 'Z');
    if (!ok) return false;
  }
  return true;
}

}  // namespace

std::string BaseName(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

Result<Destination> ParseDestination(const std::string& dest) {
  Destination out;
  if (StartsWith(dest, "s3://")) {
    std::string rest = dest.substr(5);
    size_t slash = rest.find('/');
    out.kind = DestinationKind::kS3;
    out.bucket = rest.substr(0, slash);
    out.prefix = slash == std::string::npos ? "" : rest.substr(slash + 1);
    if (out.bucket.empty()) return BadDest(dest, "no bucket name");
    if (!PlausibleBucket(out.bucket))
      return BadDest(dest, "'" + out.bucket + "' is not a bucket name");
    while (StartsWith(out.prefix, "/")) out.prefix.erase(0, 1);
    if (!out.prefix.empty() && !EndsWith(out.prefix, "/")) out.prefix += '/';
    return out;
  }
  if (StartsWith(dest, "file://")) {
    std::string path = dest.substr(7);
    if (!StartsWith(path, "/"))
      return BadDest(dest, "the directory must be absolute (file:///abs/dir/)");
    out.kind = DestinationKind::kFile;
    out.prefix = EndsWith(path, "/") ? path : path + "/";
    return out;
  }
  if (dest.find("://") != std::string::npos) return BadDest(dest, "unsupported scheme");
  return BadDest(dest, "not a URL");
}

}  // namespace gsys::upload
