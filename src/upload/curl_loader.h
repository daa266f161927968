// SPDX-License-Identifier: Apache-2.0
// libcurl is loaded with dlopen at the first s3:// upload, not linked: gsys must start and
// profile on machines without libcurl (Ubuntu 24.04 minimal images), and only upload needs
// it. Only the few functions gsys calls are resolved.
#pragma once

#include <curl/curl.h>

#include "common/status.h"

namespace gsys::upload {

struct CurlApi {
  CURL* (*easy_init)();
  CURLcode (*easy_setopt)(CURL*, CURLoption, ...);
  CURLcode (*easy_perform)(CURL*);
  CURLcode (*easy_getinfo)(CURL*, CURLINFO, ...);
  void (*easy_cleanup)(CURL*);
  const char* (*easy_strerror)(CURLcode);
  curl_slist* (*slist_append)(curl_slist*, const char*);
  void (*slist_free_all)(curl_slist*);
};

// The loaded API (loaded once, process-wide, thread-safe), or kUnsupported: "upload: s3://
// needs libcurl (libcurl.so.4 not found: ...); install libcurl4 ...". The test-only variable
// GSYS_UPLOAD_LIBCURL names the file to load instead of libcurl.so.4 (a missing path
// simulates a machine without libcurl).
Result<const CurlApi*> LoadCurl();

}  // namespace gsys::upload
