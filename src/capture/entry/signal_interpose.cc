// SPDX-License-Identifier: Apache-2.0
// The exported libc signal-disposition calls (LD_PRELOAD): each goes through the shadow table
// (signal_shadow.h) so the program sees its own dispositions, never gsys's handlers. glibc's
// signal() family calls its internal sigaction, which LD_PRELOAD cannot see, so each entry
// point is wrapped here with glibc's own semantics. Active whatever is traced (-t none too).
#include <signal.h>

#include <cerrno>

#include "capture/entry/signal_shadow.h"

#define GSYS_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

using Handler = void (*)(int);

// glibc's bsd_signal/sysv_signal: build the sigaction, return the old handler or SIG_ERR.
Handler SetHandler(int sig, Handler handler, int flags, bool mask_self) {
  if (handler == SIG_ERR || sig <= 0 || sig >= NSIG) {
    errno = EINVAL;
    return SIG_ERR;
  }
  struct sigaction act {};
  struct sigaction old {};
  act.sa_handler = handler;
  sigemptyset(&act.sa_mask);
  if (mask_self) sigaddset(&act.sa_mask, sig);
  act.sa_flags = flags;
  if (gsys::capture::ProgramSigaction(sig, &act, &old) < 0) return SIG_ERR;
  return old.sa_handler;
}

}  // namespace

GSYS_EXPORT int sigaction(int sig, const struct sigaction* act, struct sigaction* oact) {
  return gsys::capture::ProgramSigaction(sig, act, oact);
}

GSYS_EXPORT Handler signal(int sig, Handler handler) {
  return SetHandler(sig, handler, SA_RESTART, true);
}

GSYS_EXPORT Handler bsd_signal(int sig, Handler handler) {
  return SetHandler(sig, handler, SA_RESTART, true);
}

GSYS_EXPORT Handler sysv_signal(int sig, Handler handler) {
  return SetHandler(sig, handler, static_cast<int>(SA_RESETHAND | SA_NODEFER), false);
}

GSYS_EXPORT Handler __sysv_signal(int sig, Handler handler) {
  return SetHandler(sig, handler, static_cast<int>(SA_RESETHAND | SA_NODEFER), false);
}
