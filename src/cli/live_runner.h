// SPDX-License-Identifier: Apache-2.0
// RunLive: runs a target tree injected but recording only inside capture windows, each window
// finalized into its own report while the tree keeps running (serving/live_session.h). Shared
// by `gsys wrap` (windows on a schedule from GSYS_PROFILE*) and `gsys launch` (windows from
// `gsys start`/`stop`, from SIGUSR2, or from capture ranges). Both register a named session so
// start/stop/sessions/shutdown find them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/capture_options.h"
#include "common/status.h"

namespace gsys::cli {

struct LiveRunOptions {
  std::string verb;                   // "wrap" or "launch": messages, session kind
  std::vector<std::string> argv;      // the target command
  std::vector<std::string> user_env;  // -e NAME=VALUE
  CaptureOptions options;             // what the tree records (capture_options.h)
  bool inherit_environment = true;
  std::string session_name;  // "" = VERB-<pid>
  std::string output;        // report folder or pattern ("" = current directory)
  std::string upload;        // "" = none
  // Scheduled windows (wrap): delay/duration/repeat in ns; schedule = false for launch.
  bool schedule = false;
  int64_t delay_ns = 0, duration_ns = 0, repeat_ns = 0;
  int kill_signal = 0;  // sent when the last scheduled window ends (0 = none)
  int64_t shutdown_timeout_ns = 20'000'000'000;
  bool show_output = true;
  bool wait_all = false;
  int64_t max_range_windows = 0;            // range windows (-c): finalize at most this many
  bool window_stats = false;                // every window: print stats (profile -Y --stats)
  std::vector<std::string> window_exports;  // every window: these exports (profile -Y --export)
};

// Runs the target until it exits (or `gsys shutdown`). Returns the target's exit code.
Result<int> RunLive(const LiveRunOptions& options);

// Shared with profile's repeat ranges.
std::string ThisHostName();

}  // namespace gsys::cli
