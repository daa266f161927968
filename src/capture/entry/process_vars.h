// SPDX-License-Identifier: Apache-2.0
// Writes this process image's "<pid>-<stream_id>.vars" (format/process_vars.h): the values,
// at start, of the variables GSYS_OUTPUT_VARS names. Called at library init and in a fork
// child; a process that changes them later keeps the values it started with.
#pragma once

#include <cstdint>

#include "capture/entry/env.h"

namespace gsys::capture {

// Nothing when config.output_vars is empty. Async-signal-safe (fork child): raw syscalls, a
// stack buffer, getenv only.
void RecordProcessVars(const CaptureConfig& config, int64_t stream_id);

}  // namespace gsys::capture
