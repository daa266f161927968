// SPDX-License-Identifier: Apache-2.0
#include "upload/upload.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "common/one_line.h"
#include "common/output_path.h"
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
  // Last line of defense for log injection: whatever a message carries (a server's text, a
  // file name), it reaches the log as one printable line.
  if (opts.log) {
    opts.log = [log = opts.log](const std::string& line) { log(OneLine(line, 4096)); };
  }
  if (d.kind == DestinationKind::kFile) {
    // The copy must land in the destination directory, whatever the file is called.
    OutputPathRules rules{"upload: bad destination name '" + OneLine(name, 200) + "'", d.prefix};
    GSYS_RETURN_IF_ERROR(ResolveOutputPath(name, rules).status());
    return CopyFileAtomically(local_path, d.prefix, name);
  }
  S3UploadRequest req;
  req.local_path = local_path;
  req.size = static_cast<uint64_t>(st.st_size);
  req.bucket = d.bucket;
  req.key = d.prefix + name;
  req.display_dest = "s3://" + d.bucket + "/" + req.key;
  Status s = UploadToS3(req, opts, env);
  if (s.ok()) return s;
  return Error(s.code(), OneLine(s.message(), 4096));
}

}  // namespace gsys::upload
