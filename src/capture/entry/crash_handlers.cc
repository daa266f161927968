// SPDX-License-Identifier: Apache-2.0
#include "capture/entry/crash_handlers.h"

#include <signal.h>

#include <cerrno>

#include "capture/entry/context.h"
#include "capture/entry/log.h"
#include "capture/entry/signal_shadow.h"

namespace gsys::capture {
namespace {

// Default action "terminate" or "core" (signal(7)); SIGKILL cannot be caught.
constexpr int kFatalByDefault[] = {SIGHUP,  SIGINT,  SIGQUIT,   SIGILL,  SIGTRAP, SIGABRT,
                                   SIGBUS,  SIGFPE,  SIGUSR1,   SIGSEGV, SIGUSR2, SIGPIPE,
                                   SIGALRM, SIGTERM, SIGSTKFLT, SIGXCPU, SIGXFSZ, SIGVTALRM,
                                   SIGPROF, SIGIO,   SIGPWR,    SIGSYS};

void Handler(int sig, siginfo_t* info, void*) {
  int saved_errno = errno;
  // The program may have claimed the signal while this one was being delivered: then it is
  // raised again below and reaches the program's disposition once this handler returns.
  if (SignalTakenOver(sig)) {
    LogVerbose("signal %d: flushing", sig);
    FinalFlush();
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    RealSigaction(sig, &dfl, nullptr);
  }
  errno = saved_errno;
  // A fault re-executes the faulting instruction on return and dies of it; anything else is
  // raised again (it stays blocked until this handler returns).
  bool synchronous_fault = (sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL ||
                            sig == SIGTRAP || sig == SIGSYS) &&
                           info != nullptr && info->si_code > 0;
  if (!synchronous_fault) raise(sig);
}

void TakeOver(int sig) {
  struct sigaction act {};
  act.sa_sigaction = Handler;
  act.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
  sigemptyset(&act.sa_mask);
  TakeOverSignal(sig, act);
}

}  // namespace

void InstallCrashHandlers() {
  for (int sig : kFatalByDefault) TakeOver(sig);
  // The sampler may hold a real-time signal already: its handler stays.
  for (int sig = SIGRTMIN; sig <= SIGRTMAX; ++sig) {
    if (!SignalTakenOver(sig)) TakeOver(sig);
  }
}

}  // namespace gsys::capture
