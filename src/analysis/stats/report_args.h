// SPDX-License-Identifier: Apache-2.0
// Report arguments (`-r name:arg:arg`) and how they become SQL template values.
//
//   nvtx-name   flag `nvtx_name`: prefix kernel names with the innermost enclosing NVTX range
//   base        variable `kernel_name` = shortName (kernel base name)
//   mangled     variable `kernel_name` = coalesce(mangledName, demangledName)
//               (default `kernel_name` = demangledName; base and mangled exclude each other)
//   rows=N      variable `rows` = N (non-negative integer; default 10)
#pragma once

#include <string>
#include <vector>

#include "analysis/stats/report_registry.h"
#include "analysis/stats/sql_template.h"
#include "common/status.h"

namespace gsys::analysis {

// Checks `args` against `spec` and returns the template values they define (every variable and
// flag the report may use gets a value, so templates never see an unset name).
Result<TemplateContext> BindReportArgs(const ReportSpec& spec,
                                       const std::vector<std::string>& args);

// One help line per argument `spec` accepts.
std::string ReportArgsHelp(const ReportSpec& spec);

// Closest report name to `name` by edit distance (for "did you mean").
std::string ClosestReportName(const std::string& name);

}  // namespace gsys::analysis
