// SPDX-License-Identifier: Apache-2.0
// The end of `gsys profile`: the session directory into its report (or, with %q{} variables
// set only inside the tree, one report per distinct name, launcher/report_groups.h), one
// "generated" line per report, then --export and --stats on each.
#pragma once

#include <string>
#include <vector>

#include "launcher/output_name.h"

namespace gsys::cli {

struct ProfileReports {
  std::string session_dir;
  // The -o pattern after the first expansion (launcher/output_name.h): deferred %q{} of
  // `split_vars` and %p; `names.pid` is the target's pid.
  std::string pattern;
  std::vector<std::string> split_vars;  // empty: one report
  launcher::OutputNameContext names;
  bool force = false, stats = false;
  bool quiet = false;  // -q: only the warnings of the summary, and stats -q
  std::vector<std::string> exports;
  double seconds = 0;  // the target's run time, for the summary line
};

// Writes the reports and removes the session directory when every process is in a written
// report (GSYS_KEEP_SESSION keeps it); otherwise says why and keeps it for `gsys import`.
// Returns whether every report was written.
bool WriteProfileReports(const ProfileReports& p);

}  // namespace gsys::cli
