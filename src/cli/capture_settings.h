// SPDX-License-Identifier: Apache-2.0
// From the typed capture options (capture_options.h) to what the launcher puts into the
// target's environment (launcher::CaptureSettings), including the files gsys installs next to
// itself: libgsys-inject.so, libgsys-mpi.so (-t mpi) and gsys/python (--pytorch).
#pragma once

#include <string>

#include "cli/capture_options.h"
#include "common/status.h"
#include "launcher/capture_env.h"

namespace gsys::cli {

// libgsys-inject.so next to gsys (or $GSYS_INJECT_LIBRARY); "" when missing.
std::string FindInjectLibrary();

// Fills every capture field of `c` from `o` (not session_dir, the window times or
// sanitizer_needs) and finds the libraries; errors start with `verb` ("profile: -t mpi: ...").
Status ToCaptureSettings(const CaptureOptions& o, const std::string& verb,
                         launcher::CaptureSettings* c);

}  // namespace gsys::cli
