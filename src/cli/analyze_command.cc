// SPDX-License-Identifier: Apache-2.0
// `gsys analyze`: expert rules (nsys analyze) over a gsys report or an nsys SQLite export.
#include "analysis/rules/rules.h"
#include "analysis/stats/format/formatter.h"
#include "cli/flags.h"
#include "cli/output.h"
#include "cli/subcommand.h"
#include "cli/table_report_runner.h"

namespace gsys::cli {
namespace {

const std::vector<FlagSpec>& AnalyzeFlags() {
  static const std::vector<FlagSpec> kFlags = {
      {"rule", 'r', FlagValue::kRequired, "NAME[:OPT=VAL...][,...]",
       "Rules to run (comma lists, repeatable; 'all' = every rule). Default: the\n"
       "default set (see --help-rules)."},
      {"format", 'f', FlagValue::kRequired, "NAME[:ARG...][,...]",
       "Output format per rule: column, table, csv, tsv, json, hdoc, htable.\n"
       "Default: column on the console, csv for files and commands."},
      {"output", 'o', FlagValue::kRequired, "OUT[,...]",
       "'-' console (default), '@CMD' pipe to a command, '.' or BASENAME:\n"
       "write BASENAME_RULE.EXT."},
      {"timeunit", 0, FlagValue::kRequired, "UNIT", "Time unit for every rule: ns, us, ms, s."},
      {"filter-time", 0, FlagValue::kRequired, "[START]/[END]",
       "Only events overlapping this window (e.g. 1s/2s500ms)."},
      {"filter-nvtx", 0, FlagValue::kRequired, "RANGE[@DOMAIN][/INDEX]",
       "Only events inside the INDEX-th instance of an NVTX range (overrides\n"
       "--filter-time)."},
      {"force-overwrite", 0, FlagValue::kBool, "", "Overwrite existing output files."},
      {"force-export", 0, FlagValue::kBool, "",
       "Accepted for nsys compatibility; reports are read directly."},
      {"sqlite", 0, FlagValue::kRequired, "FILE", "SQLite export to use for a .nsys-rep input."},
      {"quiet", 'q', FlagValue::kNone, "", "Print only the results and errors."},
      {"help-rules", 0, FlagValue::kOptional, "NAME|ALL", "List rules, or describe one."},
      {"help-formats", 0, FlagValue::kOptional, "NAME|ALL", "List formats, or describe one."},
      {"help", 'h', FlagValue::kNone, "", "Show this help."},
  };
  return kFlags;
}

std::string HelpTopic(const ParsedFlags& flags, const std::string& name) {
  std::string topic = flags.Last(name).value_or("");
  if (topic.empty() && !flags.positionals().empty()) topic = flags.positionals().front();
  return topic;
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
    options.verb = "analyze";
    options.inputs = flags.positionals();
    if (options.inputs.empty()) {
      return Error(StatusCode::kInvalidArgument,
                   "analyze: no input report given (usage: gsys analyze [options] REPORT...)");
    }
    std::vector<analysis::RuleRequest> rules;
    if (flags.All("rule").empty()) {
      for (const auto& name : analysis::DefaultRules()) rules.push_back({name, {}});
    } else {
      GSYS_ASSIGN_OR_RETURN(rules, analysis::ParseRuleList(flags.All("rule")));
    }
    std::vector<TableJob> jobs;
    for (const auto& r : rules) jobs.push_back({r.name, r.args});
    options.format_flags = flags.All("format");
    options.output_flags = flags.All("output");
    if (auto unit = flags.Last("timeunit")) {
      GSYS_ASSIGN_OR_RETURN(options.timeunit, analysis::NormalizeTimeUnit(*unit));
    }
    if (auto window = flags.Last("filter-time")) {
      auto parsed = ParseTimeWindow(*window);
      if (!parsed.ok()) {
        return Error(StatusCode::kInvalidArgument,
                     "analyze: --filter-time: " + parsed.status().message());
      }
      options.filter_time = parsed.value();
    }
    options.filter_nvtx = flags.Last("filter-nvtx");
    options.sqlite_path = flags.Last("sqlite");
    options.force_overwrite = flags.Bool("force-overwrite", false);
    options.quiet = flags.Has("quiet");
    return RunTableJobs(options, jobs, RunOneRule);
  }
};

}  // namespace

std::unique_ptr<Subcommand> MakeAnalyzeCommand() { return std::make_unique<AnalyzeCommand>(); }

}  // namespace gsys::cli
