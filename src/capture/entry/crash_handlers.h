// SPDX-License-Identifier: Apache-2.0
// Fatal-signal flush (docs/architecture.md, decision 4).
// Every signal whose default action ends the process
// (SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGUSR1, SIGSEGV, SIGUSR2,
// SIGPIPE, SIGALRM, SIGTERM, SIGSTKFLT, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO, SIGPWR,
// SIGSYS and the real-time signals) and that the program leaves at SIG_DFL gets a handler that
// flushes every buffer, then takes the default action: the process dies of the same signal,
// with the same core dump. The program never sees the handler (signal_shadow.h): it keeps
// seeing SIG_DFL, and a disposition it sets replaces gsys's handler in the kernel. Signals it
// ignores or catches are never touched.
#pragma once

namespace gsys::capture {

void InstallCrashHandlers();

}  // namespace gsys::capture
