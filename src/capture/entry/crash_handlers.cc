// SPDX-License-Identifier: Apache-2.0
#include "capture/entry/crash_handlers.h"

#include <signal.h>

#include <cerrno>
#include <cstring>

#include "capture/entry/context.h"
#include "capture/entry/log.h"

namespace gsys::capture {
namespace {

constexpr int kSignals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGSEGV,
                            SIGBUS,  SIGFPE, SIGILL, SIGABRT};
struct sigaction g_previous[65];

void Handler(int sig, siginfo_t* info, void* ucontext) {
  int saved_errno = errno;
  LogVerbose("signal %d: flushing", sig);
  FinalFlush();
  const struct sigaction& prev = g_previous[sig];
  errno = saved_errno;
  if ((prev.sa_flags & SA_SIGINFO) != 0 && prev.sa_sigaction != nullptr) {
    prev.sa_sigaction(sig, info, ucontext);
    return;
  }
  if (prev.sa_handler == SIG_IGN) return;
  if (prev.sa_handler != SIG_DFL && prev.sa_handler != nullptr) {
    prev.sa_handler(sig);
    return;
  }
  // Default action: restore it and let the signal take the process down as it would have.
  struct sigaction dfl;
  std::memset(&dfl, 0, sizeof(dfl));
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, nullptr);
  // A fault re-executes the faulting instruction on return; anything else is re-raised (it
  // stays blocked until this handler returns).
  bool synchronous_fault = (sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL) &&
                           info != nullptr && info->si_code > 0;
  if (!synchronous_fault) raise(sig);
}

}  // namespace

void InstallCrashHandlers() {
  for (int sig : kSignals) {
    struct sigaction prev;
    if (sigaction(sig, nullptr, &prev) != 0) continue;
    if (prev.sa_handler == SIG_IGN && (prev.sa_flags & SA_SIGINFO) == 0) continue;
    struct sigaction act;
    std::memset(&act, 0, sizeof(act));
    act.sa_sigaction = Handler;
    act.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
    sigemptyset(&act.sa_mask);
    g_previous[sig] = prev;
    sigaction(sig, &act, nullptr);
  }
}

}  // namespace gsys::capture
