// SPDX-License-Identifier: Apache-2.0
#include "common/file_mode.h"

#include <cstdio>
#include <cstring>

namespace gsys {

mode_t CurrentUmask() {
  std::FILE* status = std::fopen("/proc/self/status", "re");
  if (status == nullptr) return 077;
  char line[256];
  mode_t mask = 077;
  while (std::fgets(line, sizeof line, status) != nullptr) {
    unsigned value = 0;
    if (std::strncmp(line, "Umask:", 6) == 0 && std::sscanf(line + 6, "%o", &value) == 1) {
      mask = static_cast<mode_t>(value & 0777);
      break;
    }
  }
  std::fclose(status);
  return mask;
}

mode_t ModeUnderUmask(mode_t mode) { return mode & ~CurrentUmask() & 07777; }

}  // namespace gsys
