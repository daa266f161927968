// SPDX-License-Identifier: Apache-2.0
// Which implementation of a rule runs: RunRule takes the C++ stage where a rule has one and the
// data suits it (native/native_stages.h); tests run both and compare their tables.
#pragma once

#include <string>

#include "analysis/rules/rules.h"

namespace gsys::analysis {

enum class RulePath {
  kAuto,        // the C++ stage when it takes the data, else the SQL (what RunRule does)
  kSqlOnly,     // the rule's SQL
  kNativeOnly,  // the C++ stage; kUnsupported when the rule has none or it declines the data
};

// RunRule with the implementation chosen by `path`.
Result<RuleOutcome> RunRuleWith(gsys::report::ReportReader& reader, const RuleRequest& request,
                                const std::string& shown_input, RulePath path);

}  // namespace gsys::analysis
