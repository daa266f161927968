// SPDX-License-Identifier: Apache-2.0
#include "upload/s3_client.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <thread>

#include "common/one_line.h"
#include "common/strings.h"
#include "upload/crypto.h"
#include "upload/retry.h"
#include "upload/s3_xml.h"
#include "upload/sigv4.h"

namespace gsys::upload {

struct S3Client::Call {
  std::string what;  // "PUT", "UploadPart 3/7", for messages
  std::string method;
  std::string key;
  std::vector<std::pair<std::string, std::string>> query;
  HeaderList headers;
  std::string body;       // in-memory body, or:
  std::string body_file;  // a file range
  uint64_t offset = 0;
  uint64_t length = 0;
  std::string sha256;  // raw digest of the body
  std::string md5;     // raw digest of the body
};

Status HashFileRange(const std::string& file, uint64_t offset, uint64_t length, std::string* sha256,
                     std::string* md5) {
  int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return Error(StatusCode::kIoError,
                 "upload: cannot read '" + file + "': " + std::strerror(errno));
  StreamHasher hasher;
  std::vector<char> buf(1 << 20);
  uint64_t done = 0;
  while (done < length) {
    size_t want = static_cast<size_t>(std::min<uint64_t>(buf.size(), length - done));
    ssize_t got = ::pread(fd, buf.data(), want, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      int err = got < 0 ? errno : 0;
      ::close(fd);
      return Error(StatusCode::kIoError,
                   "upload: cannot read '" + file +
                       "': " + (err ? std::strerror(err) : "file shorter than expected"));
    }
    hasher.Update(buf.data(), static_cast<size_t>(got));
    done += static_cast<uint64_t>(got);
  }
  ::close(fd);
  hasher.Finish(sha256, md5);
  return OkStatus();
}

namespace {

bool IsHex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

void ReplaceAll(std::string* text, const std::string& what, const std::string& with) {
  for (size_t at = text->find(what); at != std::string::npos;
       at = text->find(what, at + with.size())) {
    text->replace(at, what.size(), with);
  }
}

}  // namespace

std::string Redact(std::string text, const AwsCredentials& credentials) {
  for (const std::string* secret : {&credentials.secret_access_key, &credentials.session_token}) {
    if (secret->size() < 4) continue;
    ReplaceAll(&text, *secret, "[redacted]");
  }
  const std::string& id = credentials.access_key_id;
  if (id.size() > 4) ReplaceAll(&text, id, "..." + id.substr(id.size() - 4));
  std::string out;
  for (size_t i = 0; i < text.size();) {
    size_t j = i;
    while (j < text.size() && IsHex(text[j])) ++j;
    if (j - i >= 64) {  // a signature, also inside a longer run
      out += "[signature]";
    } else {
      out.append(text, i, std::max<size_t>(j - i, 1));
    }
    i = std::max(j, i + 1);
  }
  return out;
}

std::string SafeMessage(const std::string& text, const AwsCredentials& credentials) {
  return OneLine(Redact(OneLine(text, 1 << 16), credentials), 2048);
}

std::string DescribeS3Failure(const std::string& display, const std::string& what,
                              const HttpResponse& r, const std::string& base_url, int attempts,
                              const AwsCredentials& credentials) {
  std::string why;
  if (r.status == 0) {
    why = OneLine(r.transport_error, 300) + " (" + base_url + ")";
  } else {
    why = "HTTP " + std::to_string(r.status);
    S3Error err;
    if (ParseS3Error(r.body, &err)) {
      if (!err.code.empty()) why += " " + OneLine(err.code, 64);
      if (!err.message.empty()) why += ": " + OneLine(err.message, 300);
    }
  }
  std::string tries = std::to_string(attempts) + (attempts == 1 ? " attempt" : " attempts");
  std::string msg = "upload: " + display + ": " + what + " failed: " + why + " (" + tries;
  if (r.status == 403 || r.status == 400 || r.status == 401) msg += "; " + credentials.Describe();
  msg += ")";
  return SafeMessage(msg, credentials);
}

S3Client::S3Client(HttpClient* http, S3Location location, AwsCredentials credentials,
                   UploadOptions options, std::string display)
    : http_(http),
      location_(std::move(location)),
      credentials_(std::move(credentials)),
      options_(std::move(options)),
      display_(std::move(display)),
      aws_endpoint_(EndsWith(location_.host, ".amazonaws.com") ||
                    EndsWith(location_.host, ".amazonaws.com.cn")),
      now_([] { return static_cast<int64_t>(std::time(nullptr)); }),
      sleep_ms_([](int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }) {}

void S3Client::Log(const std::string& line) const {
  if (options_.log) options_.log(SafeMessage(line, credentials_));
}

uint64_t S3Client::PartSizeFor(uint64_t size) const {
  uint64_t part = std::max<uint64_t>(options_.part_size_bytes, 1);
  if (aws_endpoint_) part = std::max<uint64_t>(part, 5ull << 20);
  uint64_t min_for_count = (size + 9999) / 10000;
  return std::max(part, min_for_count);
}

Status S3Client::Upload(const std::string& key, const std::string& file, uint64_t size) {
  if (size >= options_.multipart_threshold_bytes && size > 0) return Multipart(key, file, size);
  return PutObject(key, file, size);
}

HttpRequest S3Client::Sign(const Call& call) {
  SigV4Request sig;
  sig.method = call.method;
  sig.canonical_uri = ObjectPath(location_, call.key);
  sig.query = call.query;
  sig.headers = call.headers;
  sig.headers.emplace_back("host", location_.host);
  if (!call.md5.empty()) sig.headers.emplace_back("content-md5", Base64Encode(call.md5));
  sig.payload_hash = HexEncode(call.sha256);
  SignRequest(&sig, credentials_, {AmzDate(now_()), location_.region, "s3"}, true);
  HttpRequest req;
  req.method = call.method;
  req.url = location_.base_url + sig.canonical_uri;
  std::string query = CanonicalQueryString(call.query);
  if (!query.empty()) req.url += "?" + query;
  req.headers = std::move(sig.headers);
  req.body = call.body;
  req.body_file = call.body_file;
  req.body_offset = call.offset;
  req.body_length = call.length;
  return req;
}

std::string S3Client::Describe(const Call& call, const HttpResponse& r, int attempts) const {
  return DescribeS3Failure(display_, call.what, r, location_.base_url, attempts, credentials_);
}

Result<HttpResponse> S3Client::Execute(const Call& call) {
  Backoff backoff;
  int max_attempts = std::max(1, options_.max_attempts);
  for (int attempt = 1;; ++attempt) {
    GSYS_ASSIGN_OR_RETURN(HttpResponse r, http_->Send(Sign(call)));
    S3Error err;
    bool error_body = ParseS3Error(r.body, &err);
    bool success = r.status >= 200 && r.status < 300 && !error_body;
    if (success) return r;
    if (Relocate(r)) {
      --attempt;  // the first answer from the right region is the first real try
      continue;
    }
    bool retry = IsRetryable(r.status, error_body ? err.code : "");
    if (!retry || attempt >= max_attempts) {
      return Error(StatusCode::kIoError, Describe(call, r, attempt));
    }
    int delay = backoff.DelayMs(attempt);
    std::string why = r.status == 0 ? OneLine(r.transport_error, 300)
                                    : "HTTP " + std::to_string(r.status) +
                                          (error_body ? " " + OneLine(err.code, 64) : "");
    Log("upload: " + display_ + ": " + call.what + " attempt " + std::to_string(attempt) + "/" +
        std::to_string(max_attempts) + " failed (" + why + "); retrying in " +
        std::to_string(delay) + " ms");
    sleep_ms_(delay);
  }
}

bool S3Client::Relocate(const HttpResponse& r) {
  std::string region = r.Header("x-amz-bucket-region");
  // A region name is lowercase letters, digits and '-' ("eu-west-1"); anything else in the
  // header is not followed (it would become part of a host name and of log lines).
  bool valid =
      !region.empty() && region.size() <= 32 &&
      region.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos;
  if (!relocate_ || relocated_ || !aws_endpoint_ || !valid || region == location_.region ||
      (r.status != 301 && r.status != 307 && r.status != 400)) {
    return false;
  }
  Result<S3Location> moved = relocate_(region);
  if (!moved.ok()) return false;
  Log("upload: " + display_ + ": the bucket is in " + region + ", not " + location_.region +
      "; sending there (set AWS_REGION=" + region + " to skip this round trip)");
  location_ = *moved;
  relocated_ = true;
  return true;
}

Status S3Client::PutObject(const std::string& key, const std::string& file, uint64_t size) {
  Call call;
  call.what = "PUT";
  call.method = "PUT";
  call.key = key;
  call.body_file = file;
  call.length = size;
  GSYS_RETURN_IF_ERROR(HashFileRange(file, 0, size, &call.sha256, &call.md5));
  GSYS_ASSIGN_OR_RETURN(HttpResponse r, Execute(call));
  (void)r;
  return OkStatus();
}

Status S3Client::Multipart(const std::string& key, const std::string& file, uint64_t size) {
  Call create;
  create.what = "CreateMultipartUpload";
  create.method = "POST";
  create.key = key;
  create.query = {{"uploads", ""}};
  create.sha256 = Sha256("");
  GSYS_ASSIGN_OR_RETURN(HttpResponse created, Execute(create));
  Result<std::string> upload_id = ParseUploadId(created.body);
  if (!upload_id.ok()) {
    return Error(StatusCode::kIoError,
                 "upload: " + display_ + ": " + upload_id.status().message().substr(8));
  }
  std::vector<std::string> etags;
  Status s = UploadParts(key, file, size, *upload_id, &etags);
  if (s.ok()) {
    Call complete;
    complete.what = "CompleteMultipartUpload";
    complete.method = "POST";
    complete.key = key;
    complete.query = {{"uploadId", *upload_id}};
    complete.body = "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">";
    for (size_t i = 0; i < etags.size(); ++i) {
      complete.body += "<Part><PartNumber>" + std::to_string(i + 1) + "</PartNumber><ETag>" +
                       XmlEscape(etags[i]) + "</ETag></Part>";
    }
    complete.body += "</CompleteMultipartUpload>";
    complete.headers = {{"content-type", "application/xml"}};
    complete.sha256 = Sha256(complete.body);
    complete.md5 = Md5(complete.body);
    Result<HttpResponse> done = Execute(complete);
    if (done.ok()) return OkStatus();
    s = done.status();
  }
  Abort(key, *upload_id);
  return s;
}

Status S3Client::UploadParts(const std::string& key, const std::string& file, uint64_t size,
                             const std::string& upload_id, std::vector<std::string>* etags) {
  uint64_t part_size = PartSizeFor(size);
  uint64_t parts = (size + part_size - 1) / part_size;
  for (uint64_t i = 0; i < parts; ++i) {
    Call part;
    part.what = "UploadPart " + std::to_string(i + 1) + "/" + std::to_string(parts);
    part.method = "PUT";
    part.key = key;
    part.query = {{"partNumber", std::to_string(i + 1)}, {"uploadId", upload_id}};
    part.body_file = file;
    part.offset = i * part_size;
    part.length = std::min(part_size, size - part.offset);
    GSYS_RETURN_IF_ERROR(HashFileRange(file, part.offset, part.length, &part.sha256, &part.md5));
    GSYS_ASSIGN_OR_RETURN(HttpResponse r, Execute(part));
    std::string etag = r.Header("etag");
    if (etag.empty()) {
      return Error(StatusCode::kIoError,
                   "upload: " + display_ + ": " + part.what + ": the store sent no ETag");
    }
    etags->push_back(etag);
  }
  return OkStatus();
}

void S3Client::Abort(const std::string& key, const std::string& upload_id) {
  Call abort;
  abort.what = "AbortMultipartUpload";
  abort.method = "DELETE";
  abort.key = key;
  abort.query = {{"uploadId", upload_id}};
  abort.sha256 = Sha256("");
  Result<HttpResponse> r = Execute(abort);
  Log(r.ok() ? "upload: " + display_ + ": aborted the incomplete multipart upload"
             : r.status().message() +
                   " (the incomplete upload stays until a lifecycle rule removes it)");
}

}  // namespace gsys::upload
