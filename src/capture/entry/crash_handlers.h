// SPDX-License-Identifier: Apache-2.0
// Fatal-signal flush (design.md decision 4): SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGSEGV,
// SIGBUS, SIGFPE, SIGILL and SIGABRT flush every buffer, then chain to the handler that was
// installed before (or to the default action, so the process still dies of the same signal).
// Signals the process ignores stay ignored.
#pragma once

namespace gsys::capture {

void InstallCrashHandlers();

}  // namespace gsys::capture
