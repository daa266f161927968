// SPDX-License-Identifier: Apache-2.0
// Syscalls the capture library makes on its own behalf, ones the program itself may never make
// (unshare, close_range, prctl, statfs, perf_event_open), must not be able to kill the program.
// A seccomp filter may answer such a call with SECCOMP_RET_KILL_* or SECCOMP_RET_TRAP (SIGSYS,
// fatal or handled by the program's own handler) instead of an error. GuardedSyscall makes the
// call only when that cannot happen: without a filter on the calling thread (`Seccomp:` in
// /proc/thread-self/status is 0), or when the same call survived in a throw-away child.
//
// The child is a raw clone with no exit signal: no SIGCHLD, and the program's wait(-1) cannot
// reap it (only __WALL/__WCLONE waits see such children); no atfork handler runs. It resets
// SIGSYS to the default action, makes the call and exits; a child that dies of a signal means
// the call would kill or trap. A child that does not finish within ~2 s is killed and the call
// counts as unsafe. Results are cached per (syscall, first argument): "unsafe" for good (filters
// are never removed), "safe" while the thread's filter count (`Seccomp_filters:`) is unchanged.
//
// Limits: a filter that kills the probe's own clone kills the process (such a program cannot
// fork either); a filter installed with SECCOMP_FILTER_FLAG_TSYNC after a "safe" answer on a
// kernel without `Seccomp_filters:` (< 5.9) is not seen.
#pragma once

namespace gsys::capture {

// Outcome of a probe, also the cache states.
enum class ProbeResult { kSafe, kUnsafe };

// 0: no seccomp on the calling thread, 1: strict mode, 2: filter mode; -1 when unreadable.
int SeccompModeOfThisThread();

// Makes the calling thread's probes read `fd` (its own /proc status file, opened by another
// thread where the program could not see it) instead of opening the file each time: in a
// descriptor table shared with the program, an open would be seen at the lowest free number
// (sink.cc, the writer thread). -1, or a descriptor that is no longer that file: open again.
void UseStatusDescriptor(int fd);

// Would syscall(nr, a0..a5) return to the caller (with any result or error)? Never makes the
// call in this process.
ProbeResult ProbeSyscall(long nr, long a0 = 0, long a1 = 0, long a2 = 0, long a3 = 0, long a4 = 0,
                         long a5 = 0);

// One call to probe ahead of time.
struct ProbeCall {
  long nr;
  long args[6];
};
// Probes several calls in one throw-away child (one fork instead of one each: under a filter,
// e.g. in every Docker container, each fork costs ~2 ms of CPU) and caches the answers, so
// later GuardedSyscall/SyscallAllowed calls of them need no child. Calls after one that kills
// stay unprobed (they get their own probe if made). No-op without a filter.
void PrimeSyscallProbes(const ProbeCall* calls, int count);

// ProbeSyscall == kSafe; when not, one log line per syscall number says the call is not made.
bool SyscallAllowed(long nr, long a0 = 0, long a1 = 0, long a2 = 0, long a3 = 0, long a4 = 0,
                    long a5 = 0);

// syscall(nr, a0..a5) when it cannot kill or trap; otherwise -1 with errno = ENOSYS (and one log
// line per syscall number saying it was not made). errno is the call's own on other failures.
long GuardedSyscall(long nr, long a0 = 0, long a1 = 0, long a2 = 0, long a3 = 0, long a4 = 0,
                    long a5 = 0);

}  // namespace gsys::capture
