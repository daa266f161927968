// SPDX-License-Identifier: Apache-2.0
// ReadableReport: the one place where the verbs that read reports (stats, analyze, summary,
// recipe, export) accept a torch.profiler trace. A path ending in .json or .json.gz is imported
// into a temporary report (mode 0600, in a 0700 directory under $TMPDIR, else /tmp) and the
// report's path is returned; any other path comes back unchanged. Each trace is imported once per
// process; the temporary reports are removed when the process exits normally.
// Thread-safe.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/status.h"

namespace gsys::report::kineto {

// `verb` prefixes error messages ("stats: 'x.json' is not a readable Kineto trace: ...").
Result<std::string> ReadableReport(const std::string& path, const std::string& verb);

// The temporary reports made so far: (trace path, report path), so messages that name a report
// can name the trace the user gave instead.
std::vector<std::pair<std::string, std::string>> TemporaryReports();

}  // namespace gsys::report::kineto
