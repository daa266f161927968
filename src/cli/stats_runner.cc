// SPDX-License-Identifier: Apache-2.0
#include "cli/stats_runner.h"

#include <sys/stat.h>

#include <filesystem>
#include <memory>

#include "analysis/stats/format/formatter.h"
#include "analysis/stats/stats_engine.h"
#include "cli/output.h"
#include "cli/stats_plan.h"
#include "common/strings.h"
#include "report/reader/report_reader.h"

namespace gsys::cli {
namespace {

using analysis::ReportRequest;

// One report of the plan, with its formatter and destination resolved.
struct PlannedReport {
  ReportRequest request;
  std::unique_ptr<analysis::Formatter> formatter;
  Destination destination;
  std::string file_path;  // kFile only
};

std::string ArgsSuffix(const ReportRequest& r) {
  return r.args.empty() ? "" : "(" + Join(r.args, ":") + ")";
}

// nsys accepts X.nsys-rep and uses the X.sqlite export beside it.
Result<std::string> ResolveInput(const std::string& input, const StatsOptions& options) {
  if (!EndsWith(input, ".nsys-rep") && !EndsWith(input, ".qdrep")) {
    if (options.sqlite_path) {
      return Error(StatusCode::kInvalidArgument,
                   "stats: --sqlite is only valid with a .nsys-rep input");
    }
    return input;
  }
  std::string sqlite = options.sqlite_path.value_or(
      (std::filesystem::path(input).parent_path() / std::filesystem::path(input).stem())
          .string() +
      ".sqlite");
  struct stat st {};
  if (::stat(sqlite.c_str(), &st) == 0) return sqlite;
  return Error(StatusCode::kUnsupported,
               "stats: '" + input + "' is an nsys capture file; gsys reads its SQLite export: run "
               "'nsys export --type sqlite " + input + "' first");
}

Result<std::vector<PlannedReport>> Plan(const StatsOptions& options,
                                        const std::vector<ReportRequest>& requests,
                                        const std::string& input_path) {
  std::vector<std::string> formats = ExpandListFlags(options.format_flags);
  std::vector<std::string> outputs = ExpandListFlags(options.output_flags);
  std::vector<PlannedReport> plan;
  for (size_t i = 0; i < requests.size(); ++i) {
    PlannedReport p;
    p.request = requests[i];
    GSYS_ASSIGN_OR_RETURN(p.destination, ParseDestination(PairedItem(outputs, i, "-"), input_path));
    std::string format_text = PairedItem(formats, i, "");
    if (format_text.empty() || format_text == ".") {
      format_text = p.destination.kind == DestinationKind::kConsole ? "column" : "csv";
    }
    GSYS_ASSIGN_OR_RETURN(analysis::FormatRequest format, analysis::ParseFormatRequest(format_text));
    GSYS_ASSIGN_OR_RETURN(p.formatter, analysis::MakeFormatter(format, options.timeunit));
    if (p.destination.kind == DestinationKind::kFile) {
      p.file_path = OutputFileName(p.destination.target, p.request.name, p.request.args,
                                   p.formatter->Extension());
      Status writable = CheckWritable(p.file_path, options.force_overwrite);
      if (!writable.ok()) return Error(writable.code(), "stats: " + writable.message());
      for (const auto& earlier : plan) {
        if (earlier.file_path == p.file_path) {
          return Error(StatusCode::kInvalidArgument,
                       "stats: two reports would write '" + p.file_path + "'");
        }
      }
    }
    plan.push_back(std::move(p));
  }
  return plan;
}

Status ApplyFilters(report::ReportReader& reader, const StatsOptions& options) {
  if (options.filter_nvtx) {  // overrides --filter-time, as in nsys
    GSYS_ASSIGN_OR_RETURN(auto filter, reader.ResolveNvtxFilter(*options.filter_nvtx));
    return reader.SetNvtxFilter(filter);
  }
  if (options.filter_time) {
    return reader.SetTimeWindow({options.filter_time->start, options.filter_time->end});
  }
  return OkStatus();
}

Status Deliver(const PlannedReport& p, const std::string& text, const StatsOptions& options) {
  switch (p.destination.kind) {
    case DestinationKind::kConsole:
      PrintOut(text);
      return OkStatus();
    case DestinationKind::kFile: {
      Status s = WriteFileAtomically(p.file_path, text, options.force_overwrite);
      return s.ok() ? s : Error(s.code(), "stats: " + s.message());
    }
    case DestinationKind::kCommand: {
      Status s = PipeToCommand(p.destination.target, text);
      return s.ok() ? s : Error(s.code(), "stats: " + s.message());
    }
  }
  return OkStatus();
}

Status RunOne(report::ReportReader& reader, const std::string& shown_input,
              const PlannedReport& p, const StatsOptions& options) {
  std::string processing = "Processing [" + shown_input + "] with [" + p.request.name + "]" +
                           ArgsSuffix(p.request);
  if (p.destination.kind == DestinationKind::kFile) {
    processing += " to [" + AbsolutePath(p.file_path) + "]";
  } else if (p.destination.kind == DestinationKind::kCommand) {
    processing += " to [@" + p.destination.target + "]";
  }
  GSYS_ASSIGN_OR_RETURN(analysis::ReportOutcome outcome, analysis::RunReport(reader, p.request));
  bool console = p.destination.kind == DestinationKind::kConsole;
  if (outcome.skipped) {
    if (!options.quiet) {
      PrintOut(processing + "... " + (console ? "\n" : "SKIPPED\n"));
      PrintOut("SKIPPED: " + shown_input + " does not contain " + outcome.missing_data + ".\n\n");
    }
    return OkStatus();
  }
  std::string text = p.formatter->Format(outcome.table);
  if (!text.empty() && text.back() != '\n') text += '\n';
  if (console) {
    if (!options.quiet) PrintOut(processing + "... \n\n");
    PrintOut(" ** " + outcome.title + " (" + p.request.name + "):\n\n" + text + "\n");
    return OkStatus();
  }
  GSYS_RETURN_IF_ERROR(Deliver(p, text, options));
  if (!options.quiet) {
    PrintOut(processing + "... PROCESSED" +
             (outcome.table.rows.empty() ? std::string(" (EMPTY RESULTS)") : std::string()) +
             "\n");
  }
  return OkStatus();
}

}  // namespace

Result<int> RunStats(const StatsOptions& options) {
  std::vector<ReportRequest> requests;
  if (options.report_flags.empty()) {
    for (const auto& name : analysis::DefaultReports()) requests.push_back({name, {}});
  } else {
    GSYS_ASSIGN_OR_RETURN(requests, analysis::ParseReportList(options.report_flags));
  }
  // Open and plan every input before running anything, so a bad input or an
  // unwritable output leaves no partial output behind.
  struct Prepared {
    std::string shown;
    report::ReportReader reader;
    std::vector<PlannedReport> plan;
  };
  std::vector<Prepared> prepared;
  for (const auto& input : options.inputs) {
    GSYS_ASSIGN_OR_RETURN(std::string path, ResolveInput(input, options));
    GSYS_ASSIGN_OR_RETURN(report::ReportReader reader, report::ReportReader::Open(path));
    GSYS_RETURN_IF_ERROR(ApplyFilters(reader, options));
    GSYS_ASSIGN_OR_RETURN(auto plan, Plan(options, requests, path));
    prepared.push_back({path, std::move(reader), std::move(plan)});
  }
  for (auto& input : prepared) {
    for (const auto& p : input.plan) {
      GSYS_RETURN_IF_ERROR(RunOne(input.reader, input.shown, p, options));
    }
  }
  return 0;
}

}  // namespace gsys::cli
