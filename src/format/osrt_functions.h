// SPDX-License-Identifier: Apache-2.0
// The OS-runtime functions capture can record, by stable id (part of the raw format: ids are
// never reused or renumbered). The name is what OSRT_API.nameId points to, as nsys names it.
#pragma once

#include <cstdint>

namespace gsys::format {

// X(id, name)
#define GSYS_OSRT_FUNCTIONS(X)  \
  X(1, pthread_mutex_lock)      \
  X(2, pthread_mutex_timedlock) \
  X(3, pthread_cond_wait)       \
  X(4, pthread_cond_timedwait)  \
  X(5, pthread_rwlock_rdlock)   \
  X(6, pthread_rwlock_wrlock)   \
  X(7, pthread_join)            \
  X(8, sem_wait)                \
  X(9, sem_timedwait)           \
  X(10, sleep)                  \
  X(11, usleep)                 \
  X(12, nanosleep)              \
  X(13, clock_nanosleep)        \
  X(14, poll)                   \
  X(15, ppoll)                  \
  X(16, select)                 \
  X(17, pselect)                \
  X(18, epoll_wait)             \
  X(19, epoll_pwait)            \
  X(20, read)                   \
  X(21, write)                  \
  X(22, pread)                  \
  X(23, pwrite)                 \
  X(24, readv)                  \
  X(25, writev)                 \
  X(26, recv)                   \
  X(27, recvfrom)               \
  X(28, recvmsg)                \
  X(29, send)                   \
  X(30, sendto)                 \
  X(31, sendmsg)                \
  X(32, open)                   \
  X(33, open64)                 \
  X(34, openat)                 \
  X(35, close)                  \
  X(36, fsync)                  \
  X(37, fdatasync)              \
  X(38, ioctl)                  \
  X(39, mmap)                   \
  X(40, munmap)                 \
  X(41, fork)                   \
  X(42, execve)                 \
  X(43, waitpid)                \
  X(44, wait)                   \
  X(45, sched_yield)            \
  X(46, accept)                 \
  X(47, connect)                \
  X(48, pread64)                \
  X(49, pwrite64)               \
  X(50, mmap64)                 \
  X(51, waitid)                 \
  X(52, fopen)                  \
  X(53, fclose)                 \
  X(54, execvp)                 \
  X(55, execv)

enum class OsrtFunction : uint32_t {
  kUnknown = 0,
#define GSYS_OSRT_ENUM_(id, name) k_##name = id,
  GSYS_OSRT_FUNCTIONS(GSYS_OSRT_ENUM_)
#undef GSYS_OSRT_ENUM_
};

// The function's name, or nullptr for an unknown id (data from a newer capture).
inline const char* OsrtFunctionName(uint32_t id) {
  switch (id) {
#define GSYS_OSRT_CASE_(num, name) \
  case num:                        \
    return #name;
    GSYS_OSRT_FUNCTIONS(GSYS_OSRT_CASE_)
#undef GSYS_OSRT_CASE_
    default:
      return nullptr;
  }
}

}  // namespace gsys::format
