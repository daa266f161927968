// SPDX-License-Identifier: Apache-2.0
// `gsys export --type TYPE [-o OUT] [-f] [--tables REGEX] REPORT`: a report as a Perfetto trace,
// Chrome trace JSON, JSON lines, CSV tables or an nsys-compatible SQLite copy.
#include <cstdio>

#include "cli/data_warnings.h"
#include "cli/flags.h"
#include "cli/output.h"
#include "cli/subcommand.h"
#include "common/one_line.h"
#include "common/output_path.h"
#include "common/strings.h"
#include "export/exporter.h"

namespace gsys::cli {
namespace {

const std::vector<FlagSpec>& ExportFlags() {
  static const std::vector<FlagSpec> kFlags = {
      {"type", 't', FlagValue::kRequired, "TYPE",
       "Output format (required): perfetto, chrome, kineto, jsonlines, csv, sqlite."},
      {"output", 'o', FlagValue::kRequired, "OUT",
       "Output file (a directory for kineto and csv). Default: REPORT with its\n"
       "extension replaced: .pftrace, .json, _kineto/, .jsonl, _csv/, .sqlite."},
      {"force-overwrite", 'f', FlagValue::kBool, "", "Overwrite an existing output."},
      {"tables", 0, FlagValue::kRequired, "REGEX[,...]",
       "Only tables whose whole name matches one of these case-insensitive\n"
       "POSIX basic regexes (timeline formats: the event tables they read)."},
      {"csv-raw", 0, FlagValue::kNone, "",
       "csv: write text values starting with = + - @ as they are. By default\n"
       "they get a leading ' so that spreadsheets do not run them as formulas."},
      {"quiet", 'q', FlagValue::kNone, "", "No summary line."},
      {"help", 'h', FlagValue::kNone, "", "Show this help."},
  };
  return kFlags;
}

class ExportCommand : public Subcommand {
 public:
  std::string Name() const override { return "export"; }
  std::string Summary() const override {
    return "Export a report: Perfetto, Chrome JSON, Kineto, JSON lines, CSV, SQLite";
  }
  std::string Help() const override {
    return "usage: gsys export --type TYPE [options] REPORT\n"
           "       gsys export --type perfetto -o OUT [options] REPORT REPORT...\n\n"
           "Writes a gsys report (.gsys-rep) or nsys SQLite export as a timeline (perfetto,\n"
           "chrome, kineto: one torch.profiler trace per rank, which HTA's\n"
           "TraceAnalysis(trace_dir=OUT) loads) or as tables (jsonlines, csv, sqlite). Rows\n"
           "are streamed in time order; memory does not grow with the report. Outputs are\n"
           "written under a temporary name and renamed into place, so a failed export\n"
           "leaves nothing behind.\n"
           "Several reports (e.g. one per rank) merge into one Perfetto trace: each keeps its\n"
           "own process and GPU tracks (GPU tracks named after the report file) and is shifted\n"
           "by its session start, so the ranks line up on one time axis.\n\n"
           "types:\n" +
           export_::ExporterHelp() + "\noptions:\n" + FlagsHelp(ExportFlags());
  }

  Result<int> Run(const std::vector<std::string>& args) override {
    GSYS_ASSIGN_OR_RETURN(ParsedFlags flags, ParseFlags("export", ExportFlags(), args, false));
    if (flags.Has("help")) {
      PrintOut(Help());
      return 0;
    }
    auto type = flags.Last("type");
    if (!type) {
      return Error(StatusCode::kInvalidArgument,
                   "export: --type is required (" + Join(export_::ExporterNames(), ", ") + ")");
    }
    if (flags.positionals().empty()) {
      return Error(StatusCode::kInvalidArgument,
                   "export: no input report given (usage: gsys export --type TYPE REPORT)");
    }
    export_::ExportOptions options;
    if (auto out = flags.Last("output")) {
      // Every output path goes through the one resolver (common/output_path.h).
      GSYS_ASSIGN_OR_RETURN(options.output,
                            ResolveOutputPath(*out, {"export: bad --output '" + *out + "'", ""}));
    }
    options.overwrite = flags.Bool("force-overwrite", false);
    options.tables = flags.Last("tables").value_or("");
    options.csv_raw = flags.Has("csv-raw");
    const std::string& report = flags.positionals()[0];
    const bool merge = flags.positionals().size() > 1;
    if (merge) {
      GSYS_ASSIGN_OR_RETURN(auto exporter, export_::MakeExporter(*type));
      if (!exporter->MergesReports()) {
        return Error(StatusCode::kInvalidArgument, "export: expected one REPORT for --type " +
                                                       *type + ", got " +
                                                       std::to_string(flags.positionals().size()) +
                                                       " (only perfetto merges several reports)");
      }
    }
    GSYS_ASSIGN_OR_RETURN(export_::ExportStats stats,
                          merge ? export_::RunExportMerged(flags.positionals(), *type, options)
                                : export_::RunExport(report, *type, options));
    PrintDataWarnings(stats.data_warnings);
    if (!flags.Has("quiet")) {
      std::string out = options.output;
      if (out.empty()) {
        GSYS_ASSIGN_OR_RETURN(auto exporter, export_::MakeExporter(*type));
        out = export_::DefaultOutputPath(report, *exporter);
      }
      std::string what = stats.tables > 0
                             ? GroupThousands(std::to_string(stats.events)) + " rows from " +
                                   std::to_string(stats.tables) + " tables"
                             : GroupThousands(std::to_string(stats.events)) + " events, " +
                                   GroupThousands(std::to_string(stats.flows)) + " flows";
      PrintErr("gsys: exported " + OneLine(out) + " (" + what + ")\n");
    }
    return 0;
  }
};

}  // namespace

std::unique_ptr<Subcommand> MakeExportCommand() { return std::make_unique<ExportCommand>(); }

}  // namespace gsys::cli
