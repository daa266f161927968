// SPDX-License-Identifier: Apache-2.0
// What a perf_event CPU sample costs the sampled thread, per sample content, and whether the
// kernel's frame-pointer callchain is right in code built without frame pointers (the question
// behind gsys's choice of PERF_SAMPLE_REGS_USER|STACK_USER + DWARF unwinding, docs/stacks.md).
//
//   cc -O2 -fomit-frame-pointer -rdynamic bench/perf_sample_probe.c -o /tmp/probe -ldl
//   /tmp/probe MILLION_STEPS HZ   (prints one line per variant)
//
// The thread samples itself: a task-clock event on its own tid, drained in the loop every 2^20
// steps (headers walked, callchains checked). Variants: no event; TID|TIME|CPU; + REGS_USER;
// + STACK_USER 8 KiB (gsys); + CALLCHAIN (user only). For CALLCHAIN, "main ok" is the share of
// samples in work() whose next user frame is main (what a correct stack shows). The phase
// sampling-cost of bench/device_session.sh (bench/device/sampling_cost.sh) builds and runs it.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define PAGES 64
static uint8_t* g_ring;
static long g_samples, g_main_ok, g_in_work;
static uint64_t g_type;

static double ThreadCpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int IsFunc(uint64_t addr, const char* name) {
  Dl_info info;
  return dladdr((void*)addr, &info) != 0 && info.dli_sname != NULL &&
         strcmp(info.dli_sname, name) == 0;
}

static void Drain(void) {
  if (g_ring == NULL) return;
  struct perf_event_mmap_page* meta = (struct perf_event_mmap_page*)g_ring;
  uint8_t* data = g_ring + sysconf(_SC_PAGESIZE);
  uint64_t size = PAGES * sysconf(_SC_PAGESIZE);
  uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE), tail = meta->data_tail;
  while (tail < head) {
    struct perf_event_header h;
    uint8_t rec[16384];
    for (size_t i = 0; i < sizeof(h); ++i) ((uint8_t*)&h)[i] = data[(tail + i) % size];
    if (h.size < sizeof(h)) break;
    if (h.type == PERF_RECORD_SAMPLE) {
      ++g_samples;
      if ((g_type & PERF_SAMPLE_CALLCHAIN) && h.size <= sizeof(rec)) {
        for (size_t i = 0; i < h.size; ++i) rec[i] = data[(tail + i) % size];
        // tid(8) time(8) cpu(8) nr(8) ips[nr]
        uint64_t nr, ip;
        memcpy(&nr, rec + 8 + 24, 8);
        uint64_t* ips = (uint64_t*)(rec + 8 + 32);
        int k = 0;
        while (k < (int)nr && ips[k] >= (uint64_t)-4095) ++k;  // PERF_CONTEXT_USER marker
        memcpy(&ip, &ips[k], 8);
        if (k < (int)nr && IsFunc(ip, "work")) {
          ++g_in_work;
          if (k + 1 < (int)nr && IsFunc(ips[k + 1] - 1, "main")) ++g_main_ok;
        }
      }
    }
    tail += h.size;
  }
  __atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}

__attribute__((noinline)) uint64_t work(long millions) {
  volatile uint64_t x = 0;
  for (long m = 0; m < millions; ++m) {
    for (int i = 0; i < 1000000; ++i) x = x + (uint64_t)i;
    Drain();
  }
  return x;
}

int main(int argc, char** argv) {
  long steps = argc > 1 ? atol(argv[1]) : 1000;
  long hz = argc > 2 ? atol(argv[2]) : 1000;
  const char* names[] = {"none", "tid|time|cpu", "+regs_user", "+stack_user 8K (gsys)",
                         "+callchain (fp)"};
  uint64_t base = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
  uint64_t types[] = {0, base, base | PERF_SAMPLE_REGS_USER,
                      base | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER,
                      base | PERF_SAMPLE_CALLCHAIN};
  double none = 0;
  for (int v = 0; v < 5; ++v) {
    int fd = -1;
    g_ring = NULL;
    g_samples = g_main_ok = g_in_work = 0;
    g_type = types[v];
    if (v > 0) {
      struct perf_event_attr a;
      memset(&a, 0, sizeof(a));
      a.size = sizeof(a);
      a.type = PERF_TYPE_SOFTWARE;
      a.config = PERF_COUNT_SW_TASK_CLOCK;
      a.sample_period = 1000000000 / hz;
      a.sample_type = types[v];
      a.sample_regs_user = (1 << 6) | (1 << 7) | (1 << 8);
      a.sample_stack_user = 8192;
      a.exclude_kernel = 1;
      a.exclude_hv = 1;
      a.exclude_callchain_kernel = 1;
      a.use_clockid = 1;
      a.clockid = CLOCK_MONOTONIC;
      fd = (int)syscall(SYS_perf_event_open, &a, (pid_t)syscall(SYS_gettid), -1, -1, 0);
      if (fd < 0) {
        perror("perf_event_open");
        return 1;
      }
      g_ring = mmap(NULL, (PAGES + 1) * sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE, MAP_SHARED,
                    fd, 0);
      if (g_ring == MAP_FAILED) return 1;
    }
    double t0 = ThreadCpu();
    work(steps);
    double t = ThreadCpu() - t0;
    if (v == 0) none = t;
    printf("%-24s cpu %.3f s  samples %6ld  %+7.2f us/sample", names[v], t, g_samples,
           g_samples ? (t - none) * 1e6 / g_samples : 0.0);
    if (types[v] & PERF_SAMPLE_CALLCHAIN) {
      printf("  in work %ld, caller main %ld (%.0f %%)", g_in_work, g_main_ok,
             g_in_work ? 100.0 * g_main_ok / g_in_work : 0.0);
    }
    printf("\n");
    if (fd >= 0) {
      munmap(g_ring, (PAGES + 1) * sysconf(_SC_PAGESIZE));
      close(fd);
    }
  }
  return 0;
}
