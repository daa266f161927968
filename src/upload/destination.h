// SPDX-License-Identifier: Apache-2.0
// Parsing of upload destinations ("s3://bucket/prefix/", "file:///abs/dir/").
#pragma once

#include <string>

#include "common/status.h"

namespace gsys::upload {

enum class DestinationKind { kS3, kFile };

struct Destination {
  DestinationKind kind = DestinationKind::kFile;
  std::string bucket;  // kS3 only
  // kS3: key prefix, empty or ending in '/'. kFile: absolute directory, ending in '/'.
  std::string prefix;
};

// Parses `dest`. Errors name the destination and what is wrong with it.
Result<Destination> ParseDestination(const std::string& dest);

// The last path component of `path` ("a/b/r.gsys-rep" -> "r.gsys-rep"); empty if `path`
// ends with '/'.
std::string BaseName(const std::string& path);

}  // namespace gsys::upload
