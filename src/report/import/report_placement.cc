// SPDX-License-Identifier: Apache-2.0
#include "report/import/report_placement.h"

#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <system_error>

#include "common/rename_no_replace.h"

namespace gsys::report {

std::string TemporaryReportPath(const std::string& output) {
  return output + ".tmp-import-" + std::to_string(::getpid());
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
