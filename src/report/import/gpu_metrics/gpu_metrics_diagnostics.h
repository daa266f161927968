// SPDX-License-Identifier: Apache-2.0
// The data-quality counters of the GPU metrics import (gpu_metrics_import.h):
// X(id, name, severity, help) entries, gathered into ImportCounter by import_diagnostics.h.
#pragma once

// clang-format off
#define GSYS_GPU_METRICS_DIAGNOSTICS(X)                                                            \
  X(kGpuMetricsUnreadable, "gpu_metrics_unreadable_files", "error",                               \
    "GPU metrics files of the session in a format version this gsys does not read (a newer "      \
    "gsys wrote them) or with a damaged header; not imported: import with the gsys that wrote "   \
    "them.")
// clang-format on
