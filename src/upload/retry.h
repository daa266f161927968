// SPDX-License-Identifier: Apache-2.0
// Retry policy for S3 requests: which answers are worth another try, and how long to wait
// (exponential backoff with full jitter, as AWS's SDKs do).
#pragma once

#include <cstdint>
#include <random>
#include <string>

namespace gsys::upload {

// True for answers a later try may fix: no response (connection refused/reset, timeout),
// 408/429/5xx, and S3's throttling and timeout codes sent with other statuses.
bool IsRetryable(int http_status, const std::string& s3_code);

// Delay before try number `attempt` + 1 (attempt >= 1): uniform in [0, min(cap,
// base*2^(attempt-1))].
class Backoff {
 public:
  Backoff(int base_ms = 200, int cap_ms = 10000)
      : base_ms_(base_ms), cap_ms_(cap_ms), rng_(std::random_device{}()) {}
  int DelayMs(int attempt);

 private:
  int base_ms_;
  int cap_ms_;
  std::mt19937 rng_;
};

}  // namespace gsys::upload
