// SPDX-License-Identifier: Apache-2.0
// Report upload: copies one local file to an S3 bucket (SigV4 over libcurl, loaded with
// dlopen at first use) or to a local directory (file://). Used by `gsys upload` and by
// `gsys wrap` (serving mode, issue 7). Thread-compatible: concurrent calls share nothing
// except the libcurl loader, which is initialized once under a lock.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "common/status.h"

namespace gsys::upload {

struct UploadOptions {
  uint64_t multipart_threshold_bytes = 64ull << 20;  // at or above: multipart
  uint64_t part_size_bytes = 16ull << 20;  // >= 5 MiB for real S3; tests may force smaller
  int max_attempts = 5;                    // retries with exponential backoff + jitter
  // S3 region and endpoint; empty: from the environment (AWS_REGION..., AWS_ENDPOINT_URL...).
  std::string region;
  std::string endpoint_url;
  // Called with one line per notable event (a retry and why, an aborted multipart upload).
  // Never receives secrets. Unset: silent.
  std::function<void(const std::string&)> log;
  // False for a file the caller wrote itself (a window report): a symbolic link found at its
  // path is refused, never followed. Either way the file is opened once and read through that
  // descriptor (upload/pinned_file.h).
  bool follow_links = true;
};

// Uploads `local_path` to `dest`: "s3://bucket/prefix/" or "file:///abs/dir/"; the object
// key (or file name) is prefix + basename(local_path); a dest without a trailing '/' is
// treated as if it had one. The environment variables GSYS_UPLOAD_MULTIPART_THRESHOLD,
// GSYS_UPLOAD_PART_SIZE and GSYS_UPLOAD_MAX_ATTEMPTS override `options` (docs/upload.md).
// Never throws; an error is one line that starts with "upload:", gives the reason and never
// contains secrets. Codes: kInvalidArgument (bad dest), kNotFound (no local file),
// kUnsupported (libcurl missing), kIoError (the copy or the transfer failed).
Status UploadFile(const std::string& local_path, const std::string& dest,
                  const UploadOptions& options = {});

}  // namespace gsys::upload
