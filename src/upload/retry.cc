// SPDX-License-Identifier: Apache-2.0
#include "upload/retry.h"

#include <algorithm>

namespace gsys::upload {

bool IsRetryable(int http_status, const std::string& s3_code) {
  if (http_status == 0 || http_status == 408 || http_status == 429 || http_status >= 500)
    return true;
  return s3_code == "SlowDown" || s3_code == "Throttling" || s3_code == "ThrottlingException" ||
         s3_code == "RequestTimeout" || s3_code == "RequestTimeoutException" ||
         s3_code == "InternalError" || s3_code == "ServiceUnavailable";
}

int Backoff::DelayMs(int attempt) {
  int64_t ceiling = base_ms_;
  for (int i = 1; i < attempt && ceiling < cap_ms_; ++i) ceiling *= 2;
  ceiling = std::min<int64_t>(ceiling, cap_ms_);
  std::uniform_int_distribution<int64_t> dist(0, ceiling);
  return static_cast<int>(dist(rng_));
}

}  // namespace gsys::upload
