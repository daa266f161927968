// SPDX-License-Identifier: Apache-2.0
#include "cli/table_report_runner.h"

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <memory>
#include <optional>
#include <thread>

#include "analysis/stats/format/formatter.h"
#include "cli/data_warnings.h"
#include "cli/output.h"
#include "cli/stats_plan.h"
#include "common/one_line.h"
#include "common/strings.h"
#include "report/reader/report_reader.h"

namespace gsys::cli {
namespace {

// One job of the plan, with its formatter and destination resolved.
struct PlannedJob {
  TableJob job;
  std::unique_ptr<analysis::Formatter> formatter;
  Destination destination;
  std::string file_path;  // kFile only
};

std::string ArgsSuffix(const TableJob& j) {
  return j.args.empty() ? "" : "(" + Join(j.args, ":") + ")";
}

Status Prefixed(const TableRunOptions& options, const Status& s) {
  return s.ok() ? s : Error(s.code(), options.verb + ": " + s.message());
}

}  // namespace

// nsys accepts X.nsys-rep and uses the X.sqlite export beside it.
Result<std::string> ResolveInput(const std::string& input, const TableRunOptions& options) {
  if (!EndsWith(input, ".nsys-rep") && !EndsWith(input, ".qdrep")) {
    if (options.sqlite_path) {
      return Error(StatusCode::kInvalidArgument,
                   options.verb + ": --sqlite is only valid with a .nsys-rep input");
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
               options.verb + ": '" + input +
                   "' is an nsys capture file; gsys reads its SQLite export: run "
                   "'nsys export --type sqlite " + input + "' first");
}

namespace {

Result<std::vector<PlannedJob>> Plan(const TableRunOptions& options,
                                     const std::vector<TableJob>& jobs,
                                     const std::string& input_path) {
  std::vector<std::string> formats = ExpandListFlags(options.format_flags);
  std::vector<std::string> outputs = ExpandListFlags(options.output_flags);
  std::vector<PlannedJob> plan;
  for (size_t i = 0; i < jobs.size(); ++i) {
    PlannedJob p;
    p.job = jobs[i];
    GSYS_ASSIGN_OR_RETURN(p.destination, ParseDestination(PairedItem(outputs, i, "-"), input_path));
    std::string format_text = PairedItem(formats, i, "");
    if (format_text.empty() || format_text == ".") {
      format_text = p.destination.kind == DestinationKind::kConsole ? "column" : "csv";
    }
    GSYS_ASSIGN_OR_RETURN(analysis::FormatRequest format, analysis::ParseFormatRequest(format_text));
    GSYS_ASSIGN_OR_RETURN(p.formatter, analysis::MakeFormatter(format, options.timeunit));
    if (p.destination.kind == DestinationKind::kFile) {
      p.file_path =
          OutputFileName(p.destination.target, p.job.name, p.job.args, p.formatter->Extension());
      GSYS_RETURN_IF_ERROR(Prefixed(options, CheckWritable(p.file_path, options.force_overwrite)));
      for (const auto& earlier : plan) {
        if (earlier.file_path == p.file_path) {
          return Error(StatusCode::kInvalidArgument,
                       options.verb + ": two " + (options.verb == "stats" ? "reports" : "rules") +
                           " would write '" + p.file_path + "'");
        }
      }
    }
    plan.push_back(std::move(p));
  }
  return plan;
}

Status ApplyFilters(report::ReportReader& reader, const TableRunOptions& options) {
  if (options.filter_nvtx) {  // overrides --filter-time, as in nsys
    GSYS_ASSIGN_OR_RETURN(auto filter, reader.ResolveNvtxFilter(*options.filter_nvtx));
    return reader.SetNvtxFilter(filter);
  }
  if (options.filter_time) {
    return reader.SetTimeWindow({options.filter_time->start, options.filter_time->end});
  }
  return OkStatus();
}

Status Deliver(const PlannedJob& p, const std::string& text, const TableRunOptions& options) {
  switch (p.destination.kind) {
    case DestinationKind::kConsole:
      PrintOut(text);
      return OkStatus();
    case DestinationKind::kFile:
      return Prefixed(options, WriteFileAtomically(p.file_path, text, options.force_overwrite));
    case DestinationKind::kCommand:
      return Prefixed(options, PipeToCommand(p.destination.target, text));
  }
  return OkStatus();
}

std::string Paragraph(const std::string& text) {
  return text.empty() ? "" : text + (text.back() == '\n' ? "\n" : "\n\n");
}

Status Emit(const std::string& shown_input, const PlannedJob& p, const TableRunOptions& options,
            Result<TableOutcome> result) {
  std::string processing =
      "Processing [" + OneLine(shown_input) + "] with [" + p.job.name + "]" + ArgsSuffix(p.job);
  if (p.destination.kind == DestinationKind::kFile) {
    processing += " to [" + OneLine(p.file_path) + "]";  // as given, as nsys 2025.3.1 prints it
  } else if (p.destination.kind == DestinationKind::kCommand) {
    processing += " to [@" + p.destination.target + "]";
  }
  GSYS_ASSIGN_OR_RETURN(TableOutcome outcome, std::move(result));
  bool console = p.destination.kind == DestinationKind::kConsole;
  if (outcome.skipped) {
    // As nsys 2025.3.1 does (seen on the H200 machine): a skipped report sent to a file leaves
    // a zero-byte file and says "PROCESSED (EMPTY RESULTS)" before the SKIPPED line.
    if (p.destination.kind == DestinationKind::kFile) GSYS_RETURN_IF_ERROR(Deliver(p, "", options));
    if (!options.quiet) {
      PrintOut(processing + "... " + (console ? "\n" : "PROCESSED (EMPTY RESULTS)\n\n"));
      PrintOut("SKIPPED: " + outcome.skip_reason + "\n\n");
    }
    return OkStatus();
  }
  bool empty = outcome.table.rows.empty();
  std::string text = p.formatter->Format(outcome.table);
  if (!text.empty() && text.back() != '\n') text += '\n';
  if (console) {
    if (!options.quiet) PrintOut(processing + "... \n\n");
    std::string body = " ** " + outcome.title + " (" + p.job.name + "):\n\n";
    if (empty && !outcome.no_result.empty()) {
      body += Paragraph(outcome.no_result);
    } else {
      // A note ("Only the top 50 results...") is followed by two empty lines in nsys 2025.3.1.
      body += Paragraph(outcome.advice) + text + "\n" + Paragraph(outcome.note) +
              (outcome.note.empty() ? "" : "\n");
    }
    PrintOut(body);
    return OkStatus();
  }
  // nsys 2025.3.1 writes a zero-byte file for a report or rule without rows, also no header
  // (every empty result of the parity corpus, tests/parity).
  GSYS_RETURN_IF_ERROR(Deliver(p, empty && p.destination.kind == DestinationKind::kFile ? "" : text,
                               options));
  if (!options.quiet) {
    PrintOut(processing + "... PROCESSED" +
             (empty ? std::string(" (EMPTY RESULTS)") : std::string()) + "\n\n");
  }
  return OkStatus();
}

// Runs every job of one input. Independent jobs run on up to kMaxWorkers threads, each with its
// own connection (SQLite connections are single-threaded here), since the reports are CPU-bound
// scans of read-only tables: the default set on a 10 M-kernel report takes about half the time
// on two cores. Outcomes come back in plan order, so output is identical to a serial run.
std::vector<Result<TableOutcome>> ComputeOutcomes(report::ReportReader& reader,
                                                  const std::string& shown_input,
                                                  const std::vector<PlannedJob>& plan,
                                                  const TableRunOptions& options,
                                                  const TableJobFn& run_job) {
  constexpr size_t kMaxWorkers = 4;
  size_t workers = std::min({plan.size(), kMaxWorkers,
                             static_cast<size_t>(std::max(1u, std::thread::hardware_concurrency()))});
  std::vector<std::optional<Result<TableOutcome>>> slots(plan.size());
  std::atomic<size_t> next{0};
  auto drain = [&](report::ReportReader& own) {
    for (size_t i = next++; i < plan.size(); i = next++) {
      slots[i].emplace(run_job(own, plan[i].job, shown_input));
    }
  };
  std::vector<std::thread> threads;
  for (size_t w = 1; w < workers; ++w) {
    threads.emplace_back([&] {
      Result<report::ReportReader> extra = report::ReportReader::Open(reader.path());
      if (!extra.ok() || !ApplyFilters(extra.value(), options).ok()) return;  // main thread covers
      drain(extra.value());
    });
  }
  drain(reader);
  for (auto& t : threads) t.join();
  std::vector<Result<TableOutcome>> outcomes;
  outcomes.reserve(plan.size());
  for (auto& slot : slots) outcomes.push_back(std::move(*slot));
  return outcomes;
}

}  // namespace

Result<int> RunTableJobs(const TableRunOptions& options, const std::vector<TableJob>& jobs,
                         const TableJobFn& run_job) {
  // Open and plan every input before running anything, so a bad input or an
  // unwritable output leaves no partial output behind.
  struct Prepared {
    std::string shown;
    report::ReportReader reader;
    std::vector<PlannedJob> plan;
  };
  std::vector<Prepared> prepared;
  for (const auto& input : options.inputs) {
    GSYS_ASSIGN_OR_RETURN(std::string path, ResolveInput(input, options));
    GSYS_ASSIGN_OR_RETURN(report::ReportReader reader, report::ReportReader::Open(path));
    WarnAboutData(reader);  // the whole file: before the filters hide rows
    GSYS_RETURN_IF_ERROR(ApplyFilters(reader, options));
    GSYS_ASSIGN_OR_RETURN(auto plan, Plan(options, jobs, path));
    prepared.push_back({path, std::move(reader), std::move(plan)});
  }
  for (auto& input : prepared) {
    std::vector<Result<TableOutcome>> outcomes =
        ComputeOutcomes(input.reader, input.shown, input.plan, options, run_job);
    for (size_t i = 0; i < input.plan.size(); ++i) {
      GSYS_RETURN_IF_ERROR(Emit(input.shown, input.plan[i], options, std::move(outcomes[i])));
    }
  }
  return 0;
}

}  // namespace gsys::cli
