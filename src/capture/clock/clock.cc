// SPDX-License-Identifier: Apache-2.0
#include "capture/clock/clock.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include <atomic>

namespace gsys::capture {

bool g_ticks_are_tsc = false;

namespace {
// Ticks per ns, x 2^20. Before calibration a TSC is assumed to run at 3 GHz.
std::atomic<int64_t> g_ticks_per_ns_q20{1 << 20};
}  // namespace

void ChooseTickClock(bool allow_tsc) {
#if defined(__x86_64__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (allow_tsc && __get_cpuid_max(0x80000000, nullptr) >= 0x80000007) {
    __cpuid(0x80000007, a, b, c, d);
    if ((d & (1u << 8)) != 0) {  // invariant TSC: constant rate, synchronized across cores
      g_ticks_are_tsc = true;
      g_ticks_per_ns_q20.store(3ll << 20);
    }
  }
#else
  (void)allow_tsc;
#endif
}

void CalibrateTicks(int64_t ticks0, int64_t ns0, int64_t ticks1, int64_t ns1) {
  if (!g_ticks_are_tsc || ns1 - ns0 < 1000000 || ticks1 <= ticks0) return;
  double ratio = static_cast<double>(ticks1 - ticks0) / static_cast<double>(ns1 - ns0);
  g_ticks_per_ns_q20.store(static_cast<int64_t>(ratio * (1 << 20)));
}

int64_t NsToTicks(int64_t ns) {
  return static_cast<int64_t>(
      (static_cast<__int128>(ns) * g_ticks_per_ns_q20.load(std::memory_order_relaxed)) >> 20);
}

}  // namespace gsys::capture
