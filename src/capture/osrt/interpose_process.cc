// SPDX-License-Identifier: Apache-2.0
// Interposed process calls: fork/wait are timed; exec and spawn flush the stream first and
// repair the environment so the new image is captured too; _exit flushes (Python's os._exit
// in multiprocessing children skips atexit).
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture/entry/context.h"
#include "capture/osrt/osrt.h"

extern char** environ;

using gsys::capture::OsrtPrepareExec;
using gsys::capture::OsrtScope;
using gsys::capture::OsrtShouldTime;
using F = gsys::format::OsrtFunction;

GSYS_EXPORT pid_t fork() noexcept {
  if (!OsrtShouldTime()) return GSYS_REAL(fork)();
  int64_t start = gsys::capture::NowTicks();
  pid_t rc = GSYS_REAL(fork)();
  if (rc != 0) {
    // Parent only: the child starts a new stream of its own.
    ++gsys::capture::t_thread.guard;
    int64_t end = gsys::capture::NowTicks();
    if (end - start >= gsys::capture::NsToTicks(gsys::capture::g_osrt_threshold_ns) &&
        gsys::capture::InWindow()) {
      gsys::format::OsrtCallBody body{start, end, rc, static_cast<uint32_t>(F::k_fork), 0};
      gsys::capture::EmitRecord(gsys::format::RecordKind::kOsrtCall, body);
    }
    --gsys::capture::t_thread.guard;
  }
  return rc;
}

GSYS_EXPORT pid_t waitpid(pid_t pid, int* status, int options) {
  if (!OsrtShouldTime()) return GSYS_REAL(waitpid)(pid, status, options);
  OsrtScope s;
  pid_t rc = GSYS_REAL(waitpid)(pid, status, options);
  s.Done(F::k_waitpid, rc);
  return rc;
}

GSYS_EXPORT pid_t wait(int* status) {
  if (!OsrtShouldTime()) return GSYS_REAL(wait)(status);
  OsrtScope s;
  pid_t rc = GSYS_REAL(wait)(status);
  s.Done(F::k_wait, rc);
  return rc;
}

GSYS_EXPORT int waitid(idtype_t type, id_t id, siginfo_t* info, int options) {
  if (!OsrtShouldTime()) return GSYS_REAL(waitid)(type, id, info, options);
  OsrtScope s;
  int rc = GSYS_REAL(waitid)(type, id, info, options);
  s.Done(F::k_waitid, rc);
  return rc;
}

GSYS_EXPORT int execve(const char* path, char* const argv[], char* const envp[]) noexcept {
  char* const* env = OsrtPrepareExec(envp, true);
  return GSYS_REAL(execve)(path, argv, env);
}

GSYS_EXPORT int execv(const char* path, char* const argv[]) noexcept {
  char* const* env = OsrtPrepareExec(environ, true);
  return GSYS_REAL(execve)(path, argv, env);
}

GSYS_EXPORT int execvpe(const char* file, char* const argv[], char* const envp[]) noexcept {
  char* const* env = OsrtPrepareExec(envp, true);
  return GSYS_REAL(execvpe)(file, argv, env);
}

GSYS_EXPORT int execvp(const char* file, char* const argv[]) noexcept {
  char* const* env = OsrtPrepareExec(environ, true);
  return GSYS_REAL(execvpe)(file, argv, env);
}

GSYS_EXPORT int posix_spawn(pid_t* pid, const char* path, const posix_spawn_file_actions_t* fa,
                            const posix_spawnattr_t* attr, char* const argv[],
                            char* const envp[]) {
  char* const* env = OsrtPrepareExec(envp, false);
  return GSYS_REAL(posix_spawn)(pid, path, fa, attr, argv, env);
}

GSYS_EXPORT int posix_spawnp(pid_t* pid, const char* file, const posix_spawn_file_actions_t* fa,
                             const posix_spawnattr_t* attr, char* const argv[],
                             char* const envp[]) {
  char* const* env = OsrtPrepareExec(envp, false);
  return GSYS_REAL(posix_spawnp)(pid, file, fa, attr, argv, env);
}

GSYS_EXPORT void _exit(int status) {
  if (static_cast<uint32_t>(syscall(SYS_getpid)) == gsys::capture::SinkPid()) {
    gsys::capture::FinalFlush();
  }
  GSYS_REAL(_exit)(status);
  __builtin_unreachable();
}

GSYS_EXPORT void _Exit(int status) {
  if (static_cast<uint32_t>(syscall(SYS_getpid)) == gsys::capture::SinkPid()) {
    gsys::capture::FinalFlush();
  }
  GSYS_REAL(_Exit)(status);
  __builtin_unreachable();
}
