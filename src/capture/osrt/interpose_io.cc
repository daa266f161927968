// SPDX-License-Identifier: Apache-2.0
// Interposed I/O, polling, socket and memory-mapping calls.
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "capture/osrt/osrt.h"

using gsys::capture::OsrtScope;
using gsys::capture::OsrtShouldTime;
using F = gsys::format::OsrtFunction;

// One timed wrapper: `quals` is noexcept where glibc declares the function __THROW.
// The timed path is out of line so the pass-through path stays a few instructions.
#define GSYS_WRAP(ret, name, params, args, quals)                            \
  __attribute__((noinline)) static ret GsysTimed_##name params {             \
    OsrtScope s;                                                             \
    ret rc = GSYS_REAL(name) args;                                           \
    s.Done(F::k_##name, static_cast<int64_t>(rc));                           \
    return rc;                                                               \
  }                                                                          \
  GSYS_EXPORT ret name params quals {                                        \
    if (__builtin_expect(!OsrtShouldTime(), 0)) return GSYS_REAL(name) args; \
    return GsysTimed_##name args;                                            \
  }

GSYS_WRAP(ssize_t, read, (int fd, void* buf, size_t n), (fd, buf, n), )
GSYS_WRAP(ssize_t, write, (int fd, const void* buf, size_t n), (fd, buf, n), )
GSYS_WRAP(ssize_t, pread, (int fd, void* buf, size_t n, off_t off), (fd, buf, n, off), )
GSYS_WRAP(ssize_t, pwrite, (int fd, const void* buf, size_t n, off_t off), (fd, buf, n, off), )
GSYS_WRAP(ssize_t, pread64, (int fd, void* buf, size_t n, off64_t off), (fd, buf, n, off), )
GSYS_WRAP(ssize_t, pwrite64, (int fd, const void* buf, size_t n, off64_t off), (fd, buf, n, off), )
GSYS_WRAP(ssize_t, readv, (int fd, const struct iovec* v, int n), (fd, v, n), )
GSYS_WRAP(ssize_t, writev, (int fd, const struct iovec* v, int n), (fd, v, n), )
GSYS_WRAP(ssize_t, recv, (int fd, void* buf, size_t n, int flags), (fd, buf, n, flags), )
GSYS_WRAP(ssize_t, recvfrom,
          (int fd, void* buf, size_t n, int flags, struct sockaddr* a, socklen_t* al),
          (fd, buf, n, flags, a, al), )
GSYS_WRAP(ssize_t, recvmsg, (int fd, struct msghdr* m, int flags), (fd, m, flags), )
GSYS_WRAP(ssize_t, send, (int fd, const void* buf, size_t n, int flags), (fd, buf, n, flags), )
GSYS_WRAP(ssize_t, sendto,
          (int fd, const void* buf, size_t n, int flags, const struct sockaddr* a, socklen_t al),
          (fd, buf, n, flags, a, al), )
GSYS_WRAP(ssize_t, sendmsg, (int fd, const struct msghdr* m, int flags), (fd, m, flags), )
GSYS_WRAP(int, accept, (int fd, struct sockaddr* a, socklen_t* al), (fd, a, al), )
GSYS_WRAP(int, connect, (int fd, const struct sockaddr* a, socklen_t al), (fd, a, al), )
GSYS_WRAP(int, close, (int fd), (fd), )
GSYS_WRAP(int, fsync, (int fd), (fd), )
GSYS_WRAP(int, fdatasync, (int fd), (fd), )
GSYS_WRAP(int, poll, (struct pollfd * f, nfds_t n, int t), (f, n, t), )
GSYS_WRAP(int, ppoll, (struct pollfd * f, nfds_t n, const struct timespec* t, const sigset_t* m),
          (f, n, t, m), )
GSYS_WRAP(int, select, (int n, fd_set* r, fd_set* w, fd_set* e, struct timeval* t),
          (n, r, w, e, t), )
GSYS_WRAP(int, pselect,
          (int n, fd_set* r, fd_set* w, fd_set* e, const struct timespec* t, const sigset_t* m),
          (n, r, w, e, t, m), )
GSYS_WRAP(int, epoll_wait, (int fd, struct epoll_event* ev, int n, int t), (fd, ev, n, t), )
GSYS_WRAP(int, epoll_pwait, (int fd, struct epoll_event* ev, int n, int t, const sigset_t* m),
          (fd, ev, n, t, m), )
GSYS_WRAP(int, munmap, (void* a, size_t n), (a, n), noexcept)

GSYS_EXPORT void* mmap(void* a, size_t n, int prot, int flags, int fd, off_t off) noexcept {
  if (!OsrtShouldTime()) return GSYS_REAL(mmap)(a, n, prot, flags, fd, off);
  OsrtScope s;
  void* rc = GSYS_REAL(mmap)(a, n, prot, flags, fd, off);
  s.Done(F::k_mmap, rc == MAP_FAILED ? -1 : 0);
  return rc;
}

GSYS_EXPORT void* mmap64(void* a, size_t n, int prot, int flags, int fd, off64_t off) noexcept {
  if (!OsrtShouldTime()) return GSYS_REAL(mmap64)(a, n, prot, flags, fd, off);
  OsrtScope s;
  void* rc = GSYS_REAL(mmap64)(a, n, prot, flags, fd, off);
  s.Done(F::k_mmap64, rc == MAP_FAILED ? -1 : 0);
  return rc;
}

GSYS_EXPORT int ioctl(int fd, unsigned long request, ...) noexcept {
  va_list ap;
  va_start(ap, request);
  void* arg = va_arg(ap, void*);
  va_end(ap);
  if (!OsrtShouldTime()) return GSYS_REAL(ioctl)(fd, request, arg);
  OsrtScope s;
  int rc = GSYS_REAL(ioctl)(fd, request, arg);
  s.Done(F::k_ioctl, rc);
  return rc;
}

// open/openat take a mode only with O_CREAT or O_TMPFILE.
#define GSYS_OPEN_MODE(flags, last)                                 \
  mode_t mode = 0;                                                  \
  if (((flags)&O_CREAT) != 0 || ((flags)&O_TMPFILE) == O_TMPFILE) { \
    va_list ap;                                                     \
    va_start(ap, last);                                             \
    mode = static_cast<mode_t>(va_arg(ap, int));                    \
    va_end(ap);                                                     \
  }

GSYS_EXPORT int open(const char* path, int flags, ...) {
  GSYS_OPEN_MODE(flags, flags)
  if (!OsrtShouldTime()) return GSYS_REAL(open)(path, flags, mode);
  OsrtScope s;
  int rc = GSYS_REAL(open)(path, flags, mode);
  s.Done(F::k_open, rc);
  return rc;
}

GSYS_EXPORT int open64(const char* path, int flags, ...) {
  GSYS_OPEN_MODE(flags, flags)
  if (!OsrtShouldTime()) return GSYS_REAL(open64)(path, flags, mode);
  OsrtScope s;
  int rc = GSYS_REAL(open64)(path, flags, mode);
  s.Done(F::k_open64, rc);
  return rc;
}

GSYS_EXPORT int openat(int dirfd, const char* path, int flags, ...) {
  GSYS_OPEN_MODE(flags, flags)
  if (!OsrtShouldTime()) return GSYS_REAL(openat)(dirfd, path, flags, mode);
  OsrtScope s;
  int rc = GSYS_REAL(openat)(dirfd, path, flags, mode);
  s.Done(F::k_openat, rc);
  return rc;
}
