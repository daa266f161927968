// SPDX-License-Identifier: Apache-2.0
// `gsys analyze`: expert rules (nsys analyze) over a gsys report or an nsys SQLite export.
#include "analysis/rules/rules.h"
#include "analysis/stats/format/formatter.h"
#include "cli/flags.h"
#include "cli/output.h"
#include "cli/subcommand.h"
#include "cli/table_flags.h"
#include "cli/table_report_runner.h"

namespace gsys::cli {
namespace {

const std::vector<FlagSpec>& AnalyzeFlags() {
  static const std::vector<FlagSpec> kFlags = TableVerbFlags(
      {"rule", 'r', FlagValue::kRequired, "NAME[:OPT=VAL...][,...]",
       "Rules to run (comma lists, repeatable; 'all' = every rule). Default: the\n"
       "default set (see --help-rules)."},
      {"help-rules", 0, FlagValue::kOptional, "NAME|ALL", "List rules, or describe one."}, "rule");
  return kFlags;
}

Result<TableOutcome> RunOneRule(report::ReportReader& reader, const TableJob& job,
                                const std::string& shown) {
  GSYS_ASSIGN_OR_RETURN(analysis::RuleOutcome rule,
                        analysis::RunRule(reader, {job.name, job.args}, shown));
  TableOutcome outcome;
  outcome.skipped = rule.skipped;
  outcome.skip_reason = std::move(rule.skip_reason);
  outcome.title = std::move(rule.title);
  outcome.table = std::move(rule.table);
  outcome.advice = std::move(rule.advice);
  outcome.no_result = std::move(rule.no_result);
  outcome.note = std::move(rule.note);
  return outcome;
}

class AnalyzeCommand : public Subcommand {
 public:
  std::string Name() const override { return "analyze"; }
  std::string Summary() const override {
    return "Expert rules (nsys analyze) over a gsys report or nsys SQLite export";
  }
  std::string Help() const override {
    return "usage: gsys analyze [options] REPORT...\n\n"
           "Runs expert-system rules over gsys reports (.gsys-rep) and nsys SQLite exports:\n"
           "nsys's rules (same logic, columns, order and messages) and gsys's deep-learning\n"
           "rules (see --help-rules and docs/rules.md). A .nsys-rep input uses the .sqlite\n"
           "beside it. Rule options: -r NAME:OPT=VAL:OPT=VAL (rows, start, end, nvtx and the\n"
           "rule's own).\n\n"
           "options:\n" +
           FlagsHelp(AnalyzeFlags());
  }

  Result<int> Run(const std::vector<std::string>& args) override {
    GSYS_ASSIGN_OR_RETURN(ParsedFlags flags, ParseFlags("analyze", AnalyzeFlags(), args, false));
    if (flags.Has("help")) {
      PrintOut(Help());
      return 0;
    }
    if (flags.Has("help-rules")) {
      GSYS_ASSIGN_OR_RETURN(std::string text, analysis::RuleHelp(HelpTopic(flags, "help-rules")));
      PrintOut(text);
      return 0;
    }
    if (flags.Has("help-formats")) {
      PrintOut(analysis::FormatHelp(HelpTopic(flags, "help-formats")));
      return 0;
    }
    TableRunOptions options;
    GSYS_RETURN_IF_ERROR(ParseTableRunOptions("analyze", flags, &options));
    std::vector<analysis::RuleRequest> rules;
    if (flags.All("rule").empty()) {
      for (const auto& name : analysis::DefaultRules()) rules.push_back({name, {}});
    } else {
      GSYS_ASSIGN_OR_RETURN(rules, analysis::ParseRuleList(flags.All("rule")));
    }
    std::vector<TableJob> jobs;
    for (const auto& r : rules) jobs.push_back({r.name, r.args});
    return RunTableJobs(options, jobs, RunOneRule);
  }
};

}  // namespace

std::unique_ptr<Subcommand> MakeAnalyzeCommand() { return std::make_unique<AnalyzeCommand>(); }

}  // namespace gsys::cli
