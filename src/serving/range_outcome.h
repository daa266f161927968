// SPDX-License-Identifier: Apache-2.0
// What gsys says at the end about a capture range (-c nvtx|cudaProfilerApi) whose outcome the
// user would otherwise have to guess: one that never opened (so no report, or an empty one,
// the common "-p matched nothing" trap) and one whose end shut the session down and signalled
// the target (--capture-range-end stop-shutdown, profile's default). Pure text, no I/O.
#pragma once

#include <string>
#include <vector>

#include "serving/control_file.h"

namespace gsys::serving {

struct RangeOutcomeInput {
  std::string capture_range;     // "nvtx" or "cudaProfilerApi"
  std::string nvtx_capture;      // -p RANGE[@DOMAIN]
  bool registered_only = false;  // NSYS_NVTX_PROFILER_REGISTER_ONLY=1
  std::vector<SeenRange> seen;   // ControlFile::SeenRanges
  bool more_seen = false;
};

// One line (no "gsys: " prefix, no newline): the range never opened, and which NVTX ranges the
// program opened instead (with a hint when a plain string of the wanted name was skipped
// because only registered strings match).
std::string NeverOpenedLine(const RangeOutcomeInput& in);

// The same with `in.seen`/`in.more_seen` read from the session's control page.
std::string NeverOpenedLine(RangeOutcomeInput in, const ControlFile& control);

// One line: the range's end ended the session; `kill_signal` went to the target (0: none, the
// target was left running).
std::string StopShutdownLine(int kill_signal);

// After a run with a capture range (`in.capture_range` not empty), on stderr: the never-opened
// line when no range opened; the stop-shutdown line when the range's end asked for the
// shutdown (`stop_request_file` exists) that ended the session early.
void PrintRangeOutcome(const RangeOutcomeInput& in, const ControlFile& control,
                       bool session_ended_early, const std::string& stop_request_file,
                       int kill_signal);

}  // namespace gsys::serving
