// SPDX-License-Identifier: Apache-2.0
// What in a report's data cannot be taken at face value, counted so that every verb that reads
// the report can say so (one warning line per kind of problem) instead of printing it as data:
// rows that end before they start, names that point at no StringIds row, CUDA API calls that
// repeat another call's correlation id in the same process (GPU work is joined to the first),
// what gsys's capture lost (GSYS_DIAGNOSTICS) and, in an nsys export, what nsys noted about its
// own capture (DIAGNOSTIC_EVENT: its errors, and the warnings that say data was not collected
// or lost).
// The data itself is shown as it is: nothing is dropped or repaired.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"

namespace gsys::report {

class ReportReader;

struct DataProblem {
  int64_t count = 0;
  std::string what;     // the sentence after the count: "kernels end before they start (...)"
  bool counted = true;  // false: `what` is a whole sentence (a note nsys recorded), no count
};

// Scans the whole file (call it before SetTimeWindow/SetNvtxFilter: the views would hide rows):
// one query per event table (a range test per name id when StringIds' ids are dense, else an
// index lookup per id) and one scan of the CUDA API calls. Problems in a stable
// order, only those with a count > 0; none for a sound report.
Result<std::vector<DataProblem>> CheckReportData(ReportReader& reader);

// "report 'PATH': 3 kernels end before they start (shown as they are)" for each problem, the
// path made one printable line. Empty when the report is sound or cannot be checked (a check
// that fails, e.g. on a damaged page, leaves the verb's own query to report it).
std::vector<std::string> DataWarnings(ReportReader& reader);

}  // namespace gsys::report
