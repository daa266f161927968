// SPDX-License-Identifier: Apache-2.0
// The launcher's side of the interactive verbs (gsys start, stop, cancel, status, shutdown):
// what a live session (cli/live_runner.h) answers to each request file
// (serving/session_registry.h). Each answer is key=value lines:
//   start    window=N [armed=1] [note=...]      or error=...
//   stop     report=PATH stats=0|1 (from the window's finalizer)   or error=...
//   cancel   cancelled=window|range|range-window                    or error=...
//   status   state=... and the counts of serving::LiveStatus
//   shutdown ok=1
//
// Threading: the launcher's thread (its on_tick hook).
#pragma once

#include <memory>
#include <string>

#include "cli/live_runner.h"
#include "launcher/launcher.h"
#include "serving/live_session.h"
#include "serving/session_registry.h"
#include "serving/window_scheduler.h"

namespace gsys::cli {

// What a live run shares between the launcher's hooks.
struct LiveState {
  const LiveRunOptions* options = nullptr;
  launcher::LaunchOptions* launch = nullptr;
  std::unique_ptr<serving::LiveSession> live;
  std::unique_ptr<serving::WindowScheduler> schedule;
  bool scheduled_open = false;
  bool end_requested = false;
  bool range_armed_ever = false;  // `gsys start -c nvtx` armed the tree's range at least once
  std::string dir;
};

// Answers one request of `gsys start/stop/cancel/status/shutdown`.
void HandleRequest(LiveState& st, const serving::PendingRequest& r, int64_t now);

}  // namespace gsys::cli
