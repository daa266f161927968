// SPDX-License-Identifier: Apache-2.0
// The page of `gsys summary`: an overview of the report, GPU utilization over time (heat map and
// per-GPU table), the top kernels, every default `gsys stats` report as a table and the default
// `gsys analyze` findings.
#pragma once

#include <string>

#include "common/status.h"
#include "html/page.h"

namespace gsys::report {
class ReportReader;
}

namespace gsys::cli {

struct SummaryOptions {
  int bins = 100;           // time bins of the utilization heat map
  size_t top_kernels = 15;  // bars in the top-kernels chart (and the NVTX and OSRT charts)
  size_t timeline_events = html::kMaxTimelineEvents;  // events on the timeline at most
  std::string filter_note;  // what --filter-time/--filter-nvtx kept, for the subtitle; "" none
  bool progress = false;    // "[i/n] step" on stderr while it works (a terminal only)
};

// Builds the page for the opened report `reader`; `shown_input` names it on the page. The stats
// reports and rules run on up to 4 threads, each with its own connection to `reader.path()` and
// `reader`'s filter (ActiveFilter), so a filter applies to the whole page.
// Errors are those of `gsys stats` / `gsys analyze` on the same report (kBadInput when a query
// fails), prefixed "summary: ".
Result<html::Page> BuildSummaryPage(report::ReportReader& reader, const std::string& shown_input,
                                    const SummaryOptions& options);

}  // namespace gsys::cli
