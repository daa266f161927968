// SPDX-License-Identifier: Apache-2.0
#include "capture/stack/sampler.h"

#include <dirent.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "capture/clock/clock.h"
#include "capture/entry/log.h"
#include "capture/entry/signal_shadow.h"
#include "capture/sink/sink.h"
#include "capture/stack/ctxsw.h"
#include "capture/stack/module_map.h"
#include "capture/stack/perf_sampler.h"
#include "capture/stack/unwind.h"
#include "format/stack_records.h"

namespace gsys::capture {
namespace {

constexpr int kMaxThreads = 512;
constexpr uint32_t kRingEntries = 128;  // > 2 scan periods at 1 kHz
constexpr int kScanMs = 50;
constexpr int kTimerMagic = 0x6b000000;  // sival_int = magic | slot

struct Entry {
  int64_t ticks;
  uint32_t cpu;
  uint32_t frames;
  uint64_t pc[format::kMaxStackFrames];
};

// Single producer (the sampled thread's signal handler), single consumer (the sampler thread).
struct Ring {
  std::atomic<uint32_t> head;
  std::atomic<uint32_t> tail;
  std::atomic<uint32_t> lost;
  Entry entries[kRingEntries];
};

struct Slot {
  uint32_t tid = 0;   // 0 = free
  bool seen = false;  // found by the current scan
  bool has_timer = false;
  int timer = 0;  // kernel timer id
  Ring* ring = nullptr;
  PerfSampleRing perf;
  CtxswRing ctxsw;
};

// constinit: the slots must hold their initial values before any code runs. Dynamically
// initialized, they were reset by this file's static initializer after the capture library's
// constructor (init.cc, earlier in the .so's init order) had started the sampler thread, which
// then lost the events it had just opened (a sampling run without samples, 4 in 10 here).
constinit Slot g_slots[kMaxThreads];
Ring* g_rings[kMaxThreads];  // read by the handler (published before the timer is armed)
int g_signal = 0;
bool g_sample = false;
bool g_use_perf = false;     // perf_sampler.h; else the timer signal
bool g_perf_failed = false;  // a thread's event could not be opened (one notice)
bool g_ctxsw = false;
int64_t g_period_ns = 1000000;
std::atomic<bool> g_running{false};
std::atomic<bool> g_stop{false};
uint32_t g_self_tid = 0;
pthread_t g_thread;
uint64_t g_lost_reported = 0;

void Notice(format::StackNotice n, int64_t value, const char* text) {
  uint32_t len = text != nullptr ? static_cast<uint32_t>(std::strlen(text)) : 0;
  format::StackNoticeBody b{value, static_cast<uint32_t>(n), len};
  EmitRecord(format::kStackNotice, b, text, len);
}

void OnSignal(int, siginfo_t* si, void* uc) {
  if (si->si_code != SI_TIMER || (si->si_value.sival_int & 0x7f000000) != kTimerMagic) return;
  int slot = si->si_value.sival_int & 0xffffff;
  if (slot < 0 || slot >= kMaxThreads) return;
  Ring* r = g_rings[slot];
  if (r == nullptr) return;
  int saved = errno;
  uint32_t head = r->head.load(std::memory_order_relaxed);
  if (head - r->tail.load(std::memory_order_acquire) >= kRingEntries) {
    r->lost.fetch_add(1, std::memory_order_relaxed);
  } else {
    Entry& e = r->entries[head % kRingEntries];
    e.ticks = NowTicks();
    int cpu = sched_getcpu();
    e.cpu = cpu < 0 ? 0 : static_cast<uint32_t>(cpu);
    e.frames = static_cast<uint32_t>(
        UnwindFromSignal(uc, e.pc, static_cast<int>(format::kMaxStackFrames)));
    r->head.store(head + 1, std::memory_order_release);
  }
  errno = saved;
}

// A real-time signal the process leaves at its default disposition.
int PickSignal() {
  for (int s = SIGRTMAX - 1; s >= SIGRTMIN + 4; --s) {
    struct sigaction old {};
    if (ProgramSigaction(s, nullptr, &old) == 0 && old.sa_handler == SIG_DFL &&
        (old.sa_flags & SA_SIGINFO) == 0) {
      return s;
    }
  }
  return 0;
}

bool OurHandlerInstalled() {
  struct sigaction cur {};
  return RealSigaction(g_signal, nullptr, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) != 0 &&
         cur.sa_sigaction == &OnSignal;
}

// Linux's clock id for the CPU time of thread `tid` (MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED)).
clockid_t ThreadCpuClock(uint32_t tid) {
  return static_cast<clockid_t>((~static_cast<int>(tid) << 3) | 4 | 2);
}

void Drain(int i) {
  Slot& s = g_slots[i];
  if (s.tid != 0 && s.ctxsw.base != nullptr) CtxswDrain(s.tid, &s.ctxsw);
  if (s.perf.base != nullptr) PerfSampleDrain(&s.perf);
  Ring* r = s.ring;
  if (r == nullptr) return;
  uint32_t head = r->head.load(std::memory_order_acquire);
  for (uint32_t t = r->tail.load(std::memory_order_relaxed); t != head; ++t) {
    const Entry& e = r->entries[t % kRingEntries];
    uint32_t n = e.frames > format::kMaxStackFrames ? format::kMaxStackFrames : e.frames;
    format::StackSampleBody b{e.ticks, s.tid, static_cast<uint16_t>(e.cpu),
                              static_cast<uint16_t>(n)};
    EmitRecord(format::kStackSample, b, reinterpret_cast<const char*>(e.pc), n * 8);
    r->tail.store(t + 1, std::memory_order_release);
  }
}

void DisarmSlot(int i) {
  Slot& s = g_slots[i];
  if (s.tid == 0) return;
  if (s.has_timer) syscall(SYS_timer_delete, s.timer);
  s.has_timer = false;
  Drain(i);
  PerfSampleClose(&s.perf);
  CtxswClose(&s.ctxsw);
}

// --cpuctxsw for thread `tid`; the first refusal turns it off with one notice.
void OpenCtxsw(Slot& s, uint32_t tid) {
  if (!g_ctxsw) return;
  int err = CtxswOpen(tid, &s.ctxsw);
  if (err == 0) return;
  g_ctxsw = false;
  char text[160];
  std::snprintf(text, sizeof(text),
                "--cpuctxsw: the kernel refused a per-thread perf event (%s; see "
                "/proc/sys/kernel/perf_event_paranoid): no context switches recorded",
                std::strerror(err));
  Notice(format::StackNotice::kCtxswOff, err, text);
}

// The perf_event sampling event of thread `tid`; a refusal leaves that thread unsampled (one
// notice for the first), the method having been chosen at start.
void OpenPerf(Slot& s, uint32_t tid) {
  int err = PerfSampleOpen(tid, g_period_ns, &s.perf);
  if (err == 0 || g_perf_failed) return;
  g_perf_failed = true;
  char text[160];
  std::snprintf(text, sizeof(text),
                "perf_event: a thread's sampling event could not be opened (%s); threads "
                "refused this way are not sampled",
                std::strerror(err));
  Notice(format::StackNotice::kSamplingOff, err, text);
}

bool ArmSlot(int i, uint32_t tid) {
  Slot& s = g_slots[i];
  if (!g_sample || g_use_perf) {
    s.tid = tid;
    if (g_sample) OpenPerf(s, tid);
    OpenCtxsw(s, tid);
    return true;
  }
  if (s.ring == nullptr) {
    void* m =
        mmap(nullptr, sizeof(Ring), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return false;
    s.ring = static_cast<Ring*>(m);  // zero-filled: head = tail = 0
    g_rings[i] = s.ring;
  }
  sigevent sev{};
  sev.sigev_notify = SIGEV_THREAD_ID;
  sev.sigev_signo = g_signal;
  sev.sigev_value.sival_int = kTimerMagic | i;
  sev._sigev_un._tid = static_cast<pid_t>(tid);
  int timer = 0;
  if (syscall(SYS_timer_create, ThreadCpuClock(tid), &sev, &timer) != 0) return false;
  itimerspec its{};
  its.it_interval.tv_sec = g_period_ns / 1000000000;
  its.it_interval.tv_nsec = g_period_ns % 1000000000;
  its.it_value = its.it_interval;
  if (syscall(SYS_timer_settime, timer, 0, &its, nullptr) != 0) {
    syscall(SYS_timer_delete, timer);
    return false;
  }
  s.tid = tid;
  s.timer = timer;
  s.has_timer = true;
  OpenCtxsw(s, tid);
  return true;
}

// Arms timers for threads that appeared, disarms those of threads that ended.
void Scan() {
  for (Slot& s : g_slots) s.seen = false;
  DIR* d = opendir("/proc/self/task");
  if (d == nullptr) return;
  while (dirent* e = readdir(d)) {
    uint32_t tid = static_cast<uint32_t>(std::strtoul(e->d_name, nullptr, 10));
    if (tid == 0 || tid == g_self_tid) continue;
    int free_slot = -1, found = -1;
    for (int i = 0; i < kMaxThreads; ++i) {
      if (g_slots[i].tid == tid) found = i;
      if (free_slot < 0 && g_slots[i].tid == 0) free_slot = i;
    }
    if (found >= 0) {
      g_slots[found].seen = true;
    } else if (free_slot >= 0 && ArmSlot(free_slot, tid)) {
      g_slots[free_slot].seen = true;
    }
  }
  closedir(d);
  for (int i = 0; i < kMaxThreads; ++i) {
    if (g_slots[i].tid != 0 && !g_slots[i].seen) {
      DisarmSlot(i);
      g_slots[i].tid = 0;
    }
  }
}

void DrainAll() {
  EmitModuleMapIfChanged();
  uint64_t lost = 0;
  for (int i = 0; i < kMaxThreads; ++i) {
    Drain(i);
    if (g_slots[i].ring != nullptr) lost += g_slots[i].ring->lost.load(std::memory_order_relaxed);
    lost += g_slots[i].perf.lost;
  }
  if (lost != g_lost_reported) {
    g_lost_reported = lost;
    Notice(format::StackNotice::kSamplesLost, static_cast<int64_t>(lost), nullptr);
  }
}

// perf_event method: sleeps until the next scan in poll() on the threads' sampling events,
// draining a ring as soon as the kernel says it is half full. An event whose thread ended
// reports POLLHUP: drained and closed at once (the next scan forgets the thread).
void WaitPerf(int64_t ms) {
  static pollfd fds[kMaxThreads];
  static int slot_of[kMaxThreads];
  int64_t deadline = MonotonicNs() + ms * 1000000;
  for (;;) {
    int n = 0;
    for (int i = 0; i < kMaxThreads; ++i) {
      if (g_slots[i].tid == 0 || g_slots[i].perf.fd < 0) continue;
      fds[n] = pollfd{g_slots[i].perf.fd, POLLIN, 0};
      slot_of[n++] = i;
    }
    int64_t left_ms = (deadline - MonotonicNs()) / 1000000;
    if (left_ms <= 0 || g_stop.load(std::memory_order_acquire)) return;
    if (poll(fds, static_cast<nfds_t>(n), static_cast<int>(left_ms)) <= 0) continue;
    EmitModuleMapIfChanged();
    for (int k = 0; k < n; ++k) {
      PerfSampleRing& ring = g_slots[slot_of[k]].perf;
      if (fds[k].revents == 0) continue;
      PerfSampleDrain(&ring);
      if ((fds[k].revents & (POLLHUP | POLLERR)) != 0) PerfSampleClose(&ring);
    }
  }
}

void* SamplerMain(void*) {
  ++t_thread.guard;
  g_self_tid = static_cast<uint32_t>(syscall(SYS_gettid));
  while (!g_stop.load(std::memory_order_acquire)) {
    if (g_sample && !g_use_perf && !OurHandlerInstalled()) {
      Notice(format::StackNotice::kSamplingOff, 0,
             "the process took over the sampling signal; sampling stopped");
      break;
    }
    Scan();
    DrainAll();
    if (g_use_perf) {
      WaitPerf(kScanMs);
      continue;
    }
    timespec ts{0, kScanMs * 1000000L};
    syscall(SYS_nanosleep, &ts, nullptr);
  }
  for (int i = 0; i < kMaxThreads; ++i) {
    DisarmSlot(i);
    g_slots[i].tid = 0;
  }
  DrainAll();
  g_running.store(false, std::memory_order_release);
  return nullptr;
}

// The sampling signal and its handler; false (after a notice) when sampling cannot start.
bool InstallHandler() {
  g_signal = PickSignal();
  if (g_signal == 0) {
    Notice(format::StackNotice::kSamplingOff, 0, "no free real-time signal for the sampler");
    return false;
  }
  struct sigaction sa {};
  sa.sa_sigaction = &OnSignal;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  // Through the shadow table: the program keeps seeing SIG_DFL there (signal_shadow.h).
  if (!TakeOverSignal(g_signal, sa)) {
    Notice(format::StackNotice::kSamplingOff, 0, "cannot install the sampling signal handler");
    return false;
  }
  return true;
}

}  // namespace

// perf_event unless GSYS_SAMPLING_METHOD=timer, when a trial event on the calling thread opens
// and maps; `why` gets the reason otherwise.
bool ChoosePerf(const SamplingConfig& config, char* why, size_t why_len) {
  why[0] = '\0';
  if (config.method == SamplingMethod::kTimer) return false;
  if (!PerfSamplingSupported()) {
    std::snprintf(why, why_len, "; perf_event sampling is not supported on this architecture");
    return false;
  }
  PerfSampleRing probe;
  int err = PerfSampleOpen(static_cast<uint32_t>(syscall(SYS_gettid)), g_period_ns, &probe);
  if (err == 0) {
    PerfSampleClose(&probe);
    return true;
  }
  std::snprintf(why, why_len,
                "; perf_event_open refused (%s, see /proc/sys/kernel/perf_event_paranoid)",
                std::strerror(err));
  return false;
}

void StartCpuSampler(const SamplingConfig& config) {
  g_period_ns = 1000000000LL / (config.frequency_hz > 0 ? config.frequency_hz : 1000);
  char why[128];
  g_use_perf = config.sample && ChoosePerf(config, why, sizeof(why));
  g_sample = config.sample && (g_use_perf || InstallHandler());
  g_ctxsw = config.ctxsw;
  if (!g_sample && !g_ctxsw) return;
  g_stop.store(false);
  g_running.store(true);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_JOINABLE);
  // Block every signal in the sampler thread: process-directed signals go to the target's.
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  int rc = pthread_create(&g_thread, &attr, &SamplerMain, nullptr);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    g_running.store(false);
    Notice(format::StackNotice::kSamplingOff, 0, "cannot start the sampler thread");
    return;
  }
  if (!g_sample) return;
  char text[256];
  if (g_use_perf) {
    std::snprintf(text, sizeof(text),
                  "perf_event task-clock %d Hz (user stack copies, DWARF unwind)",
                  config.frequency_hz);
  } else {
    std::snprintf(text, sizeof(text), "timer-signal %d Hz (signal %d)%s", config.frequency_hz,
                  g_signal, why);
  }
  Notice(format::StackNotice::kSamplingMethod, config.frequency_hz, text);
  LogVerbose("cpu sampling: %s", text);
}

void ForgetCpuSamplerInChild() {
  // POSIX timers and threads do not survive fork: the child starts with none.
  for (Slot& s : g_slots) {
    s.tid = 0;
    s.has_timer = false;
    PerfSampleClose(&s.perf);  // the parent's threads' events, as for ctxsw
    CtxswClose(&s.ctxsw);      // the parent's threads' events: not this process's
  }
  g_running.store(false);
}

void StopCpuSampler() {
  if (!g_running.load(std::memory_order_acquire)) return;
  g_stop.store(true, std::memory_order_release);
  // Wait a bounded time for the sampler to disarm and drain (it may be mid-sleep).
  for (int i = 0; i < 200 && g_running.load(std::memory_order_acquire); ++i) {
    timespec ts{0, 1000000L};
    syscall(SYS_nanosleep, &ts, nullptr);
  }
}

}  // namespace gsys::capture
