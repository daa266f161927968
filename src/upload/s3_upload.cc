// SPDX-License-Identifier: Apache-2.0
#include "upload/s3_upload.h"

namespace gsys::upload {

Status UploadToS3(const S3UploadRequest& request, const UploadOptions&, const Environment&) {
  return Error(StatusCode::kUnsupported,
               "upload: " + request.display_dest + ": s3 upload is not built yet in this gsys");
}

}  // namespace gsys::upload
