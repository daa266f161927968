// SPDX-License-Identifier: Apache-2.0
// The program's view of its signal dispositions (docs/architecture.md, decision 4).
// gsys installs handlers
// of its own (the fatal-signal flush, the sampler's real-time signal), but the program must see
// exactly what it would see without gsys: Python installs its KeyboardInterrupt handler only
// where it finds SIGINT at SIG_DFL, and `signal.getsignal` returns None for a handler it does
// not know (multiprocessing's forkserver then fails to restore it).
//
// Mechanism: the exported sigaction/signal wrappers (signal_interpose.cc) route through
// ProgramSigaction. For a signal gsys has taken over, the disposition the program last set
// (SIG_DFL) is kept in a shadow slot and reported back; the kernel holds gsys's handler. The
// moment the program sets SIG_IGN or a handler of its own, that goes to the kernel unchanged and
// gsys lets go of the signal (its handler is never chained in front of the program's). Setting
// SIG_DFL again hands the signal back to gsys. exec resets caught signals to SIG_DFL, so a new
// image sees nothing of gsys; SIG_IGN is never touched, so it is inherited as without gsys.
//
// Threading: any thread, and signal handlers (sigaction is async-signal-safe): writers take a
// spin lock with every signal blocked. In a vfork child (memory shared with the parent, which
// must not see the child's changes) the wrappers pass straight through to the kernel.
#pragma once

#include <signal.h>

namespace gsys::capture {

// libc's sigaction, bypassing the wrappers.
int RealSigaction(int sig, const struct sigaction* act, struct sigaction* oact);

// The wrappers' body: sets and reports the disposition as the program sees it.
int ProgramSigaction(int sig, const struct sigaction* act, struct sigaction* oact);

// Installs `act` for gsys's own use of `sig` if the program's disposition is SIG_DFL; the
// program keeps seeing SIG_DFL, and whatever it sets later goes to the kernel in place of
// gsys's handler. On a signal gsys holds already, `act` replaces gsys's handler. Returns false
// (nothing changed) when the program ignores or catches `sig`.
bool TakeOverSignal(int sig, const struct sigaction& act);

// True while gsys's handler for `sig` is installed (the program has not claimed the signal).
bool SignalTakenOver(int sig);

// Remembers the process after fork (a child has a table of its own).
void SignalShadowForkChild();

}  // namespace gsys::capture
