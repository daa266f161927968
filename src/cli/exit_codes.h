// SPDX-License-Identifier: Apache-2.0
// Exit codes of the gsys CLI (documented in docs/cli/README.md).
#pragma once

#include "common/status.h"

namespace gsys::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInternal = 1;  // a bug in gsys
inline constexpr int kExitUsage = 2;     // bad flag, unknown verb/report/format, bad argument
inline constexpr int kExitNotFound = 3;  // input file missing
inline constexpr int kExitBadInput = 4;  // input is not a readable report (corrupt, not SQLite...)
inline constexpr int kExitUnsupported = 5;  // report newer than this gsys, feature unavailable
inline constexpr int kExitIo = 6;           // output cannot be written

int ExitCodeFor(const Status& status);

// A verb that ran a target returns TargetExit(...): the target's exit code, or, when it died of
// signal N on its own (not because gsys ended the session), a value main() turns into gsys's
// own death by N, as strace does, so a parent's WIFSIGNALED/WTERMSIG sees what it would see
// without gsys (docs/reliability.md). A target gsys ended gives 128 + N.
inline constexpr int kExitDiedOfSignal = 1 << 16;
inline int TargetExit(int exit_code, int term_signal, bool ended_by_gsys) {
  return term_signal > 0 && !ended_by_gsys ? (kExitDiedOfSignal | term_signal) : exit_code;
}

}  // namespace gsys::cli
