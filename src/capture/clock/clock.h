// SPDX-License-Identifier: Apache-2.0
// Clocks of the capture library (docs/architecture.md, decision 3).
// Events carry "ticks": the TSC on x86
// hosts with an invariant TSC (a few ns to read, unlike clock_gettime in many VMs), else
// CLOCK_MONOTONIC ns. The writer records (ticks, CLOCK_MONOTONIC ns) pairs in the stream
// (format kClockSync) and the importer converts, so reports stay in CLOCK_MONOTONIC ns.
#pragma once

#include <cstdint>
#include <ctime>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace gsys::capture {

inline int64_t MonotonicNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

inline int64_t RealtimeNs() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

extern bool g_ticks_are_tsc;

// The event clock.
inline int64_t NowTicks() {
#if defined(__x86_64__)
  if (__builtin_expect(g_ticks_are_tsc, 1)) return static_cast<int64_t>(__rdtsc());
#endif
  return MonotonicNs();
}

// Chooses the event clock once at init: the TSC when invariant (and GSYS_CLOCK is not
// "monotonic"), else CLOCK_MONOTONIC.
void ChooseTickClock(bool allow_tsc);
// Refines the ticks-per-ns estimate from two (ticks, ns) pairs (writer thread, at start).
void CalibrateTicks(int64_t ticks0, int64_t ns0, int64_t ticks1, int64_t ns1);
// `ns` as a tick count, with the current estimate (conservative before calibration).
int64_t NsToTicks(int64_t ns);

}  // namespace gsys::capture
