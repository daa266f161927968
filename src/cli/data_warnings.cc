// SPDX-License-Identifier: Apache-2.0
#include "cli/data_warnings.h"

#include "cli/output.h"
#include "common/one_line.h"
#include "report/kineto/kineto_input.h"
#include "report/reader/data_check.h"

namespace gsys::cli {

void PrintDataWarnings(const std::vector<std::string>& lines) {
  // A torch.profiler trace is read through a temporary report: name the trace, not that file.
  auto temps = report::kineto::TemporaryReports();
  for (std::string line : lines) {
    for (const auto& entry : temps) {
      std::string temp = "report '" + OneLine(entry.second) + "'";
      if (line.rfind(temp, 0) == 0)
        line = "trace '" + OneLine(entry.first) + "'" + line.substr(temp.size());
    }
    PrintErr("gsys: warning: " + line + "\n");
  }
}

void WarnAboutData(report::ReportReader& reader) {
  PrintDataWarnings(report::DataWarnings(reader));
}

}  // namespace gsys::cli
