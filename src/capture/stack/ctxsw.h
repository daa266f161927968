// SPDX-License-Identifier: Apache-2.0
// Context switches of one thread (--cpuctxsw): a perf_event software "dummy" event on that
// thread with context_switch=1, which needs no privileges beyond perf_event_paranoid <= 2 (the
// default): the kernel writes a PERF_RECORD_SWITCH into the event's ring at every switch in and
// out, timestamped with CLOCK_MONOTONIC. The sampler thread opens one per thread and drains the
// rings into kStackSwitch records.
#pragma once

#include <cstdint>

#include "capture/stack/perf_ring.h"

namespace gsys::capture {

using CtxswRing = PerfRing;

// Opens the event for thread `tid` of this process. Returns 0 or the errno of the failure.
int CtxswOpen(uint32_t tid, CtxswRing* ring);
// Emits the switches recorded since the last drain as kStackSwitch records.
void CtxswDrain(uint32_t tid, CtxswRing* ring);
void CtxswClose(CtxswRing* ring);

}  // namespace gsys::capture
