// SPDX-License-Identifier: Apache-2.0
// Interposed synchronization and sleep calls. Locks try the non-blocking variant first: an
// uncontended lock never waits, so it is not timed at all (the added cost is one branch).
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <time.h>
#include <unistd.h>

#include "capture/osrt/osrt.h"

using gsys::capture::OsrtScope;
using gsys::capture::OsrtShouldTime;
using F = gsys::format::OsrtFunction;

__attribute__((noinline)) static int TimedMutexLock(pthread_mutex_t* m) {
  OsrtScope s;
  int rc = GSYS_REAL(pthread_mutex_lock)(m);
  s.Done(F::k_pthread_mutex_lock, rc);
  return rc;
}

// glibc keeps the lock word first (__data.__lock, 0 = free): a free mutex will not make us
// wait, so it is locked directly without timing. The peek is racy on purpose: it only decides
// whether to time the call; the real pthread_mutex_lock always does the locking.
GSYS_EXPORT int pthread_mutex_lock(pthread_mutex_t* m) noexcept {
  if (__builtin_expect(!OsrtShouldTime(), 0) ||
      __atomic_load_n(&m->__data.__lock, __ATOMIC_RELAXED) == 0) {
    return GSYS_REAL(pthread_mutex_lock)(m);
  }
  return TimedMutexLock(m);
}

GSYS_EXPORT int pthread_mutex_timedlock(pthread_mutex_t* m, const struct timespec* t) noexcept {
  if (!OsrtShouldTime()) return GSYS_REAL(pthread_mutex_timedlock)(m, t);
  OsrtScope s;
  int rc = GSYS_REAL(pthread_mutex_timedlock)(m, t);
  s.Done(F::k_pthread_mutex_timedlock, rc);
  return rc;
}

GSYS_EXPORT int pthread_cond_wait(pthread_cond_t* c, pthread_mutex_t* m) {
  if (!OsrtShouldTime()) return GSYS_REAL(pthread_cond_wait)(c, m);
  OsrtScope s;
  int rc = GSYS_REAL(pthread_cond_wait)(c, m);
  s.Done(F::k_pthread_cond_wait, rc);
  return rc;
}

GSYS_EXPORT int pthread_cond_timedwait(pthread_cond_t* c, pthread_mutex_t* m,
                                       const struct timespec* t) {
  if (!OsrtShouldTime()) return GSYS_REAL(pthread_cond_timedwait)(c, m, t);
  OsrtScope s;
  int rc = GSYS_REAL(pthread_cond_timedwait)(c, m, t);
  s.Done(F::k_pthread_cond_timedwait, rc);
  return rc;
}

GSYS_EXPORT int pthread_rwlock_rdlock(pthread_rwlock_t* l) noexcept {
  if (!OsrtShouldTime()) return GSYS_REAL(pthread_rwlock_rdlock)(l);
  int rc = GSYS_REAL(pthread_rwlock_tryrdlock)(l);
  if (rc != EBUSY) return rc;
  OsrtScope s;
  rc = GSYS_REAL(pthread_rwlock_rdlock)(l);
  s.Done(F::k_pthread_rwlock_rdlock, rc);
  return rc;
}

GSYS_EXPORT int pthread_rwlock_wrlock(pthread_rwlock_t* l) noexcept {
  if (!OsrtShouldTime()) return GSYS_REAL(pthread_rwlock_wrlock)(l);
  int rc = GSYS_REAL(pthread_rwlock_trywrlock)(l);
  if (rc != EBUSY) return rc;
  OsrtScope s;
  rc = GSYS_REAL(pthread_rwlock_wrlock)(l);
  s.Done(F::k_pthread_rwlock_wrlock, rc);
  return rc;
}

GSYS_EXPORT int pthread_join(pthread_t t, void** ret) {
  if (!OsrtShouldTime()) return GSYS_REAL(pthread_join)(t, ret);
  OsrtScope s;
  int rc = GSYS_REAL(pthread_join)(t, ret);
  s.Done(F::k_pthread_join, rc);
  return rc;
}

GSYS_EXPORT int sem_wait(sem_t* sem) {
  if (!OsrtShouldTime()) return GSYS_REAL(sem_wait)(sem);
  if (GSYS_REAL(sem_trywait)(sem) == 0) return 0;
  errno = 0;
  OsrtScope s;
  int rc = GSYS_REAL(sem_wait)(sem);
  s.Done(F::k_sem_wait, rc);
  return rc;
}

GSYS_EXPORT int sem_timedwait(sem_t* sem, const struct timespec* t) {
  if (!OsrtShouldTime()) return GSYS_REAL(sem_timedwait)(sem, t);
  OsrtScope s;
  int rc = GSYS_REAL(sem_timedwait)(sem, t);
  s.Done(F::k_sem_timedwait, rc);
  return rc;
}

GSYS_EXPORT unsigned int sleep(unsigned int seconds) {
  if (!OsrtShouldTime()) return GSYS_REAL(sleep)(seconds);
  OsrtScope s;
  unsigned int rc = GSYS_REAL(sleep)(seconds);
  s.Done(F::k_sleep, rc);
  return rc;
}

GSYS_EXPORT int usleep(useconds_t usec) {
  if (!OsrtShouldTime()) return GSYS_REAL(usleep)(usec);
  OsrtScope s;
  int rc = GSYS_REAL(usleep)(usec);
  s.Done(F::k_usleep, rc);
  return rc;
}

GSYS_EXPORT int nanosleep(const struct timespec* req, struct timespec* rem) {
  if (!OsrtShouldTime()) return GSYS_REAL(nanosleep)(req, rem);
  OsrtScope s;
  int rc = GSYS_REAL(nanosleep)(req, rem);
  s.Done(F::k_nanosleep, rc);
  return rc;
}

GSYS_EXPORT int clock_nanosleep(clockid_t clock, int flags, const struct timespec* req,
                                struct timespec* rem) {
  if (!OsrtShouldTime()) return GSYS_REAL(clock_nanosleep)(clock, flags, req, rem);
  OsrtScope s;
  int rc = GSYS_REAL(clock_nanosleep)(clock, flags, req, rem);
  s.Done(F::k_clock_nanosleep, rc);
  return rc;
}

GSYS_EXPORT int sched_yield() noexcept {
  if (!OsrtShouldTime()) return GSYS_REAL(sched_yield)();
  OsrtScope s;
  int rc = GSYS_REAL(sched_yield)();
  s.Done(F::k_sched_yield, rc);
  return rc;
}
