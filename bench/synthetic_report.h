// SPDX-License-Identifier: Apache-2.0
// Writes a synthetic gsys report (nsys-export-compatible SQLite) from a simulated timeline:
// kernels with their cudaLaunchKernel calls, memcpy/memset with theirs, other API calls, NVTX
// push/pop ranges, OS runtime calls, strings, processes and threads. Used by gsys_gen_report,
// the stats benchmark and the bench sanity test.
#pragma once

#include <cstdint>
#include <string>

#include "bench/synthetic_timeline.h"
#include "common/status.h"
#include "report/db/database.h"

namespace gsys::bench {

// Row counts of what was written (after ResolveCounts filled in the derived ones).
struct SyntheticReportCounts {
  TimelineOptions resolved;
  int64_t strings = 0;
  int64_t last_end_ns = 0;  // latest event end, for ANALYSIS_DETAILS
};

// Creates the canonical schema (report/reader/schema.h) in `db`, which must be empty and
// writable, and fills it from `options` in one transaction. Sets journal_mode=OFF and
// synchronous=OFF on `db`: a crash leaves a broken file, so write to a temporary path and
// rename (as gsys_gen_report does). `command_line` goes into GSYS_META.
Result<SyntheticReportCounts> WriteSyntheticReport(report::Database& db, TimelineOptions options,
                                                   const std::string& command_line);

}  // namespace gsys::bench
