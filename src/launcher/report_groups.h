// SPDX-License-Identifier: Apache-2.0
// Per-rank reports from one command (issue 19 item 3): `gsys profile -o profile_%q{RANK} --
// torchrun ...` where RANK is unset for gsys but set in the processes of the tree. Every
// process is named by the pattern expanded with the values it started with (a variable it does
// not have expands empty, the name nsys gives the whole run), and the processes of one name
// form one report. A report name is one name: processes of different names never share one.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "launcher/output_name.h"

namespace gsys::launcher {

struct ReportGroup {
  std::string base;         // the report name without .gsys-rep
  std::string values;       // "RANK=0,LOCAL_RANK=0" (an unset variable as "RANK=")
  std::set<uint32_t> pids;  // empty only when the session has no process: import it all
};

struct ReportGroups {
  std::vector<ReportGroup> groups;  // by name
  // One line per value the output-path rules refuse ("a %q{} value adds a '..'"): its
  // processes are in no report.
  std::vector<std::string> errors;
};

// `pattern` is the partial pattern of the first expansion (deferred %q{} of `vars`, maybe %p);
// `ctx` gives host and pid. A session without processes gives the one empty-values report.
ReportGroups GroupProcessesByName(
    const std::string& pattern, const std::vector<std::string>& vars,
    const std::map<uint32_t, std::map<std::string, std::string>>& process_vars,
    const OutputNameContext& ctx);

}  // namespace gsys::launcher
