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
#include "analysis/stats/format/json_formatter.h"
#include "cli/data_warnings.h"
#include "cli/output.h"
#include "cli/progress_line.h"
#include "cli/stats_plan.h"
#include "common/one_line.h"
#include "common/strings.h"
#include "report/kineto/kineto_import.h"
#include "report/kineto/kineto_input.h"
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

// nsys accepts X.nsys-rep and uses the X.sqlite export beside it; a torch.profiler trace is read
// through its temporary report (report/kineto/kineto_input.h).
Result<std::string> ResolveInput(const std::string& input, const TableRunOptions& options) {
  if (report::kineto::IsKinetoTracePath(input)) {
    if (options.sqlite_path) {
      return Error(StatusCode::kInvalidArgument,
                   options.verb + ": --sqlite is only valid with a .nsys-rep input");
    }
    return report::kineto::ReadableReport(input, options.verb);
  }
  if (!EndsWith(input, ".nsys-rep") && !EndsWith(input, ".qdrep")) {
    if (options.sqlite_path) {
      return Error(StatusCode::kInvalidArgument,
                   options.verb + ": --sqlite is only valid with a .nsys-rep input");
    }
    return input;
  }
  std::string sqlite = options.sqlite_path.value_or(
      (std::filesystem::path(input).parent_path() / std::filesystem::path(input).stem()).string() +
      ".sqlite");
  struct stat st {};
  if (::stat(sqlite.c_str(), &st) == 0) return sqlite;
  return Error(StatusCode::kUnsupported,
               options.verb + ": '" + input +
                   "' is an nsys capture file; gsys reads its SQLite export: run "
                   "'nsys export --type sqlite " +
                   input + "' first");
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
    GSYS_ASSIGN_OR_RETURN(analysis::FormatRequest format,
                          analysis::ParseFormatRequest(format_text));
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

// What a json job for the console produced, printed once every job ran.
struct ConsoleData {
  std::string key;  // the job: "name" or "name:arg:arg"
  std::string text;
};

// The data of csv/tsv/json jobs for the console: tables printed so far, JSON kept per input.
struct ConsoleSink {
  bool printed_table = false;
  std::vector<std::pair<std::string, std::vector<ConsoleData>>> json;  // by input
};

bool IsDataFormat(const PlannedJob& p) {
  std::string ext = p.formatter->Extension();
  return p.destination.kind == DestinationKind::kConsole &&
         (ext == ".csv" || ext == ".tsv" || ext == ".json");
}

// A json job for the console: its document is joined with the others (JoinConsoleJson).
bool IsConsoleJson(const PlannedJob& p) {
  return IsDataFormat(p) && p.formatter->Extension() == ".json";
}

// The lines of `value` after its first, indented by `indent` (a member of an object).
std::string Indented(std::string value, const std::string& indent) {
  while (!value.empty() && value.back() == '\n') value.pop_back();
  std::string out;
  size_t at = 0;
  for (size_t nl; (nl = value.find('\n', at)) != std::string::npos; at = nl + 1) {
    out += value.substr(at, nl + 1 - at) + indent;
  }
  return out + value.substr(at);
}

std::string JsonObject(const std::vector<std::pair<std::string, std::string>>& members) {
  std::string out = "{";
  for (size_t i = 0; i < members.size(); ++i) {
    out += std::string(i ? "," : "") + "\n  " + analysis::JsonString(members[i].first) + ": " +
           Indented(members[i].second, "  ");
  }
  return out + (members.empty() ? "}" : "\n}");
}

// JSON documents for the console become one document: an object keyed by job when each input
// has several JSON jobs, and by input when there are several inputs (skipped ones are absent).
std::string JoinConsoleJson(
    const std::vector<std::pair<std::string, std::vector<ConsoleData>>>& inputs,
    size_t json_jobs_per_input) {
  bool by_job = json_jobs_per_input > 1, by_input = inputs.size() > 1;
  std::vector<std::pair<std::string, std::string>> per_input;
  for (const auto& in : inputs) {
    std::vector<std::pair<std::string, std::string>> jobs;
    for (const auto& d : in.second) jobs.emplace_back(d.key, d.text);
    if (jobs.empty()) continue;
    per_input.emplace_back(in.first, by_job ? JsonObject(jobs) : jobs[0].second);
  }
  if (per_input.empty()) return "";
  if (!by_input) return per_input[0].second + (by_job ? "\n" : "");
  return JsonObject(per_input) + "\n";
}

Status Emit(const std::string& shown_input, const PlannedJob& p, const TableRunOptions& options,
            Result<TableOutcome> result, ConsoleSink* data) {
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
      auto print = console && data != nullptr ? PrintErr : PrintOut;
      print(processing + "... " + (console ? "\n" : "PROCESSED (EMPTY RESULTS)\n\n"));
      print("SKIPPED: " + outcome.skip_reason + "\n\n");
    }
    return OkStatus();
  }
  bool empty = outcome.table.rows.empty();
  std::string text = p.formatter->Format(outcome.table);
  if (!text.empty() && text.back() != '\n') text += '\n';
  if (console && data != nullptr) {
    // csv/tsv/json to the console: the data alone on stdout (a script's `> x.json` parses),
    // nsys's console lines on stderr (a documented difference).
    if (!options.quiet) {
      PrintErr(processing + "... \n\n ** " + outcome.title + " (" + p.job.name + "):\n\n" +
               Paragraph(outcome.advice) + (empty ? Paragraph(outcome.no_result) : "") +
               Paragraph(outcome.note));
    }
    if (IsConsoleJson(p)) {
      data->json.back().second.push_back(
          {p.job.name + (p.job.args.empty() ? "" : ":" + Join(p.job.args, ":")), std::move(text)});
    } else {  // csv/tsv tables follow each other, one empty line apart
      PrintOut((data->printed_table ? "\n" : "") + text);
      data->printed_table = true;
    }
    return OkStatus();
  }
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
  GSYS_RETURN_IF_ERROR(
      Deliver(p, empty && p.destination.kind == DestinationKind::kFile ? "" : text, options));
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
                                                  const TableJobFn& run_job,
                                                  ProgressLine& progress) {
  constexpr size_t kMaxWorkers = 4;
  size_t workers =
      std::min({plan.size(), kMaxWorkers,
                static_cast<size_t>(std::max(1u, std::thread::hardware_concurrency()))});
  std::vector<std::optional<Result<TableOutcome>>> slots(plan.size());
  std::atomic<size_t> next{0};
  auto drain = [&](report::ReportReader& own) {
    for (size_t i = next++; i < plan.size(); i = next++) {
      slots[i].emplace(run_job(own, plan[i].job, shown_input));
      progress.Done(plan[i].job.name);
    }
  };
  std::vector<std::thread> threads;
  for (size_t w = 1; w < workers; ++w) {
    threads.emplace_back([&] {
      // The caller's reader has run the data checks: a fresh Open would not know that the
      // correlation ids are unique and would sort every API row in each rule that joins them.
      Result<report::ReportReader> extra = reader.OpenAnother();
      if (!extra.ok()) return;  // the main thread covers its share
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
    // A trace is shown by its own name, and output files are named after it (x.json.gz -> x_*),
    // not after its temporary report.
    bool trace = report::kineto::IsKinetoTracePath(input);
    std::string named = trace ? report::kineto::DefaultKinetoReportPath(input) : path;
    GSYS_ASSIGN_OR_RETURN(auto plan, Plan(options, jobs, named));
    prepared.push_back({trace ? input : path, std::move(reader), std::move(plan)});
  }
  ConsoleSink data;
  for (auto& input : prepared) {
    std::vector<Result<TableOutcome>> outcomes;
    {
      // Erased (by its destructor) before the first table is printed.
      ProgressLine progress(!options.quiet, input.plan.size());
      outcomes = ComputeOutcomes(input.reader, input.shown, input.plan, run_job, progress);
    }
    data.json.emplace_back(input.shown, std::vector<ConsoleData>{});
    for (size_t i = 0; i < input.plan.size(); ++i) {
      ConsoleSink* collect = IsDataFormat(input.plan[i]) ? &data : nullptr;
      GSYS_RETURN_IF_ERROR(
          Emit(input.shown, input.plan[i], options, std::move(outcomes[i]), collect));
    }
  }
  size_t json_jobs = 0;
  if (!prepared.empty()) {
    for (const auto& p : prepared[0].plan) json_jobs += IsConsoleJson(p);
  }
  std::string joined = JoinConsoleJson(data.json, json_jobs);
  if (!joined.empty()) PrintOut(joined);
  return 0;
}

}  // namespace gsys::cli
