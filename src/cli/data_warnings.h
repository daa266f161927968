// SPDX-License-Identifier: Apache-2.0
// The warnings every verb that reads a report prints about data it cannot take at face value
// (report/reader/data_check.h): one "gsys: warning: ..." line on stderr per kind of problem,
// also under --quiet (they qualify the results), never on stdout (the data output stays the
// same bytes).
#pragma once

#include <string>
#include <vector>

namespace gsys::report {
class ReportReader;
}

namespace gsys::cli {

// Prints `lines` (from report::DataWarnings) as warnings.
void PrintDataWarnings(const std::vector<std::string>& lines);

// Checks `reader`'s data (before any filter is applied) and prints what it found.
void WarnAboutData(report::ReportReader& reader);

}  // namespace gsys::cli
