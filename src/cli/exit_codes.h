// SPDX-License-Identifier: Apache-2.0
// Exit codes of the gsys CLI (documented in docs/cli/README.md).
#pragma once

#include "common/status.h"

namespace gsys::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInternal = 1;     // a bug in gsys
inline constexpr int kExitUsage = 2;        // bad flag, unknown verb/report/format, bad argument
inline constexpr int kExitNotFound = 3;     // input file missing
inline constexpr int kExitBadInput = 4;     // input is not a readable report (corrupt, not SQLite...)
inline constexpr int kExitUnsupported = 5;  // report newer than this gsys, feature unavailable
inline constexpr int kExitIo = 6;           // output cannot be written

int ExitCodeFor(const Status& status);

}  // namespace gsys::cli
