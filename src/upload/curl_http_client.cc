// SPDX-License-Identifier: Apache-2.0
// HttpClient over libcurl's easy interface (loaded by curl_loader). One easy handle per
// request: uploads are few and large, so connection reuse is not worth shared state.
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/strings.h"
#include "upload/curl_loader.h"
#include "upload/http_client.h"

namespace gsys::upload {
namespace {

constexpr size_t kMaxBodyKept = 1 << 20;

struct Transfer {
  const HttpRequest* request = nullptr;
  int fd = -1;
  uint64_t sent = 0;  // bytes of the body handed to curl
  HttpResponse response;
  bool read_failed = false;
  bool body_too_large = false;
};

size_t ReadBody(char* buf, size_t size, size_t nitems, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const HttpRequest& r = *t->request;
  size_t want = size * nitems;
  if (r.body_file.empty()) {
    size_t left = r.body.size() - t->sent;
    size_t n = want < left ? want : left;
    std::memcpy(buf, r.body.data() + t->sent, n);
    t->sent += n;
    return n;
  }
  uint64_t left = r.body_length - t->sent;
  size_t n = want < left ? want : static_cast<size_t>(left);
  if (n == 0) return 0;
  ssize_t got;
  do {
    got = ::pread(t->fd, buf, n, static_cast<off_t>(r.body_offset + t->sent));
  } while (got < 0 && errno == EINTR);
  if (got <= 0) {  // the file shrank or failed under us
    t->read_failed = true;
    return CURL_READFUNC_ABORT;
  }
  t->sent += static_cast<uint64_t>(got);
  return static_cast<size_t>(got);
}

// curl rewinds the body on redirects and authentication retries.
int SeekBody(void* user, curl_off_t offset, int origin) {
  auto* t = static_cast<Transfer*>(user);
  if (origin != SEEK_SET || offset < 0) return CURL_SEEKFUNC_CANTSEEK;
  t->sent = static_cast<uint64_t>(offset);
  return CURL_SEEKFUNC_OK;
}

size_t WriteBody(char* data, size_t size, size_t nmemb, void* user) {
  auto* t = static_cast<Transfer*>(user);
  size_t n = size * nmemb;
  std::string& body = t->response.body;
  // An S3 answer is a few KB of XML: a server that keeps sending (an endless body) ends the
  // transfer here; it kept `gsys upload` (and a window's upload in `gsys wrap`) busy for good.
  if (body.size() + n > kMaxBodyKept) {
    t->body_too_large = true;
    return 0;  // curl ends the transfer with CURLE_WRITE_ERROR
  }
  body.append(data, n);
  return n;
}

size_t WriteHeader(char* data, size_t size, size_t nitems, void* user) {
  auto* t = static_cast<Transfer*>(user);
  size_t n = size * nitems;
  std::string_view line(data, n);
  size_t colon = line.find(':');
  if (colon != std::string_view::npos) {
    t->response.headers.emplace_back(ToLower(Trim(line.substr(0, colon))),
                                     std::string(Trim(line.substr(colon + 1))));
  } else if (StartsWith(line, "HTTP/")) {
    t->response.headers.clear();  // a new response (after 100 Continue or a redirect)
  }
  return n;
}

// Blocks SIGPIPE in the calling thread for its lifetime, and swallows one raised meanwhile.
// libcurl only ignores SIGPIPE itself when it may use signals, which CURLOPT_NOSIGNAL (needed
// in threaded programs such as `gsys wrap`) turns off; a peer closing a TLS connection must
// not kill the process that hosts a model server.
class ScopedSigpipeBlock {
 public:
  ScopedSigpipeBlock() {
    sigset_t pipe;
    sigemptyset(&pipe);
    sigaddset(&pipe, SIGPIPE);
    sigset_t pending;
    sigpending(&pending);
    was_pending_ = sigismember(&pending, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &pipe, &old_);
  }
  ~ScopedSigpipeBlock() {
    if (!was_pending_ && sigismember(&old_, SIGPIPE) != 1) {
      sigset_t pipe;
      sigemptyset(&pipe);
      sigaddset(&pipe, SIGPIPE);
      sigset_t pending;
      sigpending(&pending);
      if (sigismember(&pending, SIGPIPE) == 1) {
        struct timespec zero {};
        while (sigtimedwait(&pipe, nullptr, &zero) == -1 && errno == EINTR) {
        }
      }
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  ScopedSigpipeBlock(const ScopedSigpipeBlock&) = delete;
  ScopedSigpipeBlock& operator=(const ScopedSigpipeBlock&) = delete;

 private:
  sigset_t old_;
  bool was_pending_ = false;
};

class CurlHttpClient : public HttpClient {
 public:
  explicit CurlHttpClient(const CurlApi* api) : api_(api) {}

  Result<HttpResponse> Send(const HttpRequest& request) override {
    Transfer t;
    t.request = &request;
    if (!request.body_file.empty()) {
      t.fd = ::open(request.body_file.c_str(), O_RDONLY | O_CLOEXEC);
      if (t.fd < 0) {
        return Error(StatusCode::kIoError,
                     "upload: cannot read '" + request.body_file + "': " + std::strerror(errno));
      }
    }
    CURL* h = api_->easy_init();
    if (h == nullptr) {
      if (t.fd >= 0) ::close(t.fd);
      return Error(StatusCode::kInternal, "upload: curl_easy_init failed");
    }
    curl_slist* headers = nullptr;
    for (const auto& [k, v] : request.headers)
      headers = api_->slist_append(headers, (k + ": " + v).c_str());
    // No "Expect: 100-continue" round trip; a rejected request fails after its body instead.
    headers = api_->slist_append(headers, "Expect:");
    Configure(h, request, &t, headers);
    CURLcode rc;
    {
      ScopedSigpipeBlock no_sigpipe;
      rc = api_->easy_perform(h);
    }
    if (rc == CURLE_OK) {
      long code = 0;
      api_->easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
      t.response.status = static_cast<int>(code);
    } else {
      t.response.status = 0;
      t.response.transport_error = t.read_failed      ? "the file changed while it was being sent"
                                   : t.body_too_large ? "the server's answer is over 1 MiB"
                                                      : api_->easy_strerror(rc);
    }
    api_->easy_cleanup(h);
    api_->slist_free_all(headers);
    if (t.fd >= 0) ::close(t.fd);
    return std::move(t.response);
  }

 private:
  void Configure(CURL* h, const HttpRequest& r, Transfer* t, curl_slist* headers) {
    auto set = api_->easy_setopt;
    set(h, CURLOPT_URL, r.url.c_str());
    set(h, CURLOPT_NOSIGNAL, 1L);
    set(h, CURLOPT_HTTPHEADER, headers);
    set(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(r.connect_timeout_ms));
    if (r.timeout_ms > 0) set(h, CURLOPT_TIMEOUT_MS, static_cast<long>(r.timeout_ms));
    // A transfer that moves under 1 KiB/s for 60 s is stalled.
    set(h, CURLOPT_LOW_SPEED_LIMIT, 1024L);
    set(h, CURLOPT_LOW_SPEED_TIME, 60L);
    if (!r.use_proxy) set(h, CURLOPT_NOPROXY, "*");
    set(h, CURLOPT_WRITEFUNCTION, &WriteBody);
    set(h, CURLOPT_WRITEDATA, t);
    set(h, CURLOPT_HEADERFUNCTION, &WriteHeader);
    set(h, CURLOPT_HEADERDATA, t);
    uint64_t body_size = r.body_file.empty() ? r.body.size() : r.body_length;
    if (r.method == "PUT" || r.method == "POST") {
      set(h, CURLOPT_UPLOAD, 1L);
      set(h, CURLOPT_READFUNCTION, &ReadBody);
      set(h, CURLOPT_READDATA, t);
      set(h, CURLOPT_SEEKFUNCTION, &SeekBody);
      set(h, CURLOPT_SEEKDATA, t);
      set(h, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(body_size));
      if (r.method == "POST") set(h, CURLOPT_CUSTOMREQUEST, "POST");
    } else if (r.method != "GET") {
      set(h, CURLOPT_CUSTOMREQUEST, r.method.c_str());
    }
  }

  const CurlApi* api_;
};

}  // namespace

std::string HttpResponse::Header(const std::string& name) const {
  for (const auto& [k, v] : headers) {
    if (k == name) return v;
  }
  return "";
}

Result<std::unique_ptr<HttpClient>> MakeCurlHttpClient() {
  GSYS_ASSIGN_OR_RETURN(const CurlApi* api, LoadCurl());
  return std::unique_ptr<HttpClient>(std::make_unique<CurlHttpClient>(api));
}

}  // namespace gsys::upload
