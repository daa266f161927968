// SPDX-License-Identifier: Apache-2.0
#include "capture/stack/perf_sampler.h"

#include <cerrno>
#include <cstring>
#include <ctime>
#include <iterator>

#include "capture/clock/clock.h"
#include "capture/sink/sink.h"
#include "capture/stack/cfi_unwind.h"
#include "format/stack_records.h"

namespace gsys::capture {
namespace {

#if defined(__x86_64__)
// PERF_REG_X86_BP, _SP, _IP (asm/perf_regs.h); in a sample the values follow in bit order.
constexpr uint64_t kRegsMask = (1ull << 6) | (1ull << 7) | (1ull << 8);
#else
constexpr uint64_t kRegsMask = 0;
#endif
constexpr int kNumRegs = 3;
// Ring sizes tried in order: 256 KiB holds ~30 samples (a 15 ms half-ring wakeup at 1 kHz);
// smaller ones when the locked-memory allowance (perf_event_mlock_kb) is short.
constexpr size_t kDataPagesTried[] = {64, 32, 16};
// One sample: header, tid, time, cpu, abi, 3 registers, size, stack copy, dyn size.
constexpr size_t kMaxSampleBytes = 8 + 8 + 8 + 8 + 8 + 8 * kNumRegs + 8 + kStackCopyBytes + 8;

alignas(16) uint8_t g_scratch[kMaxSampleBytes];  // sampler thread only

template <typename T>
T Take(const uint8_t*& p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  p += sizeof(T);
  return v;
}

// Parses one PERF_RECORD_SAMPLE (`size` bytes) and emits it.
bool EmitSample(const uint8_t* rec, size_t size, int64_t ticks0, int64_t ns0) {
  const uint8_t* p = rec + sizeof(perf_event_header);
  const uint8_t* end = rec + size;
  if (static_cast<size_t>(end - p) < 32) return false;
  Take<uint32_t>(p);  // pid
  uint32_t tid = Take<uint32_t>(p);
  uint64_t time = Take<uint64_t>(p);
  uint32_t cpu = Take<uint32_t>(p);
  Take<uint32_t>(p);
  uint64_t abi = Take<uint64_t>(p);
  if (abi == PERF_SAMPLE_REGS_ABI_NONE) return false;  // no user context (kernel thread)
  if (static_cast<size_t>(end - p) < 8 * kNumRegs + 8) return false;
  UnwindRegs regs{};
  regs.bp = Take<uint64_t>(p);
  regs.sp = Take<uint64_t>(p);
  regs.ip = Take<uint64_t>(p);
  uint64_t copied = Take<uint64_t>(p);
  const uint8_t* stack = p;
  uint64_t dyn = 0;
  if (copied != 0) {
    if (static_cast<uint64_t>(end - p) < copied + 8) return false;
    std::memcpy(&dyn, p + copied, 8);
    if (dyn > copied) dyn = copied;
  }
  uint64_t pc[format::kMaxStackFrames];
  int n = UnwindCopiedStack(regs, stack, dyn, pc, static_cast<int>(format::kMaxStackFrames));
  int64_t ticks = ticks0 + NsToTicks(static_cast<int64_t>(time) - ns0);
  format::StackSampleBody b{ticks, tid, static_cast<uint16_t>(cpu), static_cast<uint16_t>(n)};
  EmitRecord(format::kStackSample, b, reinterpret_cast<const char*>(pc),
             static_cast<uint32_t>(n) * 8);
  return true;
}

// The clock pair of one drain and the samples it emitted.
struct DrainState {
  int64_t ticks0;
  int64_t ns0;
  uint32_t emitted;
};

void VisitSample(const perf_event_header& h, const uint8_t* rec, void* context) {
  auto* state = static_cast<DrainState*>(context);
  if (h.type == PERF_RECORD_SAMPLE && EmitSample(rec, h.size, state->ticks0, state->ns0)) {
    ++state->emitted;
  }
}

}  // namespace

bool PerfSamplingSupported() { return kRegsMask != 0 && CfiUnwindSupported(); }

int PerfSampleOpen(uint32_t tid, int64_t period_ns, PerfSampleRing* ring) {
  if (!PerfSamplingSupported()) return ENOTSUP;
  perf_event_attr a{};
  a.size = sizeof(a);
  a.type = PERF_TYPE_SOFTWARE;
  a.config = PERF_COUNT_SW_TASK_CLOCK;
  a.sample_period = static_cast<uint64_t>(period_ns);
  a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_REGS_USER |
                  PERF_SAMPLE_STACK_USER;
  a.sample_regs_user = kRegsMask;
  a.sample_stack_user = kStackCopyBytes;
  a.use_clockid = 1;
  a.clockid = CLOCK_MONOTONIC;
  a.exclude_kernel = 1;
  a.exclude_hv = 1;
  // No wakeup_events/watermark: the kernel then wakes a poll() on the fd when half the ring is
  // used (the sampler polls the fds between its scans).
  return PerfRingOpen(&a, tid, kDataPagesTried, std::size(kDataPagesTried), ring);
}

uint32_t PerfSampleDrain(PerfSampleRing* ring) {
  // One (ticks, CLOCK_MONOTONIC) pair per drain converts the kernel's timestamps: samples are at
  // most one drain period old, so the rate estimate's error stays far below a microsecond.
  // Records are read in place where they do not wrap (perf_ring.h): copying all 8 KiB of each
  // pulled every cache line of the record to this CPU, and the kernel's next writes there (in
  // the sampled thread's timer interrupt) paid for taking them back: measured +20..40 % of the
  // sampled thread's CPU at 8 kHz.
  DrainState state{NowTicks(), MonotonicNs(), 0};
  PerfRingDrain(ring, g_scratch, sizeof(g_scratch), VisitSample, &state);
  return state.emitted;
}

void PerfSampleClose(PerfSampleRing* ring) { PerfRingClose(ring); }

}  // namespace gsys::capture
