// SPDX-License-Identifier: Apache-2.0
#include "capture/stack/ctxsw.h"

#include <cstring>
#include <ctime>

#include "capture/sink/sink.h"
#include "format/stack_records.h"

namespace gsys::capture {
namespace {

constexpr size_t kDataPages[] = {8};  // 32 KiB: ~1000 switches between two 50 ms drains

void EmitSwitch(const perf_event_header& h, const uint8_t* rec, void* context) {
  if (h.type != PERF_RECORD_SWITCH || h.size < sizeof(h) + 24) return;
  // sample_id: u32 pid, tid; u64 time; u32 cpu, res.
  uint64_t time = 0;
  uint32_t cpu = 0;
  std::memcpy(&time, rec + sizeof(h) + 8, sizeof(time));
  std::memcpy(&cpu, rec + sizeof(h) + 16, sizeof(cpu));
  bool out = (h.misc & PERF_RECORD_MISC_SWITCH_OUT) != 0;
  bool preempt = out && (h.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) != 0;
  format::StackSwitchBody b{static_cast<int64_t>(time), *static_cast<const uint32_t*>(context),
                            static_cast<uint16_t>(cpu), static_cast<uint8_t>(out ? 0 : 1),
                            static_cast<uint8_t>(preempt ? format::kSwitchPreempted : 0)};
  EmitRecord(format::kStackSwitch, b);
}

}  // namespace

int CtxswOpen(uint32_t tid, CtxswRing* ring) {
  perf_event_attr a{};
  a.size = sizeof(a);
  a.type = PERF_TYPE_SOFTWARE;
  a.config = PERF_COUNT_SW_DUMMY;
  a.context_switch = 1;
  a.sample_id_all = 1;
  a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
  a.use_clockid = 1;
  a.clockid = CLOCK_MONOTONIC;
  a.exclude_kernel = 1;
  a.exclude_hv = 1;
  return PerfRingOpen(&a, tid, kDataPages, 1, ring);
}

void CtxswDrain(uint32_t tid, CtxswRing* ring) {
  uint8_t scratch[256];  // a switch record is 40 bytes
  PerfRingDrain(ring, scratch, sizeof(scratch), EmitSwitch, &tid);
}

void CtxswClose(CtxswRing* ring) { PerfRingClose(ring); }

}  // namespace gsys::capture
