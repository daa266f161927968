// SPDX-License-Identifier: Apache-2.0
// The one process-wide context of the capture library (CONTRIBUTING.md §3), created at injection:
// the parsed configuration and the lifecycle flags. Everything else reaches settings from here.
#pragma once

#include <atomic>
#include <cstdint>

#include "capture/entry/env.h"

namespace gsys::capture {

struct Context {
  CaptureConfig config;
  std::atomic<bool> initialized{false};
  bool active = false;  // config.enabled and the sink started
  int64_t stream_id = 0;
};

Context& CaptureContext();

// Initializes the library once (constructor, NVTX or CUDA injection entry, whichever is first).
// Returns whether capture is active in this process.
bool EnsureInitialized();

// Flushes everything (domains, then the sink) as the process ends.
void FinalFlush();

}  // namespace gsys::capture
