// SPDX-License-Identifier: Apache-2.0
// Per-call cost of the hot paths capture adds to. Run it bare and under `gsys profile`;
// the difference is gsys's added cost (bench/capture/run_bench.sh).
//   capture_bench nvtx  N   N x (nvtxRangePushA(plain string) + nvtxRangePop)
//   capture_bench mutex N   N x uncontended pthread_mutex_lock + unlock
//   capture_bench read  N   N x read(/dev/zero, 1 byte)
//   capture_bench tsc   N   N x two back-to-back __rdtsc() reads (the clock floor of a timed call)
// BENCH_IDLE_THREAD=1 starts an idle second thread first, so the bare run is multi-threaded
// like any process gsys has injected its writer thread into (glibc takes cheaper paths in
// single-threaded processes, e.g. for cancellation points such as read).
// Prints "MODE ns_per_op=X" (median of 7 rounds) and the process's peak RSS.
#include <fcntl.h>
#include <nvtx3/nvToolsExt.h>
#include <pthread.h>
#include <unistd.h>
#include <x86intrin.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

double Round(const char* mode, long n, int fd) {
  static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
  char c;
  auto t0 = std::chrono::steady_clock::now();
  if (std::strcmp(mode, "nvtx") == 0) {
    for (long i = 0; i < n; ++i) {
      nvtxRangePushA("bench_range");
      nvtxRangePop();
    }
  } else if (std::strcmp(mode, "mutex") == 0) {
    for (long i = 0; i < n; ++i) {
      pthread_mutex_lock(&mu);
      pthread_mutex_unlock(&mu);
    }
  } else if (std::strcmp(mode, "tsc") == 0) {
    unsigned long long sink = 0;
    for (long i = 0; i < n; ++i) {
      unsigned long long a = __rdtsc();
      sink += __rdtsc() - a;
    }
    if (sink == 1) std::puts("");  // keeps the loop
  } else {
    for (long i = 0; i < n; ++i) {
      if (read(fd, &c, 1) != 1) std::abort();
    }
  }
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(n);
}

long PeakRssKb() {
  FILE* f = std::fopen("/proc/self/status", "r");
  char line[256];
  long kb = 0;
  while (f != nullptr && std::fgets(line, sizeof(line), f)) {
    if (std::strncmp(line, "VmHWM:", 6) == 0) kb = std::atol(line + 6);
  }
  if (f) std::fclose(f);
  return kb;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s nvtx|mutex|read|tsc N\n", argv[0]);
    return 2;
  }
  const char* mode = argv[1];
  long n = std::atol(argv[2]);
  const char* idle = std::getenv("BENCH_IDLE_THREAD");
  pthread_t idle_thread;
  if (idle != nullptr && idle[0] == '1') {
    pthread_create(
        &idle_thread, nullptr,
        [](void*) -> void* {
          pause();
          return nullptr;
        },
        nullptr);
  }
  int fd = open("/dev/zero", O_RDONLY);
  Round(mode, n / 10, fd);  // warm up (NVTX init, lazy binding, first buffer)
  std::vector<double> rounds;
  for (int r = 0; r < 7; ++r) {
    rounds.push_back(Round(mode, n, fd));
    usleep(200000);  // let the writer drain between rounds
  }
  std::sort(rounds.begin(), rounds.end());
  std::printf("%s ns_per_op=%.2f min=%.2f max=%.2f peak_rss_kb=%ld\n", mode, rounds[3], rounds[0],
              rounds[6], PeakRssKb());
  return 0;
}
