// SPDX-License-Identifier: Apache-2.0
#include "report/import/time_text.h"

#include <ctime>

namespace gsys::report {

std::string SecondsText(int64_t utc_ns, bool local) {
  time_t secs = static_cast<time_t>(utc_ns / 1000000000);
  struct tm tm {};
  if (local) {
    localtime_r(&secs, &tm);
  } else {
    gmtime_r(&secs, &tm);
  }
  char buf[64];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
  return buf;
}

}  // namespace gsys::report
