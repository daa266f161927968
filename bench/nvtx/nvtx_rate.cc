// SPDX-License-Identifier: Apache-2.0
// Paced NVTX load for the drop benchmark (bench/nvtx/rate_bench.sh, issue 20 item 2):
//   nvtx_rate THREADS RANGES_PER_SECOND_PER_THREAD SECONDS [BURST_MS]
// Each thread emits push+pop pairs on a schedule: by time t it has emitted rate * t pairs,
// in bursts of BURST_MS worth (default 1 ms) followed by a sleep, so the load is what an
// application emitting that rate does, not a tight loop. Prints the pairs emitted and the
// achieved rate, which the script compares with the report's NVTX row count and
// GSYS_DIAGNOSTICS' dropped_records.
#include <nvtx3/nvToolsExt.h>
#include <time.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

int64_t NowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

void SleepUntil(int64_t t_ns) {
  timespec ts{static_cast<time_t>(t_ns / 1000000000ll), static_cast<long>(t_ns % 1000000000ll)};
  clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr);
}

// Emits `rate` pairs/s for `seconds`; returns the pairs emitted.
int64_t Emit(double rate, double seconds, double burst_ms) {
  const int64_t start = NowNs();
  const int64_t end = start + static_cast<int64_t>(seconds * 1e9);
  const int64_t burst_ns = static_cast<int64_t>(burst_ms * 1e6);
  int64_t emitted = 0;
  for (int64_t slot = start; slot < end; slot += burst_ns) {
    const int64_t due = static_cast<int64_t>(rate * ((slot + burst_ns - start) / 1e9));
    while (emitted < due) {
      nvtxRangePushA("rate_range");
      nvtxRangePop();
      ++emitted;
    }
    SleepUntil(slot + burst_ns);
  }
  return emitted;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: nvtx_rate THREADS RATE_PER_THREAD SECONDS [BURST_MS]\n");
    return 2;
  }
  const int threads = std::atoi(argv[1]);
  const double rate = std::atof(argv[2]);
  const double seconds = std::atof(argv[3]);
  const double burst_ms = argc > 4 ? std::atof(argv[4]) : 1.0;
  if (threads < 1 || rate <= 0 || seconds <= 0 || burst_ms <= 0) {
    std::fprintf(stderr, "nvtx_rate: THREADS >= 1, RATE, SECONDS and BURST_MS > 0\n");
    return 2;
  }
  std::atomic<int64_t> total{0};
  const int64_t t0 = NowNs();
  std::vector<std::thread> pool;
  for (int i = 0; i < threads; ++i) {
    pool.emplace_back([&] { total += Emit(rate, seconds, burst_ms); });
  }
  for (auto& t : pool) t.join();
  const double wall = (NowNs() - t0) / 1e9;
  std::printf("pairs=%lld wall_s=%.3f achieved_per_thread=%.0f\n",
              static_cast<long long>(total.load()), wall, total.load() / wall / threads);
  return 0;
}
