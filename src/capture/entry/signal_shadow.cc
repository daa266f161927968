// SPDX-License-Identifier: Apache-2.0
#include "capture/entry/signal_shadow.h"

#include <dlfcn.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>

namespace gsys::capture {
namespace {

using SigactionFn = int (*)(int, const struct sigaction*, struct sigaction*);

// A slot is "taken" while the kernel holds gsys's handler for the signal; `shadow` is then
// what the program set (or found) there: SIG_DFL with its mask and flags.
struct Slot {
  std::atomic<bool> taken{false};
  struct sigaction shadow {};
};

Slot g_slots[NSIG];
std::atomic<bool> g_lock{false};
std::atomic<long> g_pid{0};  // the process the table belongs to (0: not yet known)
std::atomic<SigactionFn> g_real{nullptr};

SigactionFn Real() {
  SigactionFn f = g_real.load(std::memory_order_acquire);
  if (f == nullptr) {
    f = reinterpret_cast<SigactionFn>(dlsym(RTLD_NEXT, "sigaction"));
    g_real.store(f, std::memory_order_release);
  }
  return f;
}

bool IsDefault(const struct sigaction& a) {
  return (a.sa_flags & SA_SIGINFO) == 0 && a.sa_handler == SIG_DFL;
}

// In a vfork (or raw clone) child the table is the parent's memory.
bool InOwnProcess() {
  long pid = g_pid.load(std::memory_order_relaxed);
  return pid == 0 || pid == syscall(SYS_getpid);
}

// The lock is taken with every signal blocked, so a handler on this thread cannot deadlock on it.
class TableLock {
 public:
  TableLock() {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &saved_);
    while (g_lock.exchange(true, std::memory_order_acquire)) {
    }
  }
  ~TableLock() {
    g_lock.store(false, std::memory_order_release);
    pthread_sigmask(SIG_SETMASK, &saved_, nullptr);
  }
  TableLock(const TableLock&) = delete;
  TableLock& operator=(const TableLock&) = delete;

 private:
  sigset_t saved_;
};

// Installs the program's SIG_DFL `act` on taken slot `sig`: the kernel keeps gsys's handler.
// The kernel's own record of `act` (flags as libc stored them) becomes the shadow.
int SetDefaultOnTaken(int sig, const struct sigaction& act) {
  struct sigaction ours {};
  if (Real()(sig, nullptr, &ours) != 0) return -1;
  if (Real()(sig, &act, nullptr) != 0) return -1;
  struct sigaction stored {};
  Real()(sig, nullptr, &stored);
  Real()(sig, &ours, nullptr);
  g_slots[sig].shadow = stored;
  return 0;
}

}  // namespace

int RealSigaction(int sig, const struct sigaction* act, struct sigaction* oact) {
  SigactionFn f = Real();
  if (f == nullptr) {
    errno = ENOSYS;
    return -1;
  }
  return f(sig, act, oact);
}

int ProgramSigaction(int sig, const struct sigaction* act, struct sigaction* oact) {
  if (Real() == nullptr) {
    errno = ENOSYS;
    return -1;
  }
  if (sig <= 0 || sig >= NSIG) return Real()(sig, act, oact);  // the kernel's EINVAL
  if (!InOwnProcess()) {
    // vfork child: the kernel only; report the shadow where gsys's handler shows.
    struct sigaction old {};
    int rc = Real()(sig, act, &old);
    if (rc == 0 && oact != nullptr) {
      *oact = g_slots[sig].taken.load(std::memory_order_acquire) ? g_slots[sig].shadow : old;
    }
    return rc;
  }
  TableLock lock;
  Slot& slot = g_slots[sig];
  if (!slot.taken.load(std::memory_order_relaxed)) return Real()(sig, act, oact);
  struct sigaction previous = slot.shadow;
  int rc = 0;
  if (act != nullptr) {
    if (IsDefault(*act)) {
      rc = SetDefaultOnTaken(sig, *act);
    } else {
      rc = Real()(sig, act, nullptr);  // the program claims the signal: gsys lets go
      if (rc == 0) slot.taken.store(false, std::memory_order_release);
    }
  }
  if (rc == 0 && oact != nullptr) *oact = previous;
  return rc;
}

bool TakeOverSignal(int sig, const struct sigaction& act) {
  if (sig <= 0 || sig >= NSIG || Real() == nullptr) return false;
  long expected = 0;
  g_pid.compare_exchange_strong(expected, syscall(SYS_getpid));
  TableLock lock;
  Slot& slot = g_slots[sig];
  if (slot.taken.load(std::memory_order_relaxed)) {
    // Already gsys's (the flush handler): the new handler replaces it; the shadow stays.
    return Real()(sig, &act, nullptr) == 0;
  }
  struct sigaction current {};
  if (Real()(sig, nullptr, &current) != 0 || !IsDefault(current)) return false;
  if (Real()(sig, &act, nullptr) != 0) return false;
  slot.shadow = current;
  slot.taken.store(true, std::memory_order_release);
  return true;
}

bool SignalTakenOver(int sig) {
  return sig > 0 && sig < NSIG && g_slots[sig].taken.load(std::memory_order_acquire);
}

void SignalShadowForkChild() {
  // fork copied the table with the calling thread's view; a lock another thread held is void.
  g_lock.store(false, std::memory_order_release);
  g_pid.store(syscall(SYS_getpid), std::memory_order_relaxed);
}

}  // namespace gsys::capture
