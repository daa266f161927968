// SPDX-License-Identifier: Apache-2.0
#include "launcher/inherited_signals.h"

#include <signal.h>

#include <initializer_list>

namespace gsys::launcher {
namespace {

bool g_taken = false;
sigset_t g_ignored;  // signals at SIG_IGN when gsys started
sigset_t g_blocked;  // gsys's blocked mask when it started

void SetDisposition(int sig, void (*handler)(int)) {
  struct sigaction act {};
  act.sa_handler = handler;
  sigemptyset(&act.sa_mask);
  sigaction(sig, &act, nullptr);
}

}  // namespace

void SnapshotInheritedSignals() {
  if (g_taken) return;
  sigemptyset(&g_ignored);
  for (int sig = 1; sig < NSIG; ++sig) {
    struct sigaction cur {};
    if (sigaction(sig, nullptr, &cur) != 0) continue;  // glibc's internal signals: EINVAL
    if ((cur.sa_flags & SA_SIGINFO) == 0 && cur.sa_handler == SIG_IGN) sigaddset(&g_ignored, sig);
  }
  sigprocmask(SIG_SETMASK, nullptr, &g_blocked);
  g_taken = true;
}

void RestoreInheritedSignals() {
  if (!g_taken) {
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGCHLD, SIGTTOU, SIGTTIN})
      SetDisposition(sig, SIG_DFL);
    return;
  }
  for (int sig = 1; sig < NSIG; ++sig) {
    if (sig == SIGKILL || sig == SIGSTOP) continue;
    SetDisposition(sig, sigismember(&g_ignored, sig) ? SIG_IGN : SIG_DFL);
  }
  sigprocmask(SIG_SETMASK, &g_blocked, nullptr);
}

}  // namespace gsys::launcher
