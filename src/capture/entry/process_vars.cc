// SPDX-License-Identifier: Apache-2.0
#include "capture/entry/process_vars.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "format/process_vars.h"
#include "format/session_files.h"

namespace gsys::capture {
namespace {

// Raw syscalls: the interposed open/write/close would record these as the program's calls.
bool WriteWhole(const char* path, const char* bytes, size_t size) {
  long fd = syscall(SYS_openat, AT_FDCWD, path,
                    O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return false;
  size_t done = 0;
  while (done < size) {
    long w = syscall(SYS_write, fd, bytes + done, size - done);
    if (w <= 0) break;
    done += static_cast<size_t>(w);
  }
  syscall(SYS_close, fd);
  return done == size;
}

}  // namespace

void RecordProcessVars(const CaptureConfig& config, int64_t stream_id) {
  if (config.output_vars[0] == '\0') return;
  char bytes[format::kMaxProcessVarsBytes];
  size_t used = 0;
  const char* list = config.output_vars;
  while (*list != '\0') {
    const char* comma = std::strchr(list, ',');
    size_t len = comma ? static_cast<size_t>(comma - list) : std::strlen(list);
    char name[256];
    if (len > 0 && len < sizeof(name)) {
      std::memcpy(name, list, len);
      name[len] = '\0';
      // The user's variable, not a GSYS_* setting: read here, at this image's start.
      if (const char* value = std::getenv(name)) {
        (void)format::AppendProcessVar(bytes, sizeof(bytes), &used, name, value);
      }
    }
    list += len + (comma ? 1 : 0);
  }
  // Written under a temporary name and renamed: a reader never sees a cut value (a cut
  // "RANK=12" would name another rank's report).
  unsigned pid = static_cast<unsigned>(syscall(SYS_getpid));
  char path[kMaxPathBytes + 64], tmp[kMaxPathBytes + 72];
  (void)format::ProcessFilePath(path, sizeof(path), config.session_dir, pid,
                                static_cast<uint64_t>(stream_id), format::kProcessVarsSuffix);
  std::snprintf(tmp, sizeof(tmp), "%s.tmp", path);
  if (WriteWhole(tmp, bytes, used)) {
    syscall(SYS_renameat2, AT_FDCWD, tmp, AT_FDCWD, path, 0);  // renameat2: every arch has it
  } else {
    syscall(SYS_unlinkat, AT_FDCWD, tmp, 0);
  }
}

}  // namespace gsys::capture
