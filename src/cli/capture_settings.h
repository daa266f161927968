// SPDX-License-Identifier: Apache-2.0
// From the typed capture options (capture_options.h) to what the launcher puts into the
// target's environment (launcher::CaptureSettings), including the files gsys installs next to
// itself: libgsys-inject.so, libgsys-mpi.so (-t mpi) and gsys/python (--pytorch).
#pragma once

#include <string>
#include <vector>

#include "cli/capture_options.h"
#include "common/status.h"
#include "launcher/capture_env.h"

namespace gsys::cli {

// libgsys-inject.so next to gsys (or $GSYS_INJECT_LIBRARY); "" when missing.
std::string FindInjectLibrary();

// `-p` matching: gsys matches plain-string NVTX ranges as well as registered ones unless
// NSYS_NVTX_PROFILER_REGISTER_ONLY=1 (nsys's default, registered only, leaves PyTorch users with
// no report; docs/differences-from-nsys.md). `user_env` (-e, NAME=VALUE) wins over gsys's own.
inline constexpr const char* kNvtxRegisterOnlyEnv = "NSYS_NVTX_PROFILER_REGISTER_ONLY";
bool NvtxRegisteredOnly(const std::vector<std::string>& user_env);

// Fills every capture field of `c` from `o` (not session_dir, the window times or
// sanitizer_needs) and finds the libraries; errors start with `verb` ("profile: -t mpi: ...").
Status ToCaptureSettings(const CaptureOptions& o, const std::string& verb,
                         launcher::CaptureSettings* c);

}  // namespace gsys::cli
