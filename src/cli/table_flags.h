// SPDX-License-Identifier: Apache-2.0
// The flags that `gsys stats` and `gsys analyze` share (formats, outputs, time unit, filters,
// overwrite, quiet, help) and their parsing into TableRunOptions.
#pragma once

#include <string>
#include <vector>

#include "cli/flags.h"
#include "cli/table_report_runner.h"
#include "common/status.h"

namespace gsys::cli {

// The verb's flag list: `selector` (-r) first, then the shared flags, `help_selector`
// (--help-reports / --help-rules), --help-formats and --help. `item` names what -r selects
// ("report", "rule") in the help text.
std::vector<FlagSpec> TableVerbFlags(const FlagSpec& selector, const FlagSpec& help_selector,
                                     const std::string& item);

// Fills every shared field of `options` (verb, inputs, formats, outputs, time unit, filters,
// --sqlite, overwrite, quiet) from `flags`. Errors start with "`verb`: ".
Status ParseTableRunOptions(const std::string& verb, const ParsedFlags& flags,
                            TableRunOptions* options);

// The topic of --help-reports/--help-rules/--help-formats: given inline (--help-x=NAME) or as
// the next word.
std::string HelpTopic(const ParsedFlags& flags, const std::string& name);

}  // namespace gsys::cli
