// SPDX-License-Identifier: Apache-2.0
// `gsys upload [options] FILE... DEST`: copies reports (or any files) to S3, an
// S3-compatible store, or a local directory (issue 7). nsys has no such verb.
#include <cstdio>

#include "cli/exit_codes.h"
#include "cli/flags.h"
#include "cli/subcommand.h"
#include "common/strings.h"
#include "upload/s3_endpoint.h"
#include "upload/upload.h"
#include "upload/upload_options_env.h"

namespace gsys::cli {
namespace {

const std::vector<FlagSpec>& UploadFlags() {
  static const std::vector<FlagSpec> kFlags = {
      {"multipart-threshold", 0, FlagValue::kRequired, "SIZE",
       "Files of at least SIZE go up as S3 multipart uploads (bytes, or K/M/G\n"
       "suffix). Default: 64M, or GSYS_UPLOAD_MULTIPART_THRESHOLD."},
      {"part-size", 0, FlagValue::kRequired, "SIZE",
       "Size of each multipart part. Default: 16M, or GSYS_UPLOAD_PART_SIZE.\n"
       "AWS S3 needs at least 5M."},
      {"max-attempts", 0, FlagValue::kRequired, "N",
       "Tries per request before giving up (retries back off exponentially with\n"
       "jitter). Default: 5, or GSYS_UPLOAD_MAX_ATTEMPTS."},
      {"region", 0, FlagValue::kRequired, "REGION",
       "S3 region. Default: AWS_REGION, AWS_DEFAULT_REGION, the profile's region,\n"
       "else us-east-1 (a bucket found elsewhere is followed once)."},
      {"endpoint-url", 0, FlagValue::kRequired, "URL",
       "S3-compatible endpoint (http(s)://host[:port]), path-style addressing.\n"
       "Default: AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, else AWS."},
      {"quiet", 'q', FlagValue::kNone, "", "Print errors only."},
      {"help", 'h', FlagValue::kNone, "", "Show this help."},
  };
  return kFlags;
}

class UploadCommand : public Subcommand {
 public:
  std::string Name() const override { return "upload"; }
  std::string Summary() const override { return "Upload reports to S3 or a directory"; }
  std::string Help() const override {
    return "usage: gsys upload [options] FILE... DEST\n\n"
           "Uploads each FILE to DEST, keeping its base name:\n"
           "  s3://BUCKET/PREFIX/  object PREFIX/NAME in an S3 bucket or an S3-compatible\n"
           "                       store (AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL)\n"
           "  file:///DIR/         an atomic copy into DIR (created when missing)\n"
           "Files below the multipart threshold go up with one PUT, larger ones as a\n"
           "multipart upload; every request carries a SHA-256 checksum and is signed with\n"
           "AWS Signature Version 4. Region comes from AWS_REGION or AWS_DEFAULT_REGION,\n"
           "credentials from the standard AWS chain: environment, shared credentials and\n"
           "config files (AWS_PROFILE), the container credentials endpoint, EC2 instance\n"
           "metadata (IMDSv2). Secrets are never printed. S3 needs libcurl (libcurl.so.4)\n"
           "at run time; everything else in gsys works without it. See docs/upload.md.\n\n"
           "options:\n" +
           FlagsHelp(UploadFlags()) +
           "\nexit codes:\n"
           "  0  every file uploaded\n"
           "  2  bad flag or destination\n"
           "  3  a FILE does not exist\n"
           "  5  libcurl is not installed (s3:// only)\n"
           "  6  an upload failed (network, credentials, permissions, disk)\n"
           "With several files, each is tried; the exit code is that of the first failure.\n";
  }

  Result<int> Run(const std::vector<std::string>& args) override {
    GSYS_ASSIGN_OR_RETURN(ParsedFlags flags, ParseFlags("upload", UploadFlags(), args, false));
    if (flags.Has("help")) {
      std::fputs(Help().c_str(), stdout);
      return 0;
    }
    const auto& pos = flags.positionals();
    if (pos.size() < 2) {
      return Error(StatusCode::kInvalidArgument,
                   "upload: expected FILE... DEST (see gsys upload --help)");
    }
    GSYS_ASSIGN_OR_RETURN(upload::UploadOptions options, OptionsFromFlags(flags));
    bool quiet = flags.Has("quiet");
    if (!quiet)
      options.log = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
    const std::string& dest = pos.back();
    int exit_code = kExitOk;
    for (size_t i = 0; i + 1 < pos.size(); ++i) {
      Status s = upload::UploadFile(pos[i], dest, options);
      if (!s.ok()) {
        std::fprintf(stderr, "%s\n", s.message().c_str());
        if (exit_code == kExitOk) exit_code = ExitCodeFor(s);
        // A bad destination fails every file the same way.
        if (s.code() == StatusCode::kInvalidArgument || s.code() == StatusCode::kUnsupported) break;
        continue;
      }
      if (!quiet) std::fprintf(stderr, "gsys: uploaded %s to %s\n", pos[i].c_str(), dest.c_str());
    }
    return exit_code;
  }

 private:
  static Result<upload::UploadOptions> OptionsFromFlags(const ParsedFlags& flags) {
    upload::UploadOptions o;
    if (auto v = flags.Last("multipart-threshold")) {
      auto n = upload::ParseByteSize(*v);
      if (!n)
        return Error(StatusCode::kInvalidArgument,
                     "upload: --multipart-threshold '" + *v + "' is not a size");
      o.multipart_threshold_bytes = *n;
    }
    if (auto v = flags.Last("part-size")) {
      auto n = upload::ParseByteSize(*v);
      if (!n || *n == 0)
        return Error(StatusCode::kInvalidArgument,
                     "upload: --part-size '" + *v + "' is not a positive size");
      o.part_size_bytes = *n;
    }
    if (auto v = flags.Last("max-attempts")) {
      auto n = ParseInt64(*v);
      if (!n || *n < 1 || *n > 100)
        return Error(StatusCode::kInvalidArgument,
                     "upload: --max-attempts '" + *v + "' is not 1..100");
      o.max_attempts = static_cast<int>(*n);
    }
    o.region = flags.Last("region").value_or("");
    o.endpoint_url = flags.Last("endpoint-url").value_or("");
    if (!o.endpoint_url.empty()) {
      GSYS_RETURN_IF_ERROR(upload::ParseHttpUrl(o.endpoint_url, "--endpoint-url").status());
    }
    return o;
  }
};

}  // namespace

std::unique_ptr<Subcommand> MakeUploadCommand() { return std::make_unique<UploadCommand>(); }

}  // namespace gsys::cli
