// SPDX-License-Identifier: Apache-2.0
// `gsys stats`: nsys-compatible summary reports over a gsys report or an nsys SQLite export.
#include "analysis/stats/format/formatter.h"
#include "analysis/stats/stats_engine.h"
#include "cli/flags.h"
#include "cli/output.h"
#include "cli/stats_runner.h"
#include "cli/subcommand.h"

namespace gsys::cli {
namespace {

const std::vector<FlagSpec>& StatsFlags() {
  static const std::vector<FlagSpec> kFlags = {
      {"report", 'r', FlagValue::kRequired, "NAME[:ARG...][,...]",
       "Reports to run (comma lists, repeatable). Default: the default set\n"
       "(see --help-reports)."},
      {"format", 'f', FlagValue::kRequired, "NAME[:ARG...][,...]",
       "Output format per report: column, table, csv, tsv, json, hdoc, htable.\n"
       "Default: column on the console, csv for files and commands."},
      {"output", 'o', FlagValue::kRequired, "OUT[,...]",
       "'-' console (default), '@CMD' pipe to a command, '.' or BASENAME:\n"
       "write BASENAME_REPORT.EXT."},
      {"timeunit", 0, FlagValue::kRequired, "UNIT", "Time unit for every report: ns, us, ms, s."},
      {"filter-time", 0, FlagValue::kRequired, "[START]/[END]",
       "Only events overlapping this window (e.g. 1s/2s500ms)."},
      {"filter-nvtx", 0, FlagValue::kRequired, "RANGE[@DOMAIN][/INDEX]",
       "Only events inside the INDEX-th instance of an NVTX range (overrides\n"
       "--filter-time)."},
      {"force-overwrite", 0, FlagValue::kBool, "", "Overwrite existing output files."},
      {"force-export", 0, FlagValue::kBool, "",
       "Accepted for nsys compatibility; reports are read directly."},
      {"sqlite", 0, FlagValue::kRequired, "FILE", "SQLite export to use for a .nsys-rep input."},
      {"quiet", 'q', FlagValue::kNone, "", "Print only the reports and errors."},
      {"help-reports", 0, FlagValue::kOptional, "NAME|ALL", "List reports, or describe one."},
      {"help-formats", 0, FlagValue::kOptional, "NAME|ALL", "List formats, or describe one."},
      {"help", 'h', FlagValue::kNone, "", "Show this help."},
  };
  return kFlags;
}

// --help-reports / --help-formats take an optional name, given inline or as the next word.
std::string HelpTopic(const ParsedFlags& flags, const std::string& name) {
  std::string topic = flags.Last(name).value_or("");
  if (topic.empty() && !flags.positionals().empty()) topic = flags.positionals().front();
  return topic;
}

class StatsCommand : public Subcommand {
 public:
  std::string Name() const override { return "stats"; }
  std::string Summary() const override {
    return "Summary reports (nsys stats) over a gsys report or nsys SQLite export";
  }
  std::string Help() const override {
    return "usage: gsys stats [options] REPORT...\n\n"
           "Runs nsys-compatible statistical reports over gsys reports (.gsys-rep) and nsys\n"
           "SQLite exports (2020.3 to 2026.x). A .nsys-rep input uses the .sqlite beside it.\n\n"
           "options:\n" +
           FlagsHelp(StatsFlags());
  }

  Result<int> Run(const std::vector<std::string>& args) override {
    GSYS_ASSIGN_OR_RETURN(ParsedFlags flags, ParseFlags("stats", StatsFlags(), args, false));
    if (flags.Has("help")) {
      PrintOut(Help());
      return 0;
    }
    if (flags.Has("help-reports")) {
      std::string topic = HelpTopic(flags, "help-reports");
      if (!topic.empty() && topic != "ALL") {
        // Validates the name (with a suggestion) before printing its help.
        GSYS_ASSIGN_OR_RETURN(auto requests, analysis::ParseReportList({topic}));
        topic = requests.front().name;
      }
      PrintOut(analysis::ReportHelp(topic));
      return 0;
    }
    if (flags.Has("help-formats")) {
      std::string topic = HelpTopic(flags, "help-formats");
      PrintOut(analysis::FormatHelp(topic.empty() ? "" : topic));
      return 0;
    }
    StatsOptions options;
    options.inputs = flags.positionals();
    if (options.inputs.empty()) {
      return Error(StatusCode::kInvalidArgument,
                   "stats: no input report given (usage: gsys stats [options] REPORT...)");
    }
    options.report_flags = flags.All("report");
    options.format_flags = flags.All("format");
    options.output_flags = flags.All("output");
    if (auto unit = flags.Last("timeunit")) {
      auto normalized = analysis::NormalizeTimeUnit(*unit);
      if (!normalized.ok()) return normalized.status();
      options.timeunit = normalized.value();
    }
    if (auto window = flags.Last("filter-time")) {
      auto parsed = ParseTimeWindow(*window);
      if (!parsed.ok()) return Error(StatusCode::kInvalidArgument, "stats: --filter-time: " + parsed.status().message());
      options.filter_time = parsed.value();
    }
    options.filter_nvtx = flags.Last("filter-nvtx");
    options.sqlite_path = flags.Last("sqlite");
    options.force_overwrite = flags.Bool("force-overwrite", false);
    options.quiet = flags.Has("quiet");
    return RunStats(options);
  }
};

}  // namespace

std::unique_ptr<Subcommand> MakeStatsCommand() { return std::make_unique<StatsCommand>(); }

}  // namespace gsys::cli
