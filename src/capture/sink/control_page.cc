// SPDX-License-Identifier: Apache-2.0
// The capture side of the control page (format/control_page.h): mapping it over g_control and
// the session-wide range windows.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>

#include "capture/clock/clock.h"
#include "capture/entry/log.h"
#include "capture/sink/sink.h"
#include "format/session_files.h"

namespace gsys::capture {
namespace {

bool g_shared = false;

}  // namespace

bool MapControlPage(const char* session_dir) {
  char path[kMaxPathBytes + 64];
  std::snprintf(path, sizeof(path), "%s/%s", session_dir, format::kControlFileName);
  long fd = syscall(SYS_openat, AT_FDCWD, path, O_RDWR | O_CLOEXEC, 0);
  if (fd < 0) return false;
  uint32_t head[2] = {0, 0};
  bool ok = syscall(SYS_pread64, fd, head, sizeof(head), 0) == static_cast<long>(sizeof(head)) &&
            head[0] == format::kControlMagic && head[1] == format::kControlVersion;
  if (ok) {
    // Replaces this library's own page (page-aligned, page-sized, nothing else on it).
    void* p = mmap(&g_control, sizeof(g_control), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
                   static_cast<int>(fd), 0);
    ok = p == static_cast<void*>(&g_control);
  }
  syscall(SYS_close, fd);
  g_shared = ok;
  LogVerbose("control page %s: %s", path, ok ? "shared" : "not usable");
  return ok;
}

bool ControlPageShared() { return g_shared; }

void StopRecordingHere() {
  if (!g_shared) {
    SetRecordingFlag(false);
    return;
  }
  // Leave the session's page alone (the rest of the tree keeps recording): give this process a
  // private zero page instead, whose `recording` is 0.
  mmap(&g_control, sizeof(g_control), PROT_READ | PROT_WRITE,
       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  g_shared = false;
}

void ControlOpenRangeWindow() {
  uint32_t expected = 0;
  if (!g_control.recording.compare_exchange_strong(expected, 1, std::memory_order_acq_rel)) return;
  uint64_t index = g_control.windows_opened.load(std::memory_order_relaxed);
  format::ControlWindow& w = g_control.ring[index % format::kControlRingSize];
  w.end_ns.store(0, std::memory_order_relaxed);
  w.start_ns.store(MonotonicNs(), std::memory_order_relaxed);
  g_control.windows_opened.store(index + 1, std::memory_order_release);
}

void ControlCloseRangeWindow() {
  int64_t end = MonotonicNs();  // before recording stops (see serving/live_session.cc)
  uint32_t expected = 1;
  if (!g_control.recording.compare_exchange_strong(expected, 0, std::memory_order_acq_rel)) return;
  uint64_t opened = g_control.windows_opened.load(std::memory_order_acquire);
  if (opened == 0) return;  // opened by the launcher, not by a range
  g_control.ring[(opened - 1) % format::kControlRingSize].end_ns.store(end,
                                                                       std::memory_order_relaxed);
  g_control.windows_closed.store(opened, std::memory_order_release);
}

}  // namespace gsys::capture
