// SPDX-License-Identifier: Apache-2.0
#include "capture/entry/log.h"

#include <sys/syscall.h>
#include <unistd.h>

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
