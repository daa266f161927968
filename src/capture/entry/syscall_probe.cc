// SPDX-License-Identifier: Apache-2.0
#include "capture/entry/syscall_probe.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "capture/entry/log.h"

namespace gsys::capture {
namespace {

// UseStatusDescriptor's descriptor of this thread's status file, and its identity.
thread_local int t_status_fd = -1;
thread_local uint64_t t_status_dev = 0, t_status_ino = 0;

// Reads `fd` from offset 0 into `buf` (NUL-terminated; up to cap-1 bytes); returns the length.
// pread: a kept /proc status file is made anew by each read from offset 0. (A freshly opened
// one is read with read(), which every filter a program can run under allows; whoever keeps a
// descriptor checks that pread64 is allowed first, sink.cc HandshakeFilteredWriter.)
size_t ReadFromStart(long fd, char* buf, size_t cap) {
  size_t n = 0;
  while (n + 1 < cap) {
    long r = syscall(SYS_pread64, fd, buf + n, cap - 1 - n, static_cast<long>(n));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    n += static_cast<size_t>(r);
  }
  buf[n] = '\0';
  return n;
}

// The kept descriptor read again; 0 when there is none or it is no longer that file.
size_t ReadKeptStatus(char* buf, size_t cap) {
  struct stat st {};
  if (t_status_fd < 0 || syscall(SYS_fstat, t_status_fd, &st) != 0 ||
      static_cast<uint64_t>(st.st_dev) != t_status_dev ||
      static_cast<uint64_t>(st.st_ino) != t_status_ino) {
    return 0;
  }
  return ReadFromStart(t_status_fd, buf, cap);
}

// Reads the calling thread's status file into `buf` (raw syscalls: no stdio, no allocation).
size_t ReadOwnStatus(char* buf, size_t cap) {
  if (size_t n = ReadKeptStatus(buf, cap)) return n;
  long fd = syscall(SYS_openat, AT_FDCWD, "/proc/thread-self/status", O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0) fd = syscall(SYS_openat, AT_FDCWD, "/proc/self/status", O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0) return 0;
  size_t n = 0;
  while (n + 1 < cap) {
    long r = syscall(SYS_read, fd, buf + n, cap - 1 - n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    n += static_cast<size_t>(r);
  }
  syscall(SYS_close, fd);
  buf[n] = '\0';
  return n;
}

// The number after "\n<key>" in a status text, or -1.
long StatusField(const char* text, const char* key) {
  size_t key_len = std::strlen(key);
  for (const char* p = text; (p = std::strstr(p, key)) != nullptr; p += key_len) {
    if (p != text && p[-1] != '\n') continue;
    const char* v = p + key_len;
    while (*v == ' ' || *v == '\t') ++v;
    if (*v < '0' || *v > '9') return -1;
    long n = 0;
    while (*v >= '0' && *v <= '9') n = n * 10 + (*v++ - '0');
    return n;
  }
  return -1;
}

// Mode and filter count of the calling thread.
void ReadSeccomp(long* mode, long* filters) {
  char status[4096];
  if (ReadOwnStatus(status, sizeof(status)) == 0) {
    *mode = -1;
    *filters = -1;
    return;
  }
  *mode = StatusField(status, "Seccomp:");
  *filters = StatusField(status, "Seccomp_filters:");
}

// The kernel's struct sigaction for rt_sigaction (not glibc's): SIG_DFL is all zeros.
struct KernelSigaction {
  void* handler;
  unsigned long flags;
  void* restorer;
  unsigned long mask;
};

// Runs in the throw-away child: no core file (a copy of a large program would be slow to dump),
// default SIGSYS, the call, exit. A child killed before the call (prlimit64 or prctl filtered
// too) reads as "unsafe": conservative, the call is then skipped.
// `progress` (shared with the parent, may be null): set to i + 1 before call i.
// `progress` stays 0 while the child sets itself up, then is i + 1 while it makes calls[i].
// `dumpable_off`: also prctl(PR_SET_DUMPABLE, 0) (no core however core_pattern is set), which
// a filter may itself kill or trap.
[[noreturn]] void ProbeChild(const ProbeCall* calls, int count, volatile long* progress,
                             bool dumpable_off) {
  rlimit no_core{0, 0};
  syscall(SYS_prlimit64, 0, RLIMIT_CORE, &no_core, nullptr);
  if (dumpable_off) syscall(SYS_prctl, PR_SET_DUMPABLE, 0, 0, 0, 0);
  KernelSigaction dfl{};
  syscall(SYS_rt_sigaction, SIGSYS, &dfl, nullptr, sizeof(dfl.mask));
  for (int i = 0; i < count; ++i) {
    *progress = i + 1;
    const long* a = calls[i].args;
    syscall(calls[i].nr, a[0], a[1], a[2], a[3], a[4], a[5]);
  }
  *progress = count + 1;
  for (;;) syscall(SYS_exit_group, 0);
}

// One probe child (ProbeChild). Returns how many calls returned, -1 when the child could not
// be run, kDiedInSetup when it died before its first call.
constexpr int kDiedInSetup = -2;
int RunProbeChildOnce(const ProbeCall* calls, int count, bool dumpable_off) {
  void* page = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) return -1;
  volatile long* progress = static_cast<volatile long*>(page);
  // Flags 0: a fork without an exit signal (no SIGCHLD, invisible to wait(-1)); the child runs
  // on its own copy of this stack.
  long pid = syscall(SYS_clone, 0L, 0L, 0L, 0L, 0L);
  if (pid == 0) ProbeChild(calls, count, progress, dumpable_off);
  int survived = -1;
  if (pid > 0) {
    int st = 0;
    bool done = false;
    // Short sleeps first: the child usually ends within microseconds.
    long sleep_ns = 20 * 1000;
    for (long waited = 0; waited < 2000000000L && !done; waited += sleep_ns) {
      long r = syscall(SYS_wait4, pid, &st, WNOHANG | __WALL, nullptr);
      if (r == pid) {
        done = true;
        if (WIFEXITED(st)) {
          survived = count;
        } else if (*progress >= 1) {
          survived = static_cast<int>(*progress - 1);
        } else {
          survived = kDiedInSetup;
        }
        break;
      }
      if (r < 0 && errno != EINTR) break;
      timespec ts{0, sleep_ns};
      syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &ts, nullptr);
      if (sleep_ns < 1000 * 1000) sleep_ns *= 2;
    }
    if (!done) {
      // Stuck (a seccomp supervisor that never answers): it must not outlive the probe.
      syscall(SYS_kill, pid, SIGKILL);
      while (syscall(SYS_wait4, pid, &st, __WALL, nullptr) < 0 && errno == EINTR) {
      }
    }
  }
  munmap(page, 4096);
  return survived;
}

// Runs the calls in a throw-away child. Returns how many of them returned (all: `count`); the
// call at that index, if any, killed or trapped (or the child could not be run: -1). A child
// that died in its own set-up (a filter that traps prctl: its PR_SET_DUMPABLE) says nothing
// about the calls: they are probed again by a child that leaves prctl out.
int RunProbeChild(const ProbeCall* calls, int count) {
  int survived = RunProbeChildOnce(calls, count, /*dumpable_off=*/true);
  if (survived == kDiedInSetup) survived = RunProbeChildOnce(calls, count, false);
  return survived == kDiedInSetup ? 0 : survived;
}

ProbeResult ProbeInChild(long nr, const long* a) {
  ProbeCall call{nr, {a[0], a[1], a[2], a[3], a[4], a[5]}};
  return RunProbeChild(&call, 1) == 1 ? ProbeResult::kSafe : ProbeResult::kUnsafe;
}

// Probe results per (syscall, first argument). A probe is rare (once per process and kind,
// only under a filter); a busy table is simply not consulted.
struct CacheEntry {
  long nr;
  long a0;
  long filters;  // the thread's filter count when found safe (-1: unknown)
  ProbeResult result;
};
constexpr int kCacheSize = 16;
CacheEntry g_cache[kCacheSize];
int g_cache_used = 0;
std::atomic<bool> g_cache_lock{false};

bool LockCache() { return !g_cache_lock.exchange(true, std::memory_order_acquire); }
void UnlockCache() { g_cache_lock.store(false, std::memory_order_release); }

// Syscall numbers already logged as skipped (one line each).
std::atomic<long> g_logged[8];

const char* SyscallName(long nr) {
  switch (nr) {
    case SYS_unshare:
      return "unshare";
    case SYS_close_range:
      return "close_range";
    case SYS_prctl:
      return "prctl";
    case SYS_statfs:
      return "statfs";
    case SYS_fstatfs:
      return "fstatfs";
    case SYS_perf_event_open:
      return "perf_event_open";
    default:
      return "a syscall";
  }
}

void LogSkippedOnce(long nr) {
  for (auto& slot : g_logged) {
    long seen = slot.load(std::memory_order_relaxed);
    if (seen == nr + 1) return;
    if (seen == 0) {
      long expected = 0;
      if (!slot.compare_exchange_strong(expected, nr + 1)) {
        if (expected == nr + 1) return;
        continue;
      }
      LogAlways(
          "seccomp: the program's filter would kill or trap %s (syscall %ld): gsys does "
          "not make that call in this process",
          SyscallName(nr), nr);
      return;
    }
  }
}

// Cache key: the syscall, and the first argument where it selects the operation (prctl's
// option, unshare's flags); elsewhere it is a pointer or descriptor that varies per call.
long KeyOf(long nr, long a0) { return nr == SYS_prctl || nr == SYS_unshare ? a0 : 0; }

void Remember(long nr, long key, long filters, ProbeResult result) {
  if (!LockCache()) return;
  int slot = -1;
  for (int i = 0; i < g_cache_used; ++i) {
    if (g_cache[i].nr == nr && g_cache[i].a0 == key) slot = i;
  }
  if (slot < 0 && g_cache_used < kCacheSize) slot = g_cache_used++;
  if (slot >= 0) g_cache[slot] = {nr, key, filters, result};
  UnlockCache();
}

}  // namespace

void PrimeSyscallProbes(const ProbeCall* calls, int count) {
  int saved_errno = errno;
  long mode = 0, filters = 0;
  ReadSeccomp(&mode, &filters);
  if (mode == 2 || mode < 0) {
    int survived = RunProbeChild(calls, count);
    for (int i = 0; i < count && i <= survived; ++i) {
      Remember(calls[i].nr, KeyOf(calls[i].nr, calls[i].args[0]), filters,
               i < survived ? ProbeResult::kSafe : ProbeResult::kUnsafe);
    }
  }
  errno = saved_errno;
}

void UseStatusDescriptor(int fd) {
  struct stat st {};
  if (fd < 0 || syscall(SYS_fstat, fd, &st) != 0) {
    t_status_fd = -1;
    return;
  }
  t_status_fd = fd;
  t_status_dev = static_cast<uint64_t>(st.st_dev);
  t_status_ino = static_cast<uint64_t>(st.st_ino);
}

int SeccompModeOfThisThread() {
  long mode = 0, filters = 0;
  ReadSeccomp(&mode, &filters);
  return static_cast<int>(mode);
}

ProbeResult ProbeSyscall(long nr, long a0, long a1, long a2, long a3, long a4, long a5) {
  const long args[6] = {a0, a1, a2, a3, a4, a5};
  const long key = KeyOf(nr, a0);
  int saved_errno = errno;
  long mode = 0, filters = 0;
  ReadSeccomp(&mode, &filters);
  ProbeResult result = ProbeResult::kSafe;
  if (mode == 1) {
    result = ProbeResult::kUnsafe;  // strict mode: only read/write/exit/sigreturn survive
  } else if (mode != 0) {
    // A filter (or an unreadable status: probe to be sure).
    bool found = false;
    if (LockCache()) {
      for (int i = 0; i < g_cache_used; ++i) {
        const CacheEntry& e = g_cache[i];
        if (e.nr != nr || e.a0 != key) continue;
        // "Unsafe" holds for good; "safe" while no filter was added (or when uncountable).
        if (e.result == ProbeResult::kUnsafe || filters < 0 || e.filters == filters) {
          result = e.result;
          found = true;
        }
      }
      UnlockCache();
    }
    if (!found) {
      result = ProbeInChild(nr, args);
      Remember(nr, key, filters, result);
    }
  }
  errno = saved_errno;
  return result;
}

bool SyscallAllowed(long nr, long a0, long a1, long a2, long a3, long a4, long a5) {
  if (ProbeSyscall(nr, a0, a1, a2, a3, a4, a5) == ProbeResult::kSafe) return true;
  LogSkippedOnce(nr);
  return false;
}

long GuardedSyscall(long nr, long a0, long a1, long a2, long a3, long a4, long a5) {
  if (!SyscallAllowed(nr, a0, a1, a2, a3, a4, a5)) {
    errno = ENOSYS;
    return -1;
  }
  return syscall(nr, a0, a1, a2, a3, a4, a5);
}

}  // namespace gsys::capture
