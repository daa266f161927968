// SPDX-License-Identifier: Apache-2.0
// The stats summaries written beside each serving-mode report: NAME.stats.txt (the default
// `gsys stats` reports in nsys's console shape) and NAME.stats.json (one JSON object:
// {"report": PATH, "gsys_version": V, "command": the gsys command line that made it,
// "reports": {NAME: [rows...] | {"skipped": REASON}}}), and NAME.html (the `gsys summary` page).
#pragma once

#include <string>
#include <vector>

namespace gsys::cli {

// Writes the three summaries for `report`; returns the paths written.
std::vector<std::string> WriteStatsSummaries(const std::string& report);

}  // namespace gsys::cli
