// SPDX-License-Identifier: Apache-2.0
// CpuSampler: -s process-tree. Periodic user-space stack samples of every thread of the
// process, without privileges, by one of two methods (docs/stacks.md):
//  * perf_event (perf_sampler.h, the default): a per-thread task-clock event whose samples carry
//    the user registers and a stack copy; nothing runs in the sampled threads. The sampler thread
//    waits in poll() on the events and unwinds the copies (cfi_unwind.h).
//  * timer signal (fallback when perf_event_open is refused, or GSYS_SAMPLING_METHOD=timer): one
//    POSIX timer per thread on that thread's CPU-time clock (timer_create with SIGEV_THREAD_ID),
//    firing a real-time signal that nothing else in the process uses. The handler unwinds the
//    interrupted stack (unwind.h) into the thread's own preallocated ring.
// Either way the sampler thread drains into kStackSample records every 50 ms, opens events or
// arms timers for new threads (it scans /proc/self/task) and brings the module map up to date.
// Sampling follows CPU time, so a thread is sampled only while it runs (timer: at most as often
// as the kernel's tick for CPU timers allows).
//
// Good-guest rules (timer method): the signal is one the process left at SIG_DFL (from SIGRTMAX
// down), the handler is installed with SA_RESTART (interrupted system calls resume), keeps errno
// and ignores signals that are not from our timers; should the process later take the signal
// for itself, the next scan sees it and stops every timer (one notice). Threads created and
// ended within one scan period are not sampled; fork children are not (exec'd ones are).
#pragma once

#include "capture/entry/env.h"

namespace gsys::capture {

// Starts sampling (and --cpuctxsw) per `config`; emits a notice record saying how or why not.
void StartCpuSampler(const SamplingConfig& config);
// Stops the timers and drains every ring into the sink (exit; tolerates signal context).
void StopCpuSampler();
// In a fork child: forget the parent's timers and thread (neither is inherited).
void ForgetCpuSamplerInChild();

}  // namespace gsys::capture
