// SPDX-License-Identifier: Apache-2.0
// The registry of analyze rules: one RuleSpec per rule (rule_registry.cc), its SQL in
// rules/<name>.sql, embedded at build time.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gsys::analysis {

// An integer option `name=<value>` of one rule; becomes the SQL template variable `name`.
struct RuleOption {
  std::string_view name;
  int64_t default_value;
  int64_t min;
  int64_t max;
  std::string_view help;  // "gap=<ms> - ..." continuation lines are indented by RuleHelp
};

// Data a rule needs: one of `any_of` must hold rows, else SKIPPED with `reason`, where
// "{DBFILE}" stands for the input's path.
struct RuleNeed {
  std::vector<std::string_view> any_of;
  std::string_view reason;
};

struct RuleSpec {
  std::string_view name;
  std::string_view title;
  bool in_default_set;  // nsys's default set
  std::vector<RuleNeed> needs;
  std::vector<RuleOption> options;
  // Messages; "{option}" is replaced by the option's value.
  std::string advice;
  std::string no_result;
  std::string description;  // --help-rules: output columns and what the rule identifies
};

// All rules, sorted by name.
const std::vector<RuleSpec>& RuleSpecs();
// nullptr when `name` is not a rule.
const RuleSpec* FindRuleSpec(std::string_view name);
// The SQL of rule or partial `name` (partials start with '_'); empty when none was embedded.
std::string_view RuleSql(std::string_view name);

}  // namespace gsys::analysis
