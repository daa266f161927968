// SPDX-License-Identifier: Apache-2.0
// `gsys summary`: one self-contained HTML page per report with the default stats reports, the
// analyze findings and GPU utilization over time.
#include <filesystem>

#include "cli/data_warnings.h"
#include "cli/flags.h"
#include "cli/output.h"
#include "cli/subcommand.h"
#include "cli/summary_command_page.h"
#include "cli/table_report_runner.h"
#include "cli/time_spec.h"
#include "common/command_text.h"
#include "common/one_line.h"
#include "common/output_path.h"
#include "common/strings.h"
#include "html/page.h"
#include "report/kineto/kineto_import.h"
#include "report/reader/data_check.h"
#include "report/reader/report_reader.h"

namespace gsys::cli {
namespace {

const std::vector<FlagSpec>& SummaryFlags() {
  static const std::vector<FlagSpec> kFlags = {
      {"output", 'o', FlagValue::kRequired, "PAGE.html",
       "Where to write the page ('-': stdout). Default: beside the report,\n"
       "named like it with .html (run.sqlite -> run.html)."},
      {"force-overwrite", 'f', FlagValue::kBool, "", "Overwrite an existing page."},
      {"bins", 0, FlagValue::kRequired, "N",
       "Time bins of the GPU utilization chart (1 to 10000, default 100)."},
      {"filter-time", 0, FlagValue::kRequired, "[START]/[END]",
       "Only events overlapping this window (e.g. 1s/2s500ms), on the whole\n"
       "page: timeline, charts, stats tables and findings."},
      {"filter-nvtx", 0, FlagValue::kRequired, "RANGE[@DOMAIN][/INDEX]",
       "Only events inside the INDEX-th instance of an NVTX range (every\n"
       "instance without /INDEX), on the whole page; overrides --filter-time."},
      {"sqlite", 0, FlagValue::kRequired, "FILE", "SQLite export to use for a .nsys-rep input."},
      {"quiet", 'q', FlagValue::kNone, "", "Print only errors."},
      {"help", 'h', FlagValue::kNone, "", "Show this help."},
  };
  return kFlags;
}

std::string DefaultPagePath(const std::string& input) {
  std::filesystem::path p(report::kineto::IsKinetoTracePath(input)
                              ? report::kineto::DefaultKinetoReportPath(input)
                              : input);
  return (p.parent_path() / p.stem()).string() + ".html";
}

// --filter-nvtx (which overrides --filter-time, as in `gsys stats`) or --filter-time on `reader`,
// and the subtitle line that says so.
Status ApplyFilter(const ParsedFlags& flags, report::ReportReader& reader,
                   SummaryOptions* options) {
  if (auto nvtx = flags.Last("filter-nvtx")) {
    auto filter = reader.ResolveNvtxFilter(*nvtx);
    if (!filter.ok()) {
      std::string message = filter.status().message();
      if (StartsWith(message, "report: ")) message = message.substr(8);
      return Error(filter.status().code(), "summary: --filter-nvtx: " + message);
    }
    options->filter_note = "Only events inside NVTX range '" + *nvtx + "' (--filter-nvtx)";
    return reader.SetNvtxFilter(filter.value());
  }
  if (auto window = flags.Last("filter-time")) {
    auto parsed = ParseTimeWindow(*window);
    if (!parsed.ok()) {
      return Error(StatusCode::kInvalidArgument,
                   "summary: --filter-time: " + parsed.status().message());
    }
    options->filter_note = "Only events overlapping " + *window + " (--filter-time)";
    return reader.SetTimeWindow({parsed->start, parsed->end});
  }
  return OkStatus();
}

class SummaryCommand : public Subcommand {
 public:
  std::string Name() const override { return "summary"; }
  std::string Summary() const override {
    return "One self-contained HTML page: stats, analyze findings, GPU utilization";
  }
  std::string Help() const override {
    return "usage: gsys summary [options] REPORT\n\n"
           "Writes one self-contained HTML page (no network needed to open it) for a gsys\n"
           "report (.gsys-rep) or an nsys SQLite export: a zoomable timeline (rows per GPU\n"
           "stream and per thread: kernels, copies, NVTX ranges, CUDA API and OS runtime\n"
           "calls, CPU-sample density; at most 1,000,000 events, the earliest), GPU\n"
           "utilization over time (busy % of each GPU per time bin), the top kernels, NVTX\n"
           "ranges and OS runtime calls, every default `gsys stats` report as a sortable\n"
           "table, and the default `gsys analyze` findings. A .nsys-rep input uses the\n"
           ".sqlite beside it. Exit codes are those of `gsys stats`.\n\n"
           "options:\n" +
           FlagsHelp(SummaryFlags());
  }

  Result<int> Run(const std::vector<std::string>& args) override {
    GSYS_ASSIGN_OR_RETURN(ParsedFlags flags, ParseFlags("summary", SummaryFlags(), args, false));
    if (flags.Has("help")) {
      PrintOut(Help());
      return 0;
    }
    if (flags.positionals().size() != 1) {
      return Error(StatusCode::kInvalidArgument,
                   flags.positionals().empty()
                       ? "summary: no input report given (usage: gsys summary [options] REPORT)"
                       : "summary: one report at a time (got " +
                             std::to_string(flags.positionals().size()) + ")");
    }
    SummaryOptions options;
    options.progress = !flags.Has("quiet");
    if (auto bins = flags.Last("bins")) {
      std::optional<int64_t> n = ParseInt64(*bins);
      if (!n || *n < 1 || *n > 10000) {
        return Error(StatusCode::kInvalidArgument,
                     "summary: --bins must be an integer from 1 to 10000, got '" + *bins + "'");
      }
      options.bins = static_cast<int>(*n);
    }
    const std::string& input = flags.positionals().front();
    TableRunOptions resolve;
    resolve.verb = "summary";
    resolve.sqlite_path = flags.Last("sqlite");
    GSYS_ASSIGN_OR_RETURN(std::string path, ResolveInput(input, resolve));
    std::string page_path = flags.Last("output").value_or(DefaultPagePath(input));
    GSYS_ASSIGN_OR_RETURN(
        page_path, ResolveOutputPath(page_path, {"summary: bad --output '" + page_path + "'", ""}));
    bool overwrite = flags.Bool("force-overwrite", false);
    bool to_stdout = page_path == "-";
    if (!to_stdout) {
      Status writable = CheckWritable(page_path, overwrite);
      if (!writable.ok()) return Error(writable.code(), "summary: " + writable.message());
    }
    GSYS_ASSIGN_OR_RETURN(report::ReportReader reader, report::ReportReader::Open(path));
    // The whole file: before the filters hide rows. On stderr and in the page's banner.
    std::vector<std::string> data_warnings = report::DataWarnings(reader);
    PrintDataWarnings(data_warnings);
    GSYS_RETURN_IF_ERROR(ApplyFilter(flags, reader, &options));
    GSYS_ASSIGN_OR_RETURN(html::Page page, BuildSummaryPage(reader, path, options));
    std::vector<std::string> argv = {"gsys", "summary"};
    argv.insert(argv.end(), args.begin(), args.end());
    page.provenance = MadeByText(GSYS_VERSION, AbsolutePath(path), CommandText(argv));
    page.warnings = std::move(data_warnings);
    std::string text = html::RenderPage(page);
    if (to_stdout) {
      PrintOut(text);
      return 0;
    }
    Status written = WriteFileAtomically(page_path, text, overwrite);
    if (!written.ok()) return Error(written.code(), "summary: " + written.message());
    if (!flags.Has("quiet")) PrintOut("Wrote [" + OneLine(AbsolutePath(page_path)) + "]\n");
    return 0;
  }
};

}  // namespace

std::unique_ptr<Subcommand> MakeSummaryCommand() { return std::make_unique<SummaryCommand>(); }

}  // namespace gsys::cli
