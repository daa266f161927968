// SPDX-License-Identifier: Apache-2.0
#include "report/import/report_placement.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "common/rename_no_replace.h"

namespace gsys::report {

std::string TemporaryReportPath(const std::string& output) {
  return output + ".tmp-import-" + std::to_string(::getpid());
}

namespace {

constexpr const char* kTemporaryInfix = ".tmp-import-";

// The PID of `name` = BASE.tmp-import-PID[-journal|-wal|-shm], 0 when it is not one.
long LeftoverPid(const std::string& name, const std::string& base) {
  std::string prefix = base + kTemporaryInfix;
  if (name.compare(0, prefix.size(), prefix) != 0) return 0;
  std::string rest = name.substr(prefix.size());
  size_t digits = rest.find_first_not_of("0123456789");
  std::string suffix = digits == std::string::npos ? "" : rest.substr(digits);
  if (digits == 0 || rest.size() > 24 ||
      (suffix != "" && suffix != "-journal" && suffix != "-wal" && suffix != "-shm")) {
    return 0;
  }
  return std::strtol(rest.c_str(), nullptr, 10);
}

}  // namespace

int RemoveDeadImportLeftovers(const std::string& output) {
  namespace fs = std::filesystem;
  fs::path out(output);
  fs::path dir = out.has_parent_path() ? out.parent_path() : fs::path(".");
  std::string base = out.filename().string();
  std::error_code ec;
  int removed = 0;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    long pid = LeftoverPid(e.path().filename().string(), base);
    if (pid <= 0 || pid == ::getpid()) continue;
    struct stat st {};
    if (::lstat(e.path().c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) {
      continue;  // only our own regular files: never through a link, never another user's
    }
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;  // still running
    if (::unlink(e.path().c_str()) == 0) ++removed;
  }
  return removed;
}

Status PlaceReport(const std::string& tmp, const std::string& output, bool force) {
  std::error_code ec;
  if (force) {
    std::filesystem::remove(output, ec);
    std::filesystem::rename(tmp, output, ec);
  } else if (int err = RenameNoReplace(tmp.c_str(), output.c_str()); err != 0) {
    if (err == EEXIST) {
      return Error(StatusCode::kIoError, "import: '" + output +
                                             "' appeared while importing (another run wrote "
                                             "it); not replaced (use -f/--force-overwrite true)");
    }
    ec.assign(err, std::generic_category());
  }
  if (ec) {
    return Error(StatusCode::kIoError, "import: cannot create '" + output + "': " + ec.message());
  }
  return OkStatus();
}

}  // namespace gsys::report
