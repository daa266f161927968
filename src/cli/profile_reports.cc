// SPDX-License-Identifier: Apache-2.0
#include "cli/profile_reports.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "cli/subcommand.h"
#include "common/strings.h"
#include "export/exporter.h"
#include "format/session_files.h"
#include "launcher/report_groups.h"
#include "report/import/importer.h"
#include "report/import/process_vars_reader.h"

namespace gsys::cli {

std::unique_ptr<Subcommand> MakeStatsCommand();

namespace {

namespace fs = std::filesystem;

std::string Count(uint64_t n) { return GroupThousands(std::to_string(n)); }

void PrintSummary(const report::ImportSummary& sum, double secs, bool quiet) {
  if (quiet) {
    for (const auto& w : sum.warnings) std::fprintf(stderr, "gsys: warning: %s\n", w.c_str());
    return;
  }
  uint64_t drops = sum.counters[report::ImportCounter::kDroppedRecords];
  std::fprintf(stderr,
               "gsys: generated %s: %s NVTX events, %s OS runtime events, %s dropped, "
               "%llu processes, %.2f s\n",
               sum.report_path.c_str(), Count(sum.nvtx_events).c_str(),
               Count(sum.osrt_events).c_str(), Count(drops).c_str(),
               static_cast<unsigned long long>(sum.processes), secs);
  for (const auto& line : sum.domain_lines) std::fprintf(stderr, "gsys: %s\n", line.c_str());
  for (const auto& n : sum.notes) std::fprintf(stderr, "gsys: note: %s\n", n.c_str());
  for (const auto& w : sum.warnings) std::fprintf(stderr, "gsys: warning: %s\n", w.c_str());
}

void ExportAndStats(const ProfileReports& p, const std::string& report) {
  for (const auto& type : p.exports) {
    Status exported = export_::ExportReport(report, type, "", p.force);
    if (!exported.ok()) std::fprintf(stderr, "%s\n", exported.message().c_str());
  }
  if (p.stats) {
    std::fflush(stderr);
    auto rc = p.quiet ? MakeStatsCommand()->Run({"-q", report}) : MakeStatsCommand()->Run({report});
    if (!rc.ok()) std::fprintf(stderr, "%s\n", rc.status().message().c_str());
  }
}

// What to import: the whole session, or one subset of processes per name.
launcher::ReportGroups PlanGroups(const ProfileReports& p) {
  if (p.split_vars.empty()) {
    launcher::ReportGroups one;
    auto base = launcher::ExpandOutputPattern(p.pattern, p.names);  // checked before the run
    one.groups.push_back({base.ok() ? *base : p.pattern, "", {}});
    return one;
  }
  return launcher::GroupProcessesByName(p.pattern, p.split_vars,
                                        report::ReadProcessVars(p.session_dir), p.names);
}

}  // namespace

bool WriteProfileReports(const ProfileReports& p) {
  launcher::ReportGroups plan = PlanGroups(p);
  bool all = plan.errors.empty();
  for (const auto& e : plan.errors)
    std::fprintf(stderr, "gsys: %s: not in any report\n", e.c_str());
  std::vector<std::string> written;
  for (const auto& g : plan.groups) {
    report::ImportOptions io;
    io.session_dir = p.session_dir;
    io.output_path = g.base + ".gsys-rep";
    io.force_overwrite = p.force;
    io.progress = true;
    if (!p.split_vars.empty()) {
      if (!g.pids.empty()) io.pids = g.pids;
      io.meta_overrides = {{"output", io.output_path}, {"output_values", g.values}};
    }
    auto sum = report::ImportSession(io);
    if (!sum.ok()) {
      std::error_code ec;
      if (!fs::is_directory(p.session_dir, ec)) {
        std::fprintf(stderr,
                     "gsys: the session directory %s was removed during capture: no report\n",
                     p.session_dir.c_str());
        return false;
      }
      std::fprintf(stderr, "gsys: %s\n", sum.status().message().c_str());
      all = false;
      continue;
    }
    PrintSummary(*sum, p.seconds, p.quiet);
    written.push_back(sum->report_path);
  }
  std::error_code ec;
  if (!all) {
    std::fprintf(stderr, "gsys: the raw capture is kept in %s (run 'gsys import' on it)\n",
                 p.session_dir.c_str());
  } else if (std::getenv(format::kEnvKeepSession) == nullptr) {
    fs::remove_all(p.session_dir, ec);
  }
  for (const auto& report : written) ExportAndStats(p, report);
  return all;
}

}  // namespace gsys::cli
