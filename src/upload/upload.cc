// SPDX-License-Identifier: Apache-2.0
#include "upload/upload.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "upload/destination.h"
#include "upload/environment.h"
#include "upload/file_upload.h"
#include "upload/s3_upload.h"
#include "upload/upload_options_env.h"

namespace gsys::upload {

Status UploadFile(const std::string& local_path, const std::string& dest,
                  const UploadOptions& options) {
  GSYS_ASSIGN_OR_RETURN(Destination d, ParseDestination(dest));
  struct stat st {};
  if (::stat(local_path.c_str(), &st) != 0) {
    int err = errno;
    return Error(err == ENOENT ? StatusCode::kNotFound : StatusCode::kIoError,
                 "upload: cannot read '" + local_path + "': " + std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) {
    return Error(StatusCode::kInvalidArgument, "upload: '" + local_path + "' is not a regular file");
  }
  std::string name = BaseName(local_path);
  Environment env = ProcessEnvironment();
  GSYS_ASSIGN_OR_RETURN(UploadOptions opts, ApplyEnvironmentOverrides(options, env));
  if (d.kind == DestinationKind::kFile) return CopyFileAtomically(local_path, d.prefix, name);
  S3UploadRequest req;
  req.local_path = local_path;
  req.size = static_cast<uint64_t>(st.st_size);
  req.bucket = d.bucket;
  req.key = d.prefix + name;
  req.display_dest = "s3://" + d.bucket + "/" + req.key;
  return UploadToS3(req, opts, env);
}

}  // namespace gsys::upload
