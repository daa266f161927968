// SPDX-License-Identifier: Apache-2.0
// The one clock of gsys (design.md decision 3): CLOCK_MONOTONIC nanoseconds through the vDSO.
#pragma once

#include <cstdint>
#include <ctime>

namespace gsys::capture {

inline int64_t MonotonicNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

inline int64_t RealtimeNs() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

}  // namespace gsys::capture
