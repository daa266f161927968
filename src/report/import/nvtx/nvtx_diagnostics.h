// SPDX-License-Identifier: Apache-2.0
// The data-quality counters of the NVTX import (nvtx_import.h): X(id, name, severity, help)
// entries, gathered into ImportCounter by import_diagnostics.h.
#pragma once

// clang-format off
#define GSYS_NVTX_DIAGNOSTICS(X)                                                                   \
  X(kUnmatchedPops, "nvtx_unmatched_pops", "info",                                                \
    "NVTX pops with no push in the capture (the push happened before the capture window).")        \
  X(kUnmatchedEnds, "nvtx_unmatched_range_ends", "info",                                          \
    "NVTX range ends with no start in the capture.")                                               \
  X(kRangesCutByLoss, "nvtx_ranges_cut_by_loss", "data_loss",                                     \
    "NVTX push/pop ranges open where records of their thread were lost; not written, since "      \
    "pairing them with a later pop could invent a range.")                                         \
  X(kUnclosedRanges, "nvtx_unclosed_ranges", "info",                                              \
    "NVTX ranges still open when the capture ended; not written (nsys drops them too).")           \
  X(kUnknownStrings, "nvtx_unknown_registered_strings", "data_loss",                              \
    "NVTX events referring to a registered string the capture never saw.")
// clang-format on
