// SPDX-License-Identifier: Apache-2.0
// s3:// destinations: resolves region, endpoint and credentials, then sends the file with one
// PUT or a multipart upload (s3_client.h).
#pragma once

#include <cstdint>
#include <string>

#include "common/status.h"
#include "upload/environment.h"
#include "upload/upload.h"

namespace gsys::upload {

struct S3UploadRequest {
  std::string local_path;
  uint64_t size = 0;
  std::string bucket;
  std::string key;
  std::string display_dest;  // "s3://bucket/key", for messages
};

Status UploadToS3(const S3UploadRequest& request, const UploadOptions& options,
                  const Environment& env);

}  // namespace gsys::upload
