// SPDX-License-Identifier: Apache-2.0
#include "cli/session_linger.h"

#include <csignal>
#include <ctime>

#include "launcher/launcher.h"

namespace gsys::cli {

int64_t LingerUntil(int64_t deadline_ns) {
  sigset_t ending, old_mask;
  sigemptyset(&ending);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&ending, sig);
  // Blocked, the signals stay pending instead of killing gsys before the report is written.
  sigprocmask(SIG_BLOCK, &ending, &old_mask);
  int64_t now = launcher::MonotonicNowNs();
  while (now < deadline_ns) {
    int64_t left = deadline_ns - now;
    timespec timeout{static_cast<time_t>(left / 1'000'000'000), static_cast<long>(left % 1'000'000'000)};
    siginfo_t info;
    if (sigtimedwait(&ending, &info, &timeout) > 0) break;
    now = launcher::MonotonicNowNs();
  }
  now = launcher::MonotonicNowNs();
  sigprocmask(SIG_SETMASK, &old_mask, nullptr);
  return now;
}

}  // namespace gsys::cli
