// SPDX-License-Identifier: Apache-2.0
// `gsys stats`: nsys-compatible summary reports over a gsys report or an nsys SQLite export.
#include "analysis/stats/format/formatter.h"
#include "analysis/stats/stats_engine.h"
#include "cli/flags.h"
#include "cli/output.h"
#include "cli/stats_runner.h"
#include "cli/subcommand.h"
#include "cli/table_flags.h"

namespace gsys::cli {
namespace {

const std::vector<FlagSpec>& StatsFlags() {
  static const std::vector<FlagSpec> kFlags = TableVerbFlags(
      {"report", 'r', FlagValue::kRequired, "NAME[:ARG...][,...]",
       "Reports to run (comma lists, repeatable). Default: the default set\n"
       "(see --help-reports)."},
      {"help-reports", 0, FlagValue::kOptional, "NAME|ALL", "List reports, or describe one."},
      "report");
  return kFlags;
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
      PrintOut(analysis::FormatHelp(topic));
      return 0;
    }
    TableRunOptions options;
    GSYS_RETURN_IF_ERROR(ParseTableRunOptions("stats", flags, &options));
    return RunStats(options, flags.All("report"));
  }
};

}  // namespace

std::unique_ptr<Subcommand> MakeStatsCommand() { return std::make_unique<StatsCommand>(); }

}  // namespace gsys::cli
