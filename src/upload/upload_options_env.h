// SPDX-License-Identifier: Apache-2.0
// GSYS_UPLOAD_* overrides of UploadOptions (sizes and attempt counts; docs/upload.md).
#pragma once

#include "common/status.h"
#include "upload/environment.h"
#include "upload/upload.h"

namespace gsys::upload {

// `base` with GSYS_UPLOAD_MULTIPART_THRESHOLD, GSYS_UPLOAD_PART_SIZE (bytes, or with a
// K/M/G suffix meaning KiB/MiB/GiB) and GSYS_UPLOAD_MAX_ATTEMPTS applied. A malformed value
// is an error naming the variable. Part sizes are clamped to at least 1 byte here; S3's
// 5 MiB minimum is the store's to enforce (s3rver and MinIO accept less).
Result<UploadOptions> ApplyEnvironmentOverrides(UploadOptions base, const Environment& env);

// Parses "123", "5M", "64MiB", "1g" into bytes; nullopt on junk or overflow.
std::optional<uint64_t> ParseByteSize(const std::string& text);

}  // namespace gsys::upload
