// SPDX-License-Identifier: Apache-2.0
// The floor of OS-runtime interposition on a machine: the least an LD_PRELOAD wrapper can add.
// pthread_mutex_lock only forwards; read takes two TSC reads around the real call and keeps
// calls over a 1 us threshold in a thread-local slot (what any tracer must do at minimum).
// Compared with gsys's own wrappers by bench/capture/floor_bench.sh.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>
#include <x86intrin.h>

static int (*real_lock)(pthread_mutex_t*);
static ssize_t (*real_read)(int, void*, size_t);
static __thread uint64_t slow_calls __attribute__((tls_model("initial-exec")));

int pthread_mutex_lock(pthread_mutex_t* m) {
  if (__builtin_expect(real_lock == NULL, 0)) real_lock = dlsym(RTLD_NEXT, "pthread_mutex_lock");
  return real_lock(m);
}

ssize_t read(int fd, void* buf, size_t n) {
  if (__builtin_expect(real_read == NULL, 0)) real_read = dlsym(RTLD_NEXT, "read");
  uint64_t t0 = __rdtsc();
  ssize_t rc = real_read(fd, buf, n);
  if (__rdtsc() - t0 > 3000) ++slow_calls;
  return rc;
}
