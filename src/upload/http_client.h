// SPDX-License-Identifier: Apache-2.0
// A minimal HTTP client interface (one request at a time, body from memory or from a file
// range) so S3 and credential code can be tested against fakes; curl_http_client.cc is the
// real one.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "common/status.h"
#include "upload/sigv4.h"

namespace gsys::upload {

struct HttpRequest {
  std::string method = "GET";  // GET, PUT, POST, DELETE
  std::string url;             // "https://host[:port]/path?query"
  HeaderList headers;          // sent as given (plus Content-Length)
  std::string body;            // used when body_file is empty
  std::string body_file;       // else: bytes [body_offset, body_offset + body_length) of this file
  uint64_t body_offset = 0;
  uint64_t body_length = 0;
  int connect_timeout_ms = 10000;
  int timeout_ms = 0;     // whole request; 0: none (a stall is caught by the speed limit)
  bool use_proxy = true;  // false for instance/container metadata endpoints
};

struct HttpResponse {
  int status = 0;               // HTTP status; 0 when no response arrived
  std::string transport_error;  // why no response arrived (connection refused, timeout, ...)
  HeaderList headers;           // names lowercase
  std::string body;             // at most 1 MiB kept

  // The value of header `name` (lowercase), or "".
  std::string Header(const std::string& name) const;
};

class HttpClient {
 public:
  virtual ~HttpClient() = default;
  // Sends `request`. A transport failure is a response with status 0 and transport_error set,
  // not an error Status (callers retry those); Status errors are for unusable requests
  // (unreadable body file).
  virtual Result<HttpResponse> Send(const HttpRequest& request) = 0;
};

// The libcurl client. Fails with kUnsupported and a one-line reason when libcurl cannot be
// loaded (curl_loader.h).
Result<std::unique_ptr<HttpClient>> MakeCurlHttpClient();

}  // namespace gsys::upload
