// SPDX-License-Identifier: Apache-2.0
#include "serving/report_name.h"

#include <ctime>

#include "common/output_path.h"
#include "common/strings.h"
#include "launcher/output_name.h"
#include "launcher/resolve_output.h"

namespace gsys::serving {
namespace {

// Keeps names portable as file names and S3 keys.
std::string Safe(const std::string& s) {
  std::string out;
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '.';
    out += ok ? c : '-';
  }
  return out;
}

}  // namespace

std::string DefaultBaseName(const std::string& host, const std::string& rank,
                            const std::string& pid, int64_t utc_ns) {
  time_t secs = static_cast<time_t>(utc_ns / 1000000000);
  struct tm tm {};
  gmtime_r(&secs, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
  std::string who = rank.empty() ? "pid" + Safe(pid) : "rank" + Safe(rank);
  return "gsys_" + Safe(host) + "_" + who + "_" + stamp;
}

Result<std::string> WindowReportPath(const ReportNaming& n, int64_t utc_ns) {
  std::string base;
  bool is_dir =
      n.output.empty() || n.output.back() == '/' || (n.exists && n.exists(n.output + "/."));
  if (is_dir) {
    std::string dir = n.output.empty() ? "." : n.output;
    if (dir.back() != '/') dir += '/';
    base = dir + DefaultBaseName(n.host, n.rank, n.pid, utc_ns);
  } else {
    launcher::OutputNameContext oc;
    oc.host = n.host;
    oc.pid = n.pid;
    oc.getenv = n.getenv;
    oc.exists = [&](const std::string& b) { return n.exists && n.exists(b + ".gsys-rep"); };
    // NAME.nsys-rep (an nsys command line) and NAME.gsys-rep both mean NAME.gsys-rep.
    std::string pattern = launcher::StripReportExtension(n.output);
    GSYS_ASSIGN_OR_RETURN(base, launcher::ResolveOutputPattern(pattern, oc, "", n.confine_to));
    base = launcher::StripReportExtension(base);
  }
  if (is_dir && !n.confine_to.empty()) {
    OutputPathRules rules{"bad --output '" + n.output + "'", n.confine_to};
    GSYS_ASSIGN_OR_RETURN(base, ResolveOutputPath(base, rules));
  }
  std::string path = base + ".gsys-rep";
  for (int i = 2; n.exists && n.exists(path) && i < 100000; ++i) {
    path = base + "-" + std::to_string(i) + ".gsys-rep";
  }
  return path;
}

}  // namespace gsys::serving
