// SPDX-License-Identifier: Apache-2.0
// Test program with known call paths for the stack tests (test_stacks.py).
//   stack_prog calls       outer_call -> middle_call -> inner_sleep -> usleep, three times
//   stack_prog spin SECS [OUT]  cold_setup, then hot_spin until the thread used SECS of CPU
//                          time; with OUT, writes the process's SigCgt line (/proc/self/status:
//                          the signals it has handlers for) there at the end
//   stack_prog work N OUT  a fixed amount of work (N million loop steps in hot_spin's loop),
//                          then writes "THREAD_CPU_NS PROCESS_CPU_NS" to OUT (bench/ uses it to
//                          measure what a sample costs)
// The empty asm statements after each call keep the compiler from turning the calls into tail
// calls, which would drop the callers' frames.
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" {

__attribute__((noinline)) void inner_sleep() {
  usleep(1500);
  __asm__ volatile("");
}
__attribute__((noinline)) void middle_call() {
  inner_sleep();
  __asm__ volatile("");
}
__attribute__((noinline)) void outer_call() {
  middle_call();
  __asm__ volatile("");
}

// Inlined into hot_spin: its clock read is hot_spin's own work, and an out-of-line copy (the
// sanitizer builds at -O1 kept one) took a third of the samples on a loaded machine.
__attribute__((always_inline)) static inline double ThreadCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

__attribute__((noinline)) uint64_t hot_spin(double cpu_seconds) {
  volatile uint64_t x = 0;
  double end = ThreadCpuSeconds() + cpu_seconds;
  while (ThreadCpuSeconds() < end) {
    for (int i = 0; i < 20000; ++i) x = x + static_cast<uint64_t>(i);
  }
  return x;
}

__attribute__((noinline)) uint64_t cold_setup() {
  volatile uint64_t y = 0;
  for (int i = 0; i < 1000; ++i) y = y + static_cast<uint64_t>(i);
  return y;
}

}  // extern "C"

__attribute__((noinline)) static uint64_t fixed_work(long millions) {
  volatile uint64_t x = 0;
  for (long m = 0; m < millions; ++m) {
    for (int i = 0; i < 1000000; ++i) x = x + static_cast<uint64_t>(i);
  }
  return x;
}

static int64_t ClockNs(clockid_t id) {
  timespec ts;
  clock_gettime(id, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

static void CopySigCgt(const char* path) {
  FILE* in = std::fopen("/proc/self/status", "r");
  FILE* out = std::fopen(path, "w");
  char line[256];
  while (in != nullptr && out != nullptr && std::fgets(line, sizeof(line), in) != nullptr) {
    if (std::strncmp(line, "SigCgt:", 7) == 0) std::fputs(line, out);
  }
  if (in != nullptr) std::fclose(in);
  if (out != nullptr) std::fclose(out);
}

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "calls") == 0) {
    for (int i = 0; i < 3; ++i) outer_call();
    return 0;
  }
  if (argc >= 3 && std::strcmp(argv[1], "spin") == 0) {
    cold_setup();
    int rc = hot_spin(std::atof(argv[2])) == 1 ? 1 : 0;
    if (argc >= 4) CopySigCgt(argv[3]);
    return rc;
  }
  if (argc >= 4 && std::strcmp(argv[1], "work") == 0) {
    uint64_t x = fixed_work(std::atol(argv[2]));
    FILE* out = std::fopen(argv[3], "w");
    if (out == nullptr) return 3;
    std::fprintf(out, "%lld %lld\n", static_cast<long long>(ClockNs(CLOCK_THREAD_CPUTIME_ID)),
                 static_cast<long long>(ClockNs(CLOCK_PROCESS_CPUTIME_ID)));
    std::fclose(out);
    return x == 1 ? 1 : 0;
  }
  return 2;
}
