// SPDX-License-Identifier: Apache-2.0
// The GPU operations of rules/_gpu_ops.sql's `ops` CTE, read once into memory for the rules whose
// C++ stage sweeps them (gpu_gaps, gpu_time_util): a scan per table instead of SQLite's sorts.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "common/status.h"

namespace gsys::report {
class ReportReader;
}

namespace gsys::analysis::native {

struct GpuOp {
  int64_t start;
  int64_t end;
  int64_t pid;  // (globalPid >> 24) & 0xFFFFFF
  int64_t device;
  int64_t context;
};

// The rows of `ops` (kernels, memcpys and memsets with start > 0, plus the CUDA profiling
// overheads strictly inside each device's span), in no particular order, read through the
// reader's filter. nullopt when a row has a shape on which C++ integer arithmetic could differ
// from SQLite's: a NULL or non-integer value where the SQL computes with it, an end before its
// start, or a time at or beyond 2^62 (SQLite turns an overflowing integer into a real). The
// caller then runs the rule's SQL, so every report gets the SQL's answer.
Result<std::optional<std::vector<GpuOp>>> LoadGpuOps(report::ReportReader& reader);

}  // namespace gsys::analysis::native
