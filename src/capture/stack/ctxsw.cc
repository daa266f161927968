// SPDX-License-Identifier: Apache-2.0
#include "capture/stack/ctxsw.h"

#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>

#include "capture/sink/sink.h"
#include "format/stack_records.h"

namespace gsys::capture {
namespace {

constexpr size_t kDataPages = 8;  // 32 KiB: ~1000 switches between two 50 ms drains

size_t PageSize() { return static_cast<size_t>(sysconf(_SC_PAGESIZE)); }

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
  long fd = syscall(SYS_perf_event_open, &a, static_cast<pid_t>(tid), -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0) return errno;
  size_t bytes = (1 + kDataPages) * PageSize();
  void* m = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, static_cast<int>(fd), 0);
  if (m == MAP_FAILED) {
    int e = errno;
    close(static_cast<int>(fd));
    return e;
  }
  ring->fd = static_cast<int>(fd);
  ring->base = m;
  return 0;
}

void CtxswDrain(uint32_t tid, CtxswRing* ring) {
  if (ring->base == nullptr) return;
  auto* meta = static_cast<perf_event_mmap_page*>(ring->base);
  const uint8_t* data = static_cast<const uint8_t*>(ring->base) + PageSize();
  const uint64_t size = kDataPages * PageSize();
  uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
  uint64_t tail = meta->data_tail;
  while (tail < head) {
    perf_event_header h;
    uint8_t rec[256];
    for (size_t i = 0; i < sizeof(h); ++i) reinterpret_cast<uint8_t*>(&h)[i] = data[(tail + i) % size];
    if (h.size < sizeof(h) || h.size > sizeof(rec)) break;
    for (size_t i = 0; i < h.size; ++i) rec[i] = data[(tail + i) % size];
    tail += h.size;
    if (h.type == PERF_RECORD_LOST) {
      uint64_t lost = 0;
      std::memcpy(&lost, rec + sizeof(h) + 8, sizeof(lost));
      ring->lost += lost;
      continue;
    }
    if (h.type != PERF_RECORD_SWITCH || h.size < sizeof(h) + 24) continue;
    // sample_id: u32 pid, tid; u64 time; u32 cpu, res.
    uint64_t time = 0;
    uint32_t cpu = 0;
    std::memcpy(&time, rec + sizeof(h) + 8, sizeof(time));
    std::memcpy(&cpu, rec + sizeof(h) + 16, sizeof(cpu));
    bool out = (h.misc & PERF_RECORD_MISC_SWITCH_OUT) != 0;
    bool preempt = out && (h.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) != 0;
    format::StackSwitchBody b{static_cast<int64_t>(time), tid, static_cast<uint16_t>(cpu),
                              static_cast<uint8_t>(out ? 0 : 1),
                              static_cast<uint8_t>(preempt ? format::kSwitchPreempted : 0)};
    EmitRecord(format::kStackSwitch, b);
  }
  __atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}

void CtxswClose(CtxswRing* ring) {
  if (ring->base != nullptr) munmap(ring->base, (1 + kDataPages) * PageSize());
  if (ring->fd >= 0) close(ring->fd);
  ring->base = nullptr;
  ring->fd = -1;
}

}  // namespace gsys::capture
