// SPDX-License-Identifier: Apache-2.0
#include "cli/stats_summary.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>

#include "analysis/stats/format/json_formatter.h"
#include "analysis/stats/stats.h"
#include "cli/output.h"
#include "cli/subcommand.h"
#include "common/command_text.h"
#include "common/file_mode.h"
#include "common/one_line.h"
#include "report/reader/report_reader.h"

namespace gsys::cli {

std::unique_ptr<Subcommand> MakeStatsCommand();
std::unique_ptr<Subcommand> MakeSummaryCommand();

namespace {

// Runs `gsys stats ARGS` with its stdout sent to `path`, after the line `first_line`, through a
// temporary file beside it and a rename: the summaries sit next to window reports, often in a
// shared directory, and opening `path` itself followed a link another user planted there (it
// overwrote the link's target).
bool StatsTo(const std::string& path, const std::string& first_line,
             const std::vector<std::string>& args) {
  std::fflush(stdout);
  std::string tmp = path + ".tmp-XXXXXX";
  int fd = ::mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0) return false;
  std::string line = first_line + "\n";
  if (::write(fd, line.data(), line.size()) != static_cast<ssize_t>(line.size())) {
    ::close(fd);
    ::unlink(tmp.c_str());
    return false;
  }
  int saved = dup(1);
  dup2(fd, 1);
  auto rc = MakeStatsCommand()->Run(args);
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  bool ok = rc.ok() && ::fchmod(fd, ModeUnderUmask(0666)) == 0;
  ok = ::close(fd) == 0 && ok;
  ok = ok && ::rename(tmp.c_str(), path.c_str()) == 0;
  if (!ok) ::unlink(tmp.c_str());
  return ok;
}

// This gsys process's command line (the `wrap` or `profile` that made the window), as a
// shell would take it, secrets masked (common/command_text.h).
std::string OwnCommandText() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> argv;
  for (size_t start = 0; start < raw.size();) {
    size_t end = raw.find('\0', start);
    if (end == std::string::npos) end = raw.size();
    argv.push_back(raw.substr(start, end - start));
    start = end + 1;
  }
  return CommandText(argv);
}

bool JsonSummary(const std::string& report, const std::string& path) {
  auto reader = report::ReportReader::Open(report);
  if (!reader.ok()) return false;
  analysis::JsonFormatter json(analysis::FormatOptions{});
  std::string out = "{\n\"report\": " + analysis::JsonString(report) +
                    ",\n\"gsys_version\": " + analysis::JsonString(GSYS_VERSION) +
                    ",\n\"command\": " + analysis::JsonString(OwnCommandText()) +
                    ",\n\"reports\": {";
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
  return WriteFileAtomically(path, out, /*overwrite=*/true).ok();
}

}  // namespace

std::vector<std::string> WriteStatsSummaries(const std::string& report) {
  std::string base = report.substr(0, report.size() - std::string(".gsys-rep").size());
  std::vector<std::string> files;
  // `gsys stats REPORT`'s text (nsys's bytes) after one line saying who made it from what: the
  // file travels with the window's upload, away from the wrap that wrote it.
  std::string made_by = "# " + MadeByText(GSYS_VERSION, report, OwnCommandText());
  if (StatsTo(base + ".stats.txt", OneLine(made_by), {report})) {
    files.push_back(base + ".stats.txt");
  }
  if (JsonSummary(report, base + ".stats.json")) files.push_back(base + ".stats.json");
  // The HTML page as `gsys summary` makes it (written atomically, so a planted link is replaced);
  // its footer names that command and the report.
  std::string page = base + ".html";
  auto made = MakeSummaryCommand()->Run({report, "-o", page, "--force-overwrite", "-q"});
  if (made.ok() && *made == 0) {
    files.push_back(page);
  } else {
    std::fprintf(stderr, "gsys: warning: no HTML summary for %s: %s\n", OneLine(report).c_str(),
                 made.ok() ? "summary failed" : OneLine(made.status().message()).c_str());
  }
  return files;
}

}  // namespace gsys::cli
