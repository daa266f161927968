// SPDX-License-Identifier: Apache-2.0
#include "upload/upload.h"

#include "common/one_line.h"
#include "common/output_path.h"
#include "upload/destination.h"
#include "upload/environment.h"
#include "upload/file_upload.h"
#include "upload/pinned_file.h"
#include "upload/s3_upload.h"
#include "upload/upload_options_env.h"

namespace gsys::upload {

Status UploadFile(const std::string& local_path, const std::string& dest,
                  const UploadOptions& options) {
  GSYS_ASSIGN_OR_RETURN(Destination d, ParseDestination(dest));
  GSYS_ASSIGN_OR_RETURN(PinnedFile file, PinFile(local_path, options.follow_links));
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
    return CopyFileAtomically(file.read_path(), d.prefix, name, local_path);
  }
  S3UploadRequest req;
  req.local_path = file.read_path();
  req.size = file.size();
  req.bucket = d.bucket;
  req.key = d.prefix + name;
  req.display_dest = "s3://" + d.bucket + "/" + req.key;
  Status s = UploadToS3(req, opts, env);
  if (s.ok()) return s;
  return Error(s.code(), OneLine(s.message(), 4096));
}

}  // namespace gsys::upload
