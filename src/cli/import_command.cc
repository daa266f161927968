// SPDX-License-Identifier: Apache-2.0
// `gsys import SESSION_DIR [-o REPORT]`: builds a report from a session directory, e.g. after
// `gsys profile` itself was killed (docs/architecture.md, decision 4).
#include <cstdio>

#include "cli/flags.h"
#include "cli/subcommand.h"
#include "common/strings.h"
#include "report/import/importer.h"

namespace gsys::cli {
namespace {

const std::vector<FlagSpec>& ImportFlags() {
  static const std::vector<FlagSpec> kFlags = {
      {"output", 'o', FlagValue::kRequired, "REPORT",
       "Report to write. Default: the output `gsys profile` chose for the session,\n"
       "else SESSION_DIR with .gsys-session replaced by .gsys-rep."},
      {"force-overwrite", 'f', FlagValue::kBool, "", "Overwrite an existing report."},
      {"quiet", 'q', FlagValue::kNone, "", "No progress bar or summary."},
      {"help", 'h', FlagValue::kNone, "", "Show this help."},
  };
  return kFlags;
}

class ImportCommand : public Subcommand {
 public:
  std::string Name() const override { return "import"; }
  std::string Summary() const override { return "Build a report from a capture session directory"; }
  std::string Help() const override {
    return "usage: gsys import [options] SESSION_DIR\n\n"
           "Decodes the raw capture streams of a session directory (one per process) into a\n"
           "report (.gsys-rep, SQLite in nsys's export schema). `gsys profile` does this at the\n"
           "end of a run; run it yourself when the profile command did not finish (killed,\n"
           "machine lost). Damaged or cut streams are imported as far as they are readable and\n"
           "counted in GSYS_DIAGNOSTICS.\n\n"
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
      return Error(StatusCode::kInvalidArgument, "import: expected one SESSION_DIR");
    }
    report::ImportOptions options;
    options.session_dir = flags.positionals()[0];
    options.output_path =
        flags.Last("output").value_or(report::DefaultReportPath(options.session_dir));
    options.force_overwrite = flags.Bool("force-overwrite", false);
    options.progress = !flags.Has("quiet");
    GSYS_ASSIGN_OR_RETURN(report::ImportSummary sum, report::ImportSession(options));
    if (!flags.Has("quiet")) {
      std::fprintf(stderr, "gsys: generated %s (%s NVTX events, %s OS runtime events, %s processes)\n",
                   sum.report_path.c_str(), GroupThousands(std::to_string(sum.nvtx_events)).c_str(),
                   GroupThousands(std::to_string(sum.osrt_events)).c_str(),
                   std::to_string(sum.processes).c_str());
      for (const auto& line : sum.capture_log) std::fprintf(stderr, "%s\n", line.c_str());
      for (const auto& w : sum.warnings) std::fprintf(stderr, "gsys: warning: %s\n", w.c_str());
    }
    return 0;
  }
};

}  // namespace

std::unique_ptr<Subcommand> MakeImportCommand() { return std::make_unique<ImportCommand>(); }

}  // namespace gsys::cli
