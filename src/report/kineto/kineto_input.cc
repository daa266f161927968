// SPDX-License-Identifier: Apache-2.0
#include "report/kineto/kineto_input.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <vector>

#include "report/kineto/kineto_import.h"

namespace gsys::report::kineto {
namespace {

namespace fs = std::filesystem;

// The temporary reports of this process; the destructor (at exit) removes their directories.
class TempReports {
 public:
  ~TempReports() {
    std::error_code ec;
    for (const std::string& dir : dirs_) fs::remove_all(dir, ec);
  }
  std::mutex mu;
  std::map<std::string, std::string> by_trace;  // trace path -> report path
  void AddDir(std::string dir) { dirs_.push_back(std::move(dir)); }

 private:
  std::vector<std::string> dirs_;
};

TempReports& Temps() {
  static TempReports temps;
  return temps;
}

Result<std::string> MakeTempDir() {
  const char* env = std::getenv("TMPDIR");
  std::string base = env != nullptr && *env != '\0' ? env : "/tmp";
  std::string templ = base + "/gsys-kineto-XXXXXX";
  if (::mkdtemp(templ.data()) == nullptr) {  // mode 0700
    return Error(StatusCode::kIoError, "cannot create a temporary directory in '" + base + "'");
  }
  return templ;
}

}  // namespace

Result<std::string> ReadableReport(const std::string& path, const std::string& verb) {
  if (!IsKinetoTracePath(path)) return path;
  TempReports& temps = Temps();
  std::lock_guard<std::mutex> lock(temps.mu);
  auto it = temps.by_trace.find(path);
  if (it != temps.by_trace.end()) return it->second;
  auto dir = MakeTempDir();
  if (!dir.ok()) return Error(dir.status().code(), verb + ": " + dir.status().message());
  temps.AddDir(*dir);
  KinetoImportOptions options;
  options.trace_path = path;
  options.output_path = *dir + "/" + fs::path(DefaultKinetoReportPath(path)).filename().string();
  options.progress = true;
  auto sum = ImportKinetoTrace(options);
  if (!sum.ok()) {
    std::string msg = sum.status().message();
    if (msg.rfind("import: ", 0) == 0) msg = msg.substr(8);
    return Error(sum.status().code(), verb + ": " + msg);
  }
  ::chmod(options.output_path.c_str(), 0600);
  temps.by_trace.emplace(path, options.output_path);
  return options.output_path;
}

std::vector<std::pair<std::string, std::string>> TemporaryReports() {
  TempReports& temps = Temps();
  std::lock_guard<std::mutex> lock(temps.mu);
  return {temps.by_trace.begin(), temps.by_trace.end()};
}

}  // namespace gsys::report::kineto
