// SPDX-License-Identifier: Apache-2.0
// The launcher: starts the target command with a prepared environment in its own process
// group, forwards SIGINT/SIGTERM/SIGHUP to it, ends the session on a timer or on request, and
// waits for the primary process (or, with wait_all, for every descendant: gsys becomes a child
// subreaper so orphans are re-parented to it).
//
// Threading: Launch blocks the calling thread until the session ends; it installs and restores
// signal masks on that thread.
#pragma once

#include <csignal>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/status.h"

namespace gsys::launcher {

struct LaunchOptions {
  std::vector<std::string> argv;     // argv[0] is looked up in PATH when it has no '/'
  std::vector<std::string> env;      // the complete environment, "NAME=value"
  int64_t session_end_after_ns = 0;  // end the session this long after launch; 0 = never
  int kill_signal = SIGTERM;         // sent to the target's process group when the session
                                     // ends before the target does; 0 = leave it running
  bool wait_all = true;              // wait for re-parented descendants too
  bool show_output = true;           // false: the target's stdout/stderr go to /dev/null
  std::string stop_request_file;     // the session ends when this file appears ("" = none)
  // Live-session hooks (serving mode, launch/start/stop, per-range reports). All run on the
  // thread that called Launch, between two turns of its wait loop (at most 20 ms apart).
  // on_tick(now): returns true to end the session (as a duration would: kill_signal is sent).
  std::function<bool(int64_t now_ns)> on_tick;
  // Signals gsys handles itself instead of forwarding (e.g. SIGUSR2: toggle a window).
  std::vector<int> own_signals;
  // Every signal received: own_signals, and SIGINT/SIGTERM/SIGHUP after they were forwarded.
  std::function<void(int sig)> on_signal;
  // A child of gsys that is not the target's primary exited (e.g. a finalizer gsys forked).
  std::function<void(pid_t pid, int exit_code)> on_other_child;
};

struct LaunchResult {
  int exit_code = 0;                 // the primary's status, 128+N when killed by signal N
  int term_signal = 0;               // N when the primary died of a signal
  bool session_ended_early = false;  // duration/stop request ended it before the target did
  bool detached = false;             // --kill none: the target was left running
  pid_t pid = 0;                     // the primary process
  int64_t start_monotonic_ns = 0;
  int64_t end_monotonic_ns = 0;
};

// Finds `command` the way execvp would; an error names the problem ("not found",
// "not executable") so it can be reported before anything starts.
Result<std::string> ResolveCommand(const std::string& command);

// Runs the target. `on_started(pid)` is called right after the fork (to record the pid).
Result<LaunchResult> Launch(const LaunchOptions& options,
                            void (*on_started)(pid_t, void*) = nullptr, void* context = nullptr);

int64_t MonotonicNowNs();
int64_t RealtimeNowNs();

}  // namespace gsys::launcher
