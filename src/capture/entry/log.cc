// SPDX-License-Identifier: Apache-2.0
#include "capture/entry/log.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>

namespace gsys::capture {
namespace {

bool g_verbose = false;

void VLog(const char* fmt, va_list args) {
  char buf[512];
  int n = std::snprintf(buf, sizeof(buf), "gsys[%ld]: ", static_cast<long>(syscall(SYS_getpid)));
  if (n < 0) return;
  int m = std::vsnprintf(buf + n, sizeof(buf) - static_cast<size_t>(n) - 1, fmt, args);
  if (m < 0) return;
  size_t len = static_cast<size_t>(n + m);
  if (len > sizeof(buf) - 2) len = sizeof(buf) - 2;
  buf[len++] = '\n';
  ssize_t w = syscall(SYS_write, 2, buf, len);
  if (w < 0 && errno == EBADF) {
    // The writer thread has a descriptor table of its own without fd 2 (sink.cc): reach the
    // program's stderr through the process's table.
    char path[64];
    std::snprintf(path, sizeof(path), "/proc/%ld/fd/2", static_cast<long>(syscall(SYS_getpid)));
    long fd = syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd >= 0) {
      w = syscall(SYS_write, fd, buf, len);
      syscall(SYS_close, fd);
    }
  }
  (void)w;
}

}  // namespace

void SetVerboseLogging(bool on) { g_verbose = on; }

void LogAlways(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  VLog(fmt, args);
  va_end(args);
}

void LogVerbose(const char* fmt, ...) {
  if (!g_verbose) return;
  va_list args;
  va_start(args, fmt);
  VLog(fmt, args);
  va_end(args);
}

}  // namespace gsys::capture
