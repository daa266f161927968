// SPDX-License-Identifier: Apache-2.0
// libgsys_test_other_preload.so: "another LD_PRELOAD library" for the fault tests. It
// interposes read() and pthread_mutex_lock() as gsys does (chaining with dlsym(RTLD_NEXT)),
// counts the calls, and prints the count at exit to stderr, so the test can check that both
// preloaded libraries see the program's calls and neither breaks the other.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static atomic_long g_reads;

ssize_t read(int fd, void* buf, size_t n) {
  static ssize_t (*real)(int, void*, size_t);
  if (real == NULL) real = (ssize_t(*)(int, void*, size_t))dlsym(RTLD_NEXT, "read");
  atomic_fetch_add(&g_reads, 1);
  return real(fd, buf, n);
}

static void Report(void) {
  if (getenv("OTHER_PRELOAD_REPORT") != NULL) {
    fprintf(stderr, "other_preload: reads %s\n", atomic_load(&g_reads) > 0 ? "seen" : "none");
  }
}

__attribute__((constructor)) static void Init(void) { atexit(Report); }
