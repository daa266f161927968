// SPDX-License-Identifier: Apache-2.0
// The S3 operations an upload needs: PutObject, and CreateMultipartUpload / UploadPart /
// CompleteMultipartUpload with AbortMultipartUpload on failure. Every request is signed
// with SigV4 over the real payload hash (x-amz-content-sha256) and carries Content-MD5,
// and is retried with backoff when the answer is retryable (retry.h). Single-threaded.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/status.h"
#include "upload/credentials.h"
#include "upload/http_client.h"
#include "upload/s3_endpoint.h"
#include "upload/upload.h"

namespace gsys::upload {

class S3Client {
 public:
  // `http` outlives the client. `display` ("s3://bucket/key") prefixes every message.
  S3Client(HttpClient* http, S3Location location, AwsCredentials credentials, UploadOptions options,
           std::string display);

  // Test seams: the clock (Unix seconds) and the sleep between tries.
  void SetClock(std::function<int64_t()> now) { now_ = std::move(now); }
  void SetSleep(std::function<void(int)> sleep_ms) { sleep_ms_ = std::move(sleep_ms); }
  // When AWS answers that the bucket lives in another region (301/400 with
  // x-amz-bucket-region), the client asks `relocate` for that region's location and retries
  // there once, instead of failing on a missing AWS_REGION.
  void SetRelocate(std::function<Result<S3Location>(const std::string& region)> relocate) {
    relocate_ = std::move(relocate);
  }

  // Uploads `size` bytes of `file` to `key`: one PUT below options.multipart_threshold_bytes,
  // a multipart upload at or above it.
  Status Upload(const std::string& key, const std::string& file, uint64_t size);

  // Part size used for `size` bytes: the option, raised so there are at most 10,000 parts,
  // and to S3's 5 MiB minimum when the endpoint is AWS itself.
  uint64_t PartSizeFor(uint64_t size) const;

 private:
  struct Call;  // one S3 request: method, path, query, headers, body, payload hashes
  Status PutObject(const std::string& key, const std::string& file, uint64_t size);
  Status Multipart(const std::string& key, const std::string& file, uint64_t size);
  Status UploadParts(const std::string& key, const std::string& file, uint64_t size,
                     const std::string& upload_id, std::vector<std::string>* etags);
  void Abort(const std::string& key, const std::string& upload_id);
  // Sends `call` with retries; a non-2xx final answer (or an <Error> body) is an error.
  Result<HttpResponse> Execute(const Call& call);
  // Follows a wrong-region answer once (SetRelocate); true when the call should be resent.
  bool Relocate(const HttpResponse& response);
  HttpRequest Sign(const Call& call);
  std::string Describe(const Call& call, const HttpResponse& response, int attempts) const;
  void Log(const std::string& line) const;

  HttpClient* http_;
  S3Location location_;
  AwsCredentials credentials_;
  UploadOptions options_;
  std::string display_;
  bool aws_endpoint_;
  std::function<int64_t()> now_;
  std::function<void(int)> sleep_ms_;
  std::function<Result<S3Location>(const std::string&)> relocate_;
  bool relocated_ = false;
};

// Hashes bytes [offset, offset + length) of `file`: raw SHA-256 and MD5.
Status HashFileRange(const std::string& file, uint64_t offset, uint64_t length, std::string* sha256,
                     std::string* md5);

// Replaces every occurrence of the secret key and the session token in `text` by
// "[redacted]", the full access key id by its documented form "...ABCD" (last four), and any
// run of 64 or more hex digits (a SigV4 signature a server echoes back) by "[signature]". Defense
// in depth: no message should hold them in the first place.
std::string Redact(std::string text, const AwsCredentials& credentials);

// `text` as gsys prints it: Redact, then one printable line (common/one_line.h), at most
// 2 KiB. Every upload message passes here; text from a server may hold anything.
std::string SafeMessage(const std::string& text, const AwsCredentials& credentials);

// What a failed S3 call reports: "upload: DISPLAY: WHAT failed: HTTP 403 Code: Message (N
// attempts; access key ...ABCD from SOURCE)". The parts from the server (error code and
// message of an <Error> body, the transport error) are cut to a bounded length.
std::string DescribeS3Failure(const std::string& display, const std::string& what,
                              const HttpResponse& response, const std::string& base_url,
                              int attempts, const AwsCredentials& credentials);

}  // namespace gsys::upload
