// SPDX-License-Identifier: Apache-2.0
// `gsys import SESSION_DIR [-o REPORT]`: builds a report from a session directory, e.g. after
// `gsys profile` itself was killed (docs/architecture.md, decision 4).
// `gsys import TRACE.json[.gz] [-o REPORT]`: builds a report from a torch.profiler (Kineto)
// trace (report/kineto).
#include <unistd.h>

#include <cstdio>

#include "cli/flags.h"
#include "cli/subcommand.h"
#include "common/one_line.h"
#include "common/strings.h"
#include "format/session_files.h"
#include "format/session_meta.h"
#include "launcher/report_groups.h"
#include "launcher/session_dir.h"
#include "report/import/importer.h"
#include "report/import/process_vars_reader.h"
#include "report/kineto/kineto_import.h"

namespace gsys::cli {
namespace {

// A session of `gsys profile -o NAME_%q{RANK}` (RANK set only inside the tree): one report per
// name, as profile writes them (launcher/report_groups.h). Empty when the session is not one,
// or session.meta is not the caller's (it must not choose which files -f replaces).
std::vector<launcher::ReportGroup> PerValueReports(const std::string& dir, std::string* errors) {
  uid_t owner = 0;
  auto meta = format::ReadSessionMeta(dir, &owner);
  if (!meta.ok() || owner != geteuid() || !meta->count("output_vars") ||
      !meta->count("output_pattern")) {
    return {};
  }
  launcher::OutputNameContext names;
  names.host = (*meta)["host"];
  names.pid = (*meta)["target_pid"];
  auto groups =
      launcher::GroupProcessesByName((*meta)["output_pattern"], Split((*meta)["output_vars"], ','),
                                     report::ReadProcessVars(dir), names);
  for (const auto& g : groups.groups) {
    // The pattern is session.meta's too: reports elsewhere than beside the session are not
    // its to choose (the session then imports as one report, DefaultReportPath's).
    if (!report::ReportPathBesideSession(dir, g.base + ".gsys-rep")) return {};
  }
  for (const auto& e : groups.errors) *errors += "gsys: " + e + ": not in any report\n";
  return groups.groups;
}

void PrintImported(const report::ImportSummary& sum) {
  std::fprintf(stderr, "gsys: generated %s (%s NVTX events, %s OS runtime events, %s processes)\n",
               sum.report_path.c_str(), GroupThousands(std::to_string(sum.nvtx_events)).c_str(),
               GroupThousands(std::to_string(sum.osrt_events)).c_str(),
               std::to_string(sum.processes).c_str());
  for (const auto& line : sum.capture_log) std::fprintf(stderr, "%s\n", line.c_str());
  for (const auto& w : sum.warnings) std::fprintf(stderr, "gsys: warning: %s\n", w.c_str());
}

void PrintImportedTrace(const report::kineto::KinetoImportSummary& sum) {
  const report::kineto::MapperStats& s = sum.stats;
  auto n = [](uint64_t v) { return GroupThousands(std::to_string(v)); };
  std::fprintf(stderr,
               "gsys: generated %s (%s kernels, %s memory operations, %s CUDA API calls, %s CPU "
               "ops and annotations, %s collectives; %s events in %.2f s)\n",
               sum.report_path.c_str(), n(s.kernels).c_str(), n(s.memcpys + s.memsets).c_str(),
               n(s.runtime + s.driver).c_str(),
               n(s.cpu_ops + s.annotations + s.python_functions).c_str(), n(s.collectives).c_str(),
               n(s.events).c_str(), sum.seconds);
  for (const auto& w : sum.warnings) {
    std::fprintf(stderr, "gsys: warning: %s (see GSYS_DIAGNOSTICS)\n", w.c_str());
  }
}

// `gsys import TRACE.json[.gz]`.
Result<int> ImportTrace(const ParsedFlags& flags, const std::string& trace) {
  report::kineto::KinetoImportOptions options;
  options.trace_path = trace;
  options.output_path =
      flags.Last("output").value_or(report::kineto::DefaultKinetoReportPath(trace));
  options.force_overwrite = flags.Bool("force-overwrite", false);
  options.progress = !flags.Has("quiet");
  GSYS_ASSIGN_OR_RETURN(report::kineto::KinetoImportSummary sum,
                        report::kineto::ImportKinetoTrace(options));
  if (!flags.Has("quiet")) PrintImportedTrace(sum);
  return 0;
}

const std::vector<FlagSpec>& ImportFlags() {
  static const std::vector<FlagSpec> kFlags = {
      {"output", 'o', FlagValue::kRequired, "REPORT",
       std::string(
           "Report to write. Default: the output `gsys profile` chose for the session (one\n"
           "report per value when its -o had a %q{VAR} set only inside the tree), else\n"
           "SESSION_DIR with ") +
           format::kSessionDirSuffix +
           " replaced by .gsys-rep; for a trace, TRACE without\n"
           ".json/.json.gz (and .pt.trace) plus .gsys-rep."},
      {"force-overwrite", 'f', FlagValue::kBool, "", "Overwrite an existing report."},
      {"quiet", 'q', FlagValue::kNone, "", "No progress bar or summary."},
      {"help", 'h', FlagValue::kNone, "", "Show this help."},
  };
  return kFlags;
}

class ImportCommand : public Subcommand {
 public:
  std::string Name() const override { return "import"; }
  std::string Summary() const override {
    return "Build a report from a capture session directory or a torch.profiler trace";
  }
  std::string Help() const override {
    return "usage: gsys import [options] SESSION_DIR\n"
           "       gsys import [options] TRACE.json[.gz]\n\n"
           "Decodes the raw capture streams of a session directory (one per process) into a\n"
           "report (.gsys-rep, SQLite in nsys's export schema). `gsys profile` does this at the\n"
           "end of a run; run it yourself when the profile command did not finish (killed,\n"
           "machine lost). Damaged or cut streams are imported as far as they are readable and\n"
           "counted in GSYS_DIAGNOSTICS.\n\n"
           "Given a torch.profiler (Kineto) trace, .json or .json.gz, it builds the same kind of\n"
           "report from it: CPU ops and annotations as NVTX ranges, CUDA calls, kernels, copies,\n"
           "memsets, synchronization, devices, the rank and NCCL collective metadata\n"
           "(GSYS_COLLECTIVES). Events it cannot map are counted in GSYS_DIAGNOSTICS. stats,\n"
           "analyze, recipe, summary and export also read traces directly.\n\n"
           "options:\n" +
           FlagsHelp(ImportFlags());
  }

  Result<int> Run(const std::vector<std::string>& args) override {
    GSYS_ASSIGN_OR_RETURN(ParsedFlags flags, ParseFlags("import", ImportFlags(), args, false));
    if (flags.Has("help")) {
      std::fputs(Help().c_str(), stdout);
      return 0;
    }
    if (flags.positionals().size() != 1) {
      return Error(StatusCode::kInvalidArgument,
                   "import: expected one SESSION_DIR or TRACE.json[.gz]");
    }
    if (report::kineto::IsKinetoTracePath(flags.positionals()[0])) {
      return ImportTrace(flags, flags.positionals()[0]);
    }
    report::ImportOptions options;
    options.session_dir = flags.positionals()[0];
    options.force_overwrite = flags.Bool("force-overwrite", false);
    options.progress = !flags.Has("quiet");
    if (launcher::SessionDirIsLive(options.session_dir)) {
      std::fprintf(stderr,
                   "gsys: warning: session '%s' is still being recorded by a live gsys "
                   "run: the report holds only what was flushed so far\n",
                   OneLine(options.session_dir).c_str());
    }
    std::string errors;
    auto groups = flags.Has("output") ? std::vector<launcher::ReportGroup>{}
                                      : PerValueReports(options.session_dir, &errors);
    if (!flags.Has("quiet")) std::fputs(errors.c_str(), stderr);
    if (groups.empty()) {
      options.output_path =
          flags.Last("output").value_or(report::DefaultReportPath(options.session_dir));
      GSYS_ASSIGN_OR_RETURN(report::ImportSummary sum, report::ImportSession(options));
      if (!flags.Has("quiet")) PrintImported(sum);
    }
    if (!errors.empty()) {
      return Error(
          StatusCode::kInvalidArgument,
          "import: processes whose -o values the output-path rules refuse are in no report");
    }
    for (const auto& g : groups) {
      options.output_path = g.base + ".gsys-rep";
      if (!g.pids.empty()) options.pids = g.pids;
      options.meta_overrides = {{"output", options.output_path}, {"output_values", g.values}};
      GSYS_ASSIGN_OR_RETURN(report::ImportSummary sum, report::ImportSession(options));
      if (!flags.Has("quiet")) PrintImported(sum);
    }
    if (!errors.empty()) {
      return Error(
          StatusCode::kInvalidArgument,
          "import: processes whose -o values the output-path rules refuse are in no report");
    }
    return 0;
  }
};

}  // namespace

std::unique_ptr<Subcommand> MakeImportCommand() { return std::make_unique<ImportCommand>(); }

}  // namespace gsys::cli
