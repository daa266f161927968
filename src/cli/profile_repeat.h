// SPDX-License-Identifier: Apache-2.0
// `gsys profile -c nvtx|cudaProfilerApi --capture-range-end repeat[:N]`: one report per capture
// range (nsys's repeat), each finalized while the target keeps running (serving/live_session.h).
// Reports: the -o name for the first range, then NAME-2, NAME-3, ... (or %n's next value).
#pragma once

#include <sys/types.h>

#include <string>

#include "common/status.h"
#include "launcher/launcher.h"
#include "serving/control_file.h"
#include "serving/range_outcome.h"

namespace gsys::cli {

struct RepeatRun {
  launcher::LaunchOptions launch;
  std::string session_dir;
  int max_ranges = 0;  // N of repeat:N; 0 = every range
  // Called right after the fork; returns the report path of the first range (with %p known).
  void (*on_started)(pid_t, void*) = nullptr;
  void* context = nullptr;
  const std::string* report_path = nullptr;  // filled in by on_started
  serving::RangeOutcomeInput range{};        // -c/-p: what to say when no range opened
  bool linger = false;  // -x false: after the target exits, wait for the session's duration
  bool shutdown_after_max = false;  // repeat-shutdown:N: the N-th range's end ends the session
};

// Runs the target and writes one report per range. Returns the target's exit code.
Result<int> RunRepeatedRanges(RepeatRun run, serving::ControlFile control);

}  // namespace gsys::cli
