// SPDX-License-Identifier: Apache-2.0
#include "serving/range_outcome.h"

#include <string.h>
#include <unistd.h>

#include <cstdio>

#include "common/one_line.h"

namespace gsys::serving {
namespace {

// -p RANGE[@DOMAIN] split as the capture library splits it (capture/entry/env.cc): the last
// unescaped '@' splits, "\@" is a literal '@'. No '@': the default domain ("").
void SplitTrigger(const std::string& p, std::string* range, std::string* domain) {
  size_t split = std::string::npos;
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '\\' && i + 1 < p.size() && p[i + 1] == '@') {
      ++i;
    } else if (p[i] == '@') {
      split = i;
    }
  }
  std::string head = p.substr(0, split);
  *domain = split == std::string::npos ? "" : p.substr(split + 1);
  range->clear();
  for (size_t i = 0; i < head.size(); ++i) {
    if (head[i] == '\\' && i + 1 < head.size() && head[i + 1] == '@') continue;
    *range += head[i];
  }
}

// Whether a seen "NAME[@DOMAIN]" is what -p asks for (so only its kind kept it from matching).
bool Wanted(const std::string& seen, const std::string& trigger) {
  std::string range, domain;
  SplitTrigger(trigger, &range, &domain);
  if (domain == "*") return seen == range || seen.rfind(range + "@", 0) == 0;
  return seen == (domain.empty() ? range : range + "@" + domain);
}

}  // namespace

std::string NeverOpenedLine(const RangeOutcomeInput& in) {
  if (in.capture_range != "nvtx") {
    return "the capture range never opened: the program never called cudaProfilerStart "
           "(-c cudaProfilerApi)";
  }
  std::string line = "the capture range never opened: no NVTX range matched -p '" +
                     OneLine(in.nvtx_capture, 200) + "'";
  if (in.seen.empty()) return line + "; the program opened no NVTX range while it was armed";
  line += "; ranges seen: ";
  const SeenRange* skipped_plain = nullptr;
  for (size_t i = 0; i < in.seen.size(); ++i) {
    const SeenRange& s = in.seen[i];
    // Names come from the program: a control character in one never reaches the terminal raw.
    line += (i == 0 ? "" : ", ") + OneLine(s.name, 200) + (s.registered ? " (registered)" : "");
    if (in.registered_only && !s.registered && Wanted(s.name, in.nvtx_capture)) skipped_plain = &s;
  }
  if (in.more_seen) line += ", ...";
  if (skipped_plain != nullptr) {
    line += "; '" + OneLine(skipped_plain->name, 200) +
            "' is a plain string, and "
            "NSYS_NVTX_PROFILER_REGISTER_ONLY=1 matches registered strings only";
  }
  return line;
}

std::string NeverOpenedLine(RangeOutcomeInput in, const ControlFile& control) {
  in.seen = control.SeenRanges(&in.more_seen);
  return NeverOpenedLine(in);
}

std::string StopShutdownLine(int kill_signal) {
  std::string line =
      "the capture range ended (--capture-range-end stop-shutdown): the session ended";
  if (kill_signal == 0) return line + "; the target was left running (--kill none)";
  const char* abbrev = sigabbrev_np(kill_signal);
  std::string name =
      abbrev != nullptr ? std::string("SIG") + abbrev : "signal " + std::to_string(kill_signal);
  return line + " and " + name +
         " was sent to the target (--capture-range-end stop keeps it running)";
}

void PrintRangeOutcome(const RangeOutcomeInput& in, const ControlFile& control,
                       bool session_ended_early, const std::string& stop_request_file,
                       int kill_signal) {
  if (in.capture_range.empty()) return;
  if (control.range_windows_opened() == 0) {
    std::fprintf(stderr, "gsys: %s\n", NeverOpenedLine(in, control).c_str());
  }
  if (session_ended_early && !stop_request_file.empty() &&
      access(stop_request_file.c_str(), F_OK) == 0) {
    std::fprintf(stderr, "gsys: %s\n", StopShutdownLine(kill_signal).c_str());
  }
}

}  // namespace gsys::serving
