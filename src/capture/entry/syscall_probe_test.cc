// SPDX-License-Identifier: Apache-2.0
// GuardedSyscall under real seccomp filters, each installed in a death-test child (filters
// cannot be removed): a call the filter would kill or trap is not made and the process lives;
// calls the filter allows or answers with an error are made as usual.
#include "capture/entry/syscall_probe.h"

#include <gtest/gtest.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdlib>

namespace gsys::capture {
namespace {

#if defined(__x86_64__)
constexpr unsigned kArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr unsigned kArch = AUDIT_ARCH_AARCH64;
#endif

// `nr` gets `action`; everything else is allowed. False when seccomp is not available.
bool InstallFilter(long nr, unsigned action) {
  sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kArch, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<unsigned>(nr), 0, 1),
      BPF_STMT(BPF_RET | BPF_K, action),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  sock_fprog prog = {static_cast<unsigned short>(sizeof(filter) / sizeof(filter[0])), filter};
  return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
         syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) == 0;
}

// Exit codes of the children: 0 = as expected, 77 = no seccomp here, others = which check.
void KilledCallIsSkipped(unsigned action) {
  if (!InstallFilter(SYS_unshare, action)) std::_Exit(77);
  if (SeccompModeOfThisThread() != 2) std::_Exit(3);
  if (ProbeSyscall(SYS_unshare, CLONE_FILES) != ProbeResult::kUnsafe) std::_Exit(4);
  errno = 0;
  if (GuardedSyscall(SYS_unshare, CLONE_FILES) != -1 || errno != ENOSYS) std::_Exit(5);
  // Cached: still refused, still alive.
  if (GuardedSyscall(SYS_unshare, CLONE_FILES) != -1) std::_Exit(6);
  // Other calls go through.
  if (GuardedSyscall(SYS_getppid) != getppid()) std::_Exit(7);
  std::_Exit(0);
}

void ErrorAnswerIsMade() {
  if (!InstallFilter(SYS_unshare, SECCOMP_RET_ERRNO | EPERM)) std::_Exit(77);
  if (ProbeSyscall(SYS_unshare, CLONE_FILES) != ProbeResult::kSafe) std::_Exit(4);
  errno = 0;
  if (GuardedSyscall(SYS_unshare, CLONE_FILES) != -1 || errno != EPERM) std::_Exit(5);
  std::_Exit(0);
}

int g_sigsys_seen = 0;
void OnSigsys(int) { ++g_sigsys_seen; }

void TrapNeverReachesTheProgramsHandler() {
  // A program that handles SIGSYS itself (a sandbox emulating calls) must not see ours.
  signal(SIGSYS, OnSigsys);
  if (!InstallFilter(SYS_unshare, SECCOMP_RET_TRAP)) std::_Exit(77);
  if (GuardedSyscall(SYS_unshare, CLONE_FILES) != -1) std::_Exit(5);
  if (g_sigsys_seen != 0) std::_Exit(6);
  std::_Exit(0);
}

// Can this process install a filter at all (a kernel or container without seccomp)?
bool SeccompAvailable() {
  pid_t pid = fork();
  if (pid == 0) std::_Exit(InstallFilter(SYS_unshare, SECCOMP_RET_ERRNO | EPERM) ? 0 : 77);
  int st = 0;
  return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

// Runs `body` in a death-test child and expects exit 0.
#define EXPECT_CHILD_OK(body)                                           \
  do {                                                                  \
    if (!SeccompAvailable()) GTEST_SKIP() << "no seccomp filters here"; \
    EXPECT_EXIT(body, ::testing::ExitedWithCode(0), "");                \
  } while (0)

TEST(SyscallProbeTest, KilledCallIsNotMade) {
  EXPECT_CHILD_OK(KilledCallIsSkipped(SECCOMP_RET_KILL_PROCESS));
}

TEST(SyscallProbeTest, KillThreadCallIsNotMade) {
  EXPECT_CHILD_OK(KilledCallIsSkipped(SECCOMP_RET_KILL_THREAD));
}

TEST(SyscallProbeTest, TrappedCallIsNotMade) {
  EXPECT_CHILD_OK(TrapNeverReachesTheProgramsHandler());
}

TEST(SyscallProbeTest, ErrnoAnswerIsMadeAndReturned) { EXPECT_CHILD_OK(ErrorAnswerIsMade()); }

TEST(SyscallProbeTest, ProbeChildIsReapedAndInvisibleToWait) {
  EXPECT_CHILD_OK(([] {
    if (!InstallFilter(SYS_unshare, SECCOMP_RET_KILL_PROCESS)) std::_Exit(77);
    ProbeSyscall(SYS_unshare, CLONE_FILES);
    // No child left for the program to see, and none to reap.
    if (waitpid(-1, nullptr, WNOHANG) != -1 || errno != ECHILD) std::_Exit(8);
    if (waitpid(-1, nullptr, WNOHANG | __WALL) != -1 || errno != ECHILD) std::_Exit(9);
    std::_Exit(0);
  })());
}

// The probe child turns core dumps off with prctl: a filter that kills or traps prctl ended it
// before the probed call, and every call read as one the filter forbids.
void PrctlFilterStillProbes(unsigned action) {
  if (!InstallFilter(SYS_prctl, action)) std::_Exit(77);
  if (ProbeSyscall(SYS_getppid) != ProbeResult::kSafe) std::_Exit(4);
  if (ProbeSyscall(SYS_prctl, PR_GET_DUMPABLE) != ProbeResult::kUnsafe) std::_Exit(5);
  ProbeCall calls[] = {{SYS_getpid, {}}, {SYS_prctl, {PR_GET_NAME}}};
  PrimeSyscallProbes(calls, 2);
  if (ProbeSyscall(SYS_getpid) != ProbeResult::kSafe) std::_Exit(6);
  std::_Exit(0);
}

TEST(SyscallProbeTest, FilterOnPrctlStillProbesOtherCalls) {
  EXPECT_CHILD_OK(PrctlFilterStillProbes(SECCOMP_RET_TRAP));
  EXPECT_CHILD_OK(PrctlFilterStillProbes(SECCOMP_RET_KILL_PROCESS));
}

}  // namespace
}  // namespace gsys::capture
