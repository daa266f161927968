// SPDX-License-Identifier: Apache-2.0
// gsys analyze: expert rules over a report. Each rule is rules/<name>.sql plus one line in
// rule_registry.cc; nsys's rules keep nsys's logic, columns, order and messages.
#pragma once

#include <string>
#include <vector>

#include "analysis/stats/result_table.h"
#include "common/status.h"

namespace gsys::report {
class ReportReader;
}

namespace gsys::analysis {

// One rule to run with its options as given after ':' ("gap=100", "rows=-1").
struct RuleRequest {
  std::string name;
  std::vector<std::string> args;
};

// Parses the values of every -r/--rule flag: comma lists, repeatable, an empty item repeats the
// previous rule, "all" expands to every rule. Unknown rules (with the closest name) and bad
// options are kInvalidArgument errors starting with "analyze: ".
Result<std::vector<RuleRequest>> ParseRuleList(const std::vector<std::string>& flag_values);

// The rules run without -r: nsys's default set (the nsys rules gsys has), in nsys's order.
std::vector<std::string> DefaultRules();
// Every rule name, sorted.
std::vector<std::string> AllRuleNames();

struct RuleOutcome {
  bool skipped = false;
  std::string skip_reason;  // when skipped: one sentence naming the input and the missing data
  std::string title;        // "GPU Gaps"
  std::string advice;       // what the rows mean and how to fix them
  std::string no_result;    // the sentence shown when no row is found
  std::string note;         // "Only the top 50 results are displayed..." when the limit was hit
  ResultTable table;
};

// Runs one rule on `reader` (`shown_input` names it in messages). Rule options start=/end=/nvtx=
// replace the reader's filter while the rule runs and restore it afterwards. Errors:
// kInvalidArgument for an unknown rule or bad options, kBadInput when the SQL fails.
Result<RuleOutcome> RunRule(gsys::report::ReportReader& reader, const RuleRequest& request,
                            const std::string& shown_input);

// --help-rules: "" lists the rules, "ALL" describes every rule, else one rule (an unknown name is
// a kInvalidArgument error).
Result<std::string> RuleHelp(const std::string& name);

}  // namespace gsys::analysis
