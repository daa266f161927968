// SPDX-License-Identifier: Apache-2.0
#include "cli/data_warnings.h"

#include "cli/output.h"
#include "report/reader/data_check.h"

namespace gsys::cli {

void PrintDataWarnings(const std::vector<std::string>& lines) {
  for (const std::string& line : lines) PrintErr("gsys: warning: " + line + "\n");
}

void WarnAboutData(report::ReportReader& reader) {
  PrintDataWarnings(report::DataWarnings(reader));
}

}  // namespace gsys::cli
