// SPDX-License-Identifier: Apache-2.0
// The stack flags of `gsys profile`: -b/--backtrace, --cudabacktrace, --python-backtrace,
// -s/--sample, --sampling-frequency, --cpuctxsw (nsys's names and values; see
// docs/backtraces.md). Validated here and turned into launcher::CaptureSettings.
#pragma once

#include <string>
#include <vector>

#include "cli/flags.h"
#include "common/status.h"
#include "launcher/capture_env.h"

namespace gsys::cli {

const std::vector<FlagSpec>& StackFlags();

// Fills the stack fields of `c` (c->trace must be set). `notes` receives one line per value
// that gsys maps onto another ("--python-backtrace=lbr means cuda in gsys").
Status ApplyStackFlags(const ParsedFlags& flags, launcher::CaptureSettings* c,
                       std::vector<std::string>* notes);

// The GSYS_CUDA_BACKTRACE value for a --cudabacktrace list, or an error naming the bad part.
Result<std::string> ParseCudaBacktraceFlag(const std::string& text);

}  // namespace gsys::cli
