// SPDX-License-Identifier: Apache-2.0
// Rule options (`-r name:opt=val:opt=val`). Every rule takes nsys's common options
//   rows=<n>     row limit (default 50, -1 = no limit)      -> template variable `rows`
//   start=<ns>   end=<ns>   nvtx=<range[@domain]>           -> a filter while the rule runs
// plus its own integer options (RuleSpec::options), each a template variable of the same name.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/rules/rule_registry.h"
#include "analysis/stats/sql_template.h"
#include "common/status.h"

namespace gsys::analysis {

inline constexpr int64_t kDefaultRuleRows = 50;

struct BoundRuleArgs {
  TemplateContext ctx;  // vars: rows and every rule option
  int64_t rows = kDefaultRuleRows;
  std::optional<int64_t> start;
  std::optional<int64_t> end;
  std::optional<std::string> nvtx;
  std::map<std::string, int64_t> values;  // every rule option, defaults included
};

// Checks `args` against `spec`: unknown options, missing '=', non-integers and values out of range
// are kInvalidArgument errors naming the rule and the option.
Result<BoundRuleArgs> BindRuleArgs(const RuleSpec& spec, const std::vector<std::string>& args);

// The options section of a rule's help (common options, then the rule's own).
std::string RuleOptionsHelp(const RuleSpec& spec);

// Replaces "{name}" in `text` by the value of option `name`.
std::string ExpandMessage(std::string_view text, const std::map<std::string, int64_t>& values);

}  // namespace gsys::analysis
