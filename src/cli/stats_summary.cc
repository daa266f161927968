// SPDX-License-Identifier: Apache-2.0
#include "cli/stats_summary.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>

#include "analysis/stats/format/json_formatter.h"
#include "analysis/stats/stats.h"
#include "cli/subcommand.h"
#include "report/reader/report_reader.h"

namespace gsys::cli {

std::unique_ptr<Subcommand> MakeStatsCommand();

namespace {

// Runs `gsys stats ARGS` with its stdout sent to `path`.
bool StatsTo(const std::string& path, const std::vector<std::string>& args) {
  std::fflush(stdout);
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  int saved = dup(1);
  dup2(fd, 1);
  close(fd);
  auto rc = MakeStatsCommand()->Run(args);
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  return rc.ok();
}

bool JsonSummary(const std::string& report, const std::string& path) {
  auto reader = report::ReportReader::Open(report);
  if (!reader.ok()) return false;
  analysis::JsonFormatter json(analysis::FormatOptions{});
  std::string out = "{\n\"report\": " + analysis::JsonString(report) + ",\n\"reports\": {";
  bool first = true;
  for (const auto& name : analysis::DefaultReports()) {
    auto r = analysis::RunReport(*reader, {name, {}});
    out += std::string(first ? "\n" : ",\n") + analysis::JsonString(name) + ": ";
    first = false;
    if (!r.ok()) {
      out += "{\"error\": " + analysis::JsonString(r.status().message()) + "}";
    } else if (r->skipped) {
      out += "{\"skipped\": " + analysis::JsonString("no " + r->missing_data) + "}";
    } else {
      std::string table = json.Format(r->table);
      while (!table.empty() && table.back() == '\n') table.pop_back();
      out += table;
    }
  }
  out += "\n}\n}\n";
  std::ofstream f(path);
  f << out;
  return static_cast<bool>(f);
}

}  // namespace

std::vector<std::string> WriteStatsSummaries(const std::string& report) {
  std::string base = report.substr(0, report.size() - std::string(".gsys-rep").size());
  std::vector<std::string> files;
  if (StatsTo(base + ".stats.txt", {report})) files.push_back(base + ".stats.txt");
  if (JsonSummary(report, base + ".stats.json")) files.push_back(base + ".stats.json");
  return files;
}

}  // namespace gsys::cli
