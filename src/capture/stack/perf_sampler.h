// SPDX-License-Identifier: Apache-2.0
// CPU samples of one thread through perf_event (-s process-tree, the default method): a
// per-thread software PERF_COUNT_SW_TASK_CLOCK event that overflows every `period_ns` of the
// thread's CPU time. At each overflow the kernel writes a sample into the event's ring: time
// (CLOCK_MONOTONIC), tid, cpu, the user registers (ip, sp, bp) and a copy of the top
// kStackCopyBytes of the user stack. exclude_kernel=1 keeps it within perf_event_paranoid <= 2,
// the default, without privileges. Nothing runs in the sampled thread: no signal, no handler;
// the sampler thread drains the rings, unwinds each copied stack with DWARF CFI
// (cfi_unwind.h) and emits kStackSample records, the same records the timer-signal method
// writes. The kernel's frame-pointer callchain (PERF_SAMPLE_CALLCHAIN) is not used: code built
// without frame pointers (x86-64 -O2, Debian's libraries) gives wrong chains after frame 0.
//
// Threading: every function is called by the sampler thread only (and by a fork child on its
// way out, for Close).
#pragma once

#include <cstddef>
#include <cstdint>

#include "capture/stack/perf_ring.h"

namespace gsys::capture {

using PerfSampleRing = PerfRing;  // lost: samples the kernel dropped

inline constexpr uint32_t kStackCopyBytes = 8192;  // as `perf record --call-graph dwarf`

// True on architectures where the copied stack can be unwound (x86-64).
bool PerfSamplingSupported();
// Opens and maps the sampling event of thread `tid` of this process. Returns 0 or the errno of
// the failure (EACCES/EPERM: perf_event_paranoid 3 or a seccomp filter; ENOMEM/EPERM from mmap:
// over the locked-memory allowance).
int PerfSampleOpen(uint32_t tid, int64_t period_ns, PerfSampleRing* ring);
// Emits the samples recorded since the last drain as kStackSample records; returns how many.
uint32_t PerfSampleDrain(PerfSampleRing* ring);
void PerfSampleClose(PerfSampleRing* ring);

}  // namespace gsys::capture
