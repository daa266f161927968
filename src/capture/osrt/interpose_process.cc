// SPDX-License-Identifier: Apache-2.0
// Interposed process calls: fork/wait are timed; exec and spawn flush the stream first and
// repair the environment so the new image is captured too; _exit flushes (Python's os._exit
// in multiprocessing children skips atexit).
#include <spawn.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdarg>
#include <cstring>

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
  int rc = GSYS_REAL(execve)(path, argv, env);
  gsys::capture::SinkReopenAfterFailedExec();  // exec returned: it failed
  return rc;
}

GSYS_EXPORT int execv(const char* path, char* const argv[]) noexcept {
  char* const* env = OsrtPrepareExec(environ, true);
  int rc = GSYS_REAL(execve)(path, argv, env);
  gsys::capture::SinkReopenAfterFailedExec();  // exec returned: it failed
  return rc;
}

GSYS_EXPORT int execvpe(const char* file, char* const argv[], char* const envp[]) noexcept {
  char* const* env = OsrtPrepareExec(envp, true);
  int rc = GSYS_REAL(execvpe)(file, argv, env);
  gsys::capture::SinkReopenAfterFailedExec();  // exec returned: it failed
  return rc;
}

GSYS_EXPORT int execvp(const char* file, char* const argv[]) noexcept {
  char* const* env = OsrtPrepareExec(environ, true);
  int rc = GSYS_REAL(execvpe)(file, argv, env);
  gsys::capture::SinkReopenAfterFailedExec();  // exec returned: it failed
  return rc;
}

// execl, execlp and execle: glibc implements them with an internal execve call that LD_PRELOAD
// cannot see, so without these the pre-exec image would not flush (its last flush period lost)
// and an image that cleared its environment would exec uncaptured. The variadic list becomes an
// argv array (on the stack; mmap for very long lists, no malloc: this may run after vfork).
namespace {

struct ArgvFromList {
  static constexpr int kStack = 256;
  char* stack[kStack + 1];
  char** argv = stack;
  size_t mapped = 0;
  ~ArgvFromList() {
    if (mapped != 0) munmap(argv, mapped);
  }
};

// Fills `out` with arg0 and the rest of `ap` up to the terminating nullptr; false when out of
// memory. `count` is the number of arguments (without the nullptr), counted on a copy of `ap`.
bool BuildArgv(ArgvFromList* out, const char* arg0, va_list ap, size_t count) {
  if (count > ArgvFromList::kStack) {
    size_t bytes = (count + 1) * sizeof(char*);
    void* m = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return false;
    out->argv = static_cast<char**>(m);
    out->mapped = bytes;
  }
  out->argv[0] = const_cast<char*>(arg0);
  for (size_t i = 1; i < count; ++i) out->argv[i] = va_arg(ap, char*);
  out->argv[count] = nullptr;
  return true;
}

size_t CountArgs(const char* arg0, va_list ap) {
  size_t n = arg0 != nullptr ? 1 : 0;
  if (arg0 == nullptr) return 0;
  while (va_arg(ap, char*) != nullptr) ++n;
  return n;
}

}  // namespace

GSYS_EXPORT int execl(const char* path, const char* arg, ...) {
  va_list ap, count_ap;
  va_start(ap, arg);
  va_copy(count_ap, ap);
  size_t n = CountArgs(arg, count_ap);
  va_end(count_ap);
  ArgvFromList list;
  bool ok = BuildArgv(&list, arg, ap, n);
  va_end(ap);
  if (!ok) {
    errno = ENOMEM;
    return -1;
  }
  return execve(path, list.argv, environ);
}

GSYS_EXPORT int execlp(const char* file, const char* arg, ...) {
  va_list ap, count_ap;
  va_start(ap, arg);
  va_copy(count_ap, ap);
  size_t n = CountArgs(arg, count_ap);
  va_end(count_ap);
  ArgvFromList list;
  bool ok = BuildArgv(&list, arg, ap, n);
  va_end(ap);
  if (!ok) {
    errno = ENOMEM;
    return -1;
  }
  return execvp(file, list.argv);
}

GSYS_EXPORT int execle(const char* path, const char* arg, ...) {
  va_list ap, count_ap;
  va_start(ap, arg);
  va_copy(count_ap, ap);
  size_t n = CountArgs(arg, count_ap);
  va_end(count_ap);
  ArgvFromList list;
  bool ok = BuildArgv(&list, arg, ap, n);
  if (n != 0) (void)va_arg(ap, char*);  // the list's terminating nullptr
  char* const* envp = va_arg(ap, char* const*);
  va_end(ap);
  if (!ok) {
    errno = ENOMEM;
    return -1;
  }
  return execve(path, list.argv, envp);
}

GSYS_EXPORT int posix_spawn(pid_t* pid, const char* path, const posix_spawn_file_actions_t* fa,
                            const posix_spawnattr_t* attr, char* const argv[], char* const envp[]) {
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

// A program that clears its environment (clearenv(), environ = nullptr) before its first NVTX
// call would make the NVTX loader find no NVTX_INJECTION64_PATH, and lose its NVTX events
// although the library is loaded: answer that one name from the capture's own settings.
// The lookup is glibc's (a scan of `environ`), done here rather than through dlsym: resolving
// the real getenv could allocate, and an allocator that reads its settings with getenv during
// its own initialization would re-enter this function before the answer exists.
GSYS_EXPORT char* getenv(const char* name) noexcept {
  size_t len = std::strlen(name);
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    if (std::strncmp(*e, name, len) == 0 && (*e)[len] == '=') return *e + len + 1;
  }
  if (len != 21 || std::strcmp(name, "NVTX_INJECTION64_PATH") != 0) return nullptr;
  gsys::capture::Context& ctx = gsys::capture::CaptureContext();
  if (!ctx.active || !ctx.config.trace_nvtx || ctx.config.inject_path[0] == '\0') return nullptr;
  return ctx.config.inject_path;
}
