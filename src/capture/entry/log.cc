// SPDX-License-Identifier: Apache-2.0
#include "capture/entry/log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>

#include "format/session_files.h"

namespace gsys::capture {
namespace {

bool g_verbose = false;
std::atomic<const char*> g_session_dir{nullptr};

// The program's stderr, for GSYS_LOG=1 only.
void WriteStderr(const char* buf, size_t len) {
  long w = syscall(SYS_write, 2, buf, len);
  if (w < 0 && errno == EBADF) {
    // The writer thread has a descriptor table of its own without fd 2 (sink.cc): reach the
    // program's stderr through the process's table.
    char path[64];
    std::snprintf(path, sizeof(path), "/proc/%ld/fd/2", static_cast<long>(syscall(SYS_getpid)));
    long fd = syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd >= 0) {
      syscall(SYS_write, fd, buf, len);
      syscall(SYS_close, fd);
    }
  }
}

// SESSION/log-<pid>.txt into `path`; false without a session directory.
bool LogPath(long pid, char* path, size_t cap) {
  const char* dir = g_session_dir.load(std::memory_order_acquire);
  if (dir == nullptr) return false;
  int n = std::snprintf(path, cap, "%s/%s%ld%s", dir, format::kCaptureLogPrefix, pid,
                        format::kCaptureLogSuffix);
  return n > 0 && static_cast<size_t>(n) < cap;
}

long OpenLog(const char* path) {
  return syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW,
                 0644);
}

// Opened and closed for each line: messages are rare, and a descriptor kept open could be
// closed or replaced by the program (then we would write into its file). O_NOFOLLOW: never
// through a link someone put in the session directory.
void WriteLogFile(long pid, const char* buf, size_t len) {
  char path[1200];
  if (!LogPath(pid, path, sizeof(path))) return;
  long fd = OpenLog(path);
  if (fd < 0) return;  // the session directory is gone: nowhere to say it
  struct stat st {};
  if (syscall(SYS_fstat, fd, &st) == 0 && S_ISREG(st.st_mode) &&
      st.st_size + static_cast<long>(len) <= kMaxLogFileBytes) {
    syscall(SYS_write, fd, buf, len);
  }
  syscall(SYS_close, fd);
}

void VLog(bool to_file, const char* fmt, va_list args) {
  int saved_errno = errno;
  char buf[512];
  long pid = syscall(SYS_getpid);
  int n = std::snprintf(buf, sizeof(buf), "gsys[%ld]: ", pid);
  if (n < 0) return;
  int m = std::vsnprintf(buf + n, sizeof(buf) - static_cast<size_t>(n) - 1, fmt, args);
  if (m < 0) return;
  size_t len = static_cast<size_t>(n + m);
  if (len > sizeof(buf) - 2) len = sizeof(buf) - 2;
  buf[len++] = '\n';
  if (to_file) WriteLogFile(pid, buf, len);
  if (g_verbose) WriteStderr(buf, len);
  errno = saved_errno;
}

}  // namespace

void SetVerboseLogging(bool on) { g_verbose = on; }

void SetLogSessionDir(const char* dir) { g_session_dir.store(dir, std::memory_order_release); }

void LogAlwaysV(const char* fmt, va_list args) { VLog(true, fmt, args); }

void LogAlways(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  VLog(true, fmt, args);
  va_end(args);
}

void LogVerbose(const char* fmt, ...) {
  if (!g_verbose) return;
  va_list args;
  va_start(args, fmt);
  VLog(false, fmt, args);
  va_end(args);
}

}  // namespace gsys::capture
