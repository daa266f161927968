// SPDX-License-Identifier: Apache-2.0
// A scripted HttpClient for tests: records every request and answers from a handler.
#pragma once

#include <functional>
#include <vector>

#include "upload/http_client.h"

namespace gsys::upload {

class FakeHttpClient : public HttpClient {
 public:
  using Handler = std::function<HttpResponse(const HttpRequest&)>;
  explicit FakeHttpClient(Handler handler) : handler_(std::move(handler)) {}
  Result<HttpResponse> Send(const HttpRequest& request) override {
    requests.push_back(request);
    return handler_(request);
  }
  std::vector<HttpRequest> requests;

 private:
  Handler handler_;
};

inline HttpResponse Respond(int status, std::string body = "", HeaderList headers = {}) {
  HttpResponse r;
  r.status = status;
  r.body = std::move(body);
  r.headers = std::move(headers);
  return r;
}

inline std::string HeaderOf(const HttpRequest& r, const std::string& name) {
  for (const auto& [k, v] : r.headers) {
    if (k == name) return v;
  }
  return "";
}

}  // namespace gsys::upload
