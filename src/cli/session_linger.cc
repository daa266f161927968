// SPDX-License-Identifier: Apache-2.0
#include "cli/session_linger.h"

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <ctime>

#include "launcher/launcher.h"

namespace gsys::cli {

int64_t LingerUntil(int64_t deadline_ns, const std::string& stop_file) {
  sigset_t ending, old_mask;
  sigemptyset(&ending);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&ending, sig);
  // Blocked, the signals stay pending instead of killing gsys before the report is written.
  sigprocmask(SIG_BLOCK, &ending, &old_mask);
  int64_t now = launcher::MonotonicNowNs();
  while (now < deadline_ns && (stop_file.empty() || access(stop_file.c_str(), F_OK) != 0)) {
    // The stop file is looked for as often as Launch looks for it (every 20 ms).
    int64_t left = deadline_ns - now;
    if (!stop_file.empty()) left = std::min<int64_t>(left, 20'000'000);
    timespec timeout{static_cast<time_t>(left / 1'000'000'000),
                     static_cast<long>(left % 1'000'000'000)};
    siginfo_t info;
    if (sigtimedwait(&ending, &info, &timeout) > 0) break;
    now = launcher::MonotonicNowNs();
  }
  now = launcher::MonotonicNowNs();
  sigprocmask(SIG_SETMASK, &old_mask, nullptr);
  return now;
}

void HoldEndingSignals() {
  sigset_t ending;
  sigemptyset(&ending);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&ending, sig);
  sigprocmask(SIG_BLOCK, &ending, nullptr);
}

}  // namespace gsys::cli
